"""What a page shows about a model, shaped from the same rows and rules as the JSON API.

No decision is made here: status comes from the lifecycle, the upgrade from resolve/upgrade.py and
its id in each format from pick_upgrade_alias (docs/api-decisions.md#upgrade_alias); this module only
groups them for a person and names where each fact came from.
"""

from .. import wording
from ..queries import catalog, prices
from ..queries.capabilities import capability_set
from . import price_chart
from ..queries.basis import BASIS_TEXT, why
from ..fields import (ALIAS_SOURCES, CURATION, HUB_PLATFORM, OFFICIAL, PLATFORM_NAMES, PLATFORMS, RETIRING,
                      SOURCE_URLS)
from ..lifecycle import days_left
from ..resolve.index import AliasRow
from ..resolve.upgrade import pick_upgrade_alias, upgrade_aliases

metadata = catalog.metadata_of      # a model row's metadata as a dict (empty when none)


def platform_ids(db, row) -> list:
    """The model on each platform serving it, in PLATFORMS order: [{source, label, ids, lifecycle}].

    ids: its ids there, primary first (a published-weights repo id is the hub's); lifecycle: that
    platform's status, days, whether they are its own schedule, and its upgrade there when it differs
    from the model's own (catalog.platform_dict, docs/lifecycle.md#platforms).
    """
    aliases = upgrade_aliases(db, row)
    lifecycles = {r["platform"]: catalog.platform_dict(r) for r in catalog.platform_lifecycles(db, row["id"])}
    own_upgrade = (lifecycles.get(OFFICIAL) or {}).get("upgrade")

    def where(alias: AliasRow) -> str:
        return HUB_PLATFORM if alias.source == OFFICIAL and "/" in alias.alias and HUB_PLATFORM in lifecycles \
            else alias.source

    shown = []
    for platform in PLATFORMS:
        ids = [a.alias for a in aliases if where(a) == platform]
        if not ids:
            continue
        lifecycle = lifecycles.get(platform)
        if lifecycle is not None and lifecycle["upgrade"] == own_upgrade:
            lifecycle = {**lifecycle, "upgrade": None}   # the same move as the model's own: said once, above
        shown.append({"source": platform, "label": PLATFORM_NAMES[platform], "ids": ids, "lifecycle": lifecycle})
    return shown


def explain_upgrade(row, upgrade, lifecycle) -> str:
    """Why the upgrade is what it is, as a sentence ("Why: ..."): the API's answer (queries.basis.why) in words
    (docs/lifecycle.md#why); "" where none is stored."""
    if upgrade is None or lifecycle is None:
        return ""
    told = why(row, upgrade, lifecycle)
    reason = BASIS_TEXT.get(told["basis"])
    if reason is None:
        return ""
    named = told["named_by"]
    said = f" Why: {reason}" + (f" (source: {named['source']})" if named else "")
    changed = [f"{CHANGE_WORDS.get(what, what)} {_shown(c['from'], what)} to {_shown(c['to'], what)}"
               for what, c in told["changes"].items()]
    return said + (f"; it changes {', '.join(changed)}" if changed else "") + "."


CHANGE_WORDS = {"model_type": "the kind of model from", "tier": "the tier from", "input_modalities": "its input from",
                "output_modalities": "its output from", "input_context_window": "its context from",
                "open_weights": "open weights from", "input_per_mtok": "its price per 1M input tokens here from",
                "output_per_mtok": "its price per 1M output tokens here from"}
MONEY = ("input_per_mtok", "output_per_mtok")   # compared only where both prices are in one currency (USD)


def _shown(value, what: str) -> str:
    if what in MONEY:
        return wording.money(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "+".join(value)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def upgrade_ids(db, row, upgrade) -> list:
    """The upgrade's id in each platform format: [{label, current, upgrade}], one per platform the upgrade is on.

    current: this model's primary id there (None when it has none); upgrade: the id resolve would answer
    for it (the same format and decoration), else that platform's primary id of the upgrade.
    """
    mine, theirs = upgrade_aliases(db, row), upgrade_aliases(db, upgrade)
    shown = []
    for source in ALIAS_SOURCES:
        candidates = [a for a in theirs if a.source == source]
        if not candidates:
            continue
        current = min((a for a in mine if a.source == source), key=lambda a: a.position, default=None)
        chosen = pick_upgrade_alias(current, candidates) if current else min(candidates, key=lambda a: a.position)
        shown.append({"label": PLATFORM_NAMES[source], "current": current.alias if current else None,
                      "upgrade": chosen.alias})
    return shown


def price_rows(db, row, today: str) -> list:
    """What the model page says of prices: one row per platform that prices the model, today's price with its
    day and source, and the chart of every price it had there (GET /models/{slug}/prices, drawn)."""
    periods: dict = {}
    for price in prices.history(db, row, catalog.metadata_of(row)):
        periods.setdefault(price["platform"], []).append(price)
    return [{"label": PLATFORM_NAMES[platform], "platform": platform, "price": shown[-1], "periods": len(shown),
             "words": wording.price(shown[-1]) if shown[-1]["effective_to"] is None else None,
             "cached": None if shown[-1]["cached_input_read_per_mtok"] is None
             else wording.money(shown[-1]["cached_input_read_per_mtok"], shown[-1]["currency"]),
             "tiers": [f"above {tier['above_input_tokens']:,} input tokens: "
                       + wording.price({**tier, "currency": shown[-1]["currency"]}) for tier in shown[-1]["tiers"]]
             + [words + (f" (source: {source})" if (source := shown[-1]["modes"][name].get("source"))
                         not in (None, shown[-1]["source"]) else "")
                for name, words in wording.mode_prices(shown[-1]).items()],
             "chart": price_chart.chart(shown, today)}
            for platform, shown in periods.items()]


def lifecycle_rows(db, rows, today: str) -> list:
    """What a page says of each model's lifecycle, as the API answers it: [{model, upgrade, days_left}]. The badge
    is model.status, the countdown wording.countdown(days_left, model.sunset_date), and the upgrade the model's
    own (GET /models/{slug}/upgrade), read for a model that is going (deprecated or sunset) only."""
    upgrades = catalog.official_upgrades(db, [r["id"] for r in rows if r["status"] in RETIRING])
    return [{"model": r, "upgrade": upgrades.get(r["id"]), "days_left": days_left(r["sunset_date"], today)}
            for r in rows]


def shutdowns(own: list, clouds: list, today: str) -> list:
    """The models' own shutdowns (rows) and the clouds' (schedule.platform_shutdowns) as one list, soonest
    first: [{model, where, status, day, days_left, url}]; `where` names the platform whose id stops working and
    `status` is the model's there, as the API answers for that platform's ids (a Bedrock row whose model its
    provider already shut down is deprecated on Bedrock, not sunset)."""
    merged = [{"model": m, "where": PLATFORM_NAMES[OFFICIAL], "status": m["status"], "day": m["sunset_date"],
               "url": None} for m in own]
    merged += [{"model": c["model"], "where": PLATFORM_NAMES[c["source"]],
                "status": c["status"] or c["model"]["status"], "day": c["schedule"]["sunset_date"],
                "url": c["schedule"].get("deprecation_url")} for c in clouds]
    merged.sort(key=lambda s: (s["day"], s["model"]["slug"], s["where"]))
    return [{**s, "days_left": days_left(s["day"], today)} for s in merged]


def source_link(source: str, provider_slug: str) -> dict:
    """A fact's source as a person reads it: {name, url}; curation names the provider's YAML file."""
    if source == CURATION:
        return {"name": f"curation/{provider_slug}.yaml", "url": None}
    return {"name": source, "url": SOURCE_URLS.get(source)}


def changes(rows: list) -> list:
    """Change history rows (changes.recent_changes) with their day and their source as a person reads it."""
    return [{**c, "day": c["occurred_at"][:10], "via": source_link(c["source"], c["provider_slug"])}
            if c["source"] else {**c, "day": c["occurred_at"][:10], "via": None} for c in rows]


def provenance(row) -> list:
    """Where the model's facts came from, one entry per source: [{name, url, fields}], fields sorted."""
    by_source = {}
    for field, source in sorted((metadata(row).get("provenance") or {}).items()):
        by_source.setdefault(source, []).append(field)
    return [{**source_link(source, row["provider_slug"]), "fields": fields} for source, fields in by_source.items()]


def facts_of(row) -> list:
    """The model's own facts, each as (label, value), in the order a page lists them; None where unknown: who
    makes it, its days, its size and its context (its capabilities are capability_set's)."""
    meta = metadata(row)
    return [("Provider", row["provider_name"]), ("Family", row["family_name"]), ("Version", row["version"]),
            ("Type", row["model_type"]), ("Released", row["release_date"]),
            ("Deprecated", row["deprecation_date"]), ("Shutdown", row["sunset_date"]),
            ("Not shut down before", meta.get("earliest_sunset_date")),
            ("Parameters", row["parameter_label"] or _count(row["parameter_count"])),
            ("Input context", _count(row["input_context_window"])),
            ("Output tokens", _count(row["output_context_window"]))]


def model_facts(row) -> list:
    """The model's facts worth a row on its page, as (label, value) with None left out: its own facts, then the
    capabilities a source states (docs/api-decisions.md#capabilities); an unknown one has no row."""
    facts = facts_of(row) + [(wording.capability_name(name), wording.capability(value))
                             for name, value in capability_set(row).items() if value is not None]
    return [(label, value) for label, value in facts if value]


def _count(value) -> str | None:
    return f"{value:,}" if value else None

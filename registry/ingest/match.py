"""Turn a source's Records into its facts: match each to a model by slug or alias, then store.

A source writes only its own lane (docs/lifecycle.md#sources-stay-in-their-lane): a provider's
listing only that provider's models and aliases, a feed row only the provider it names, the hub
only open-weights models of its organisations. A claim on another provider's model, alias or
replacement is refused and listed in the run's details. Before any of that, every value a record
carries has passed the one check of upstream values (validate.py).
"""
from collections import Counter

from ..fields import CATALOG_SOURCES, FEED_SOURCE, HUB_SOURCE, OFFICIAL, PLATFORM_SOURCES
from ..merge.facts import fact_rows
from . import held as held_back, prices, validate
from .matcher import Matcher, slugify


def records_to_facts(conn, source: str, records) -> tuple[list, list, dict]:
    """Return (fact rows, alias fact rows, details) for a source's records.

    details accounts for every record: how many landed on a known model, how many are new models,
    and every other one with its reason (a platform's row, an unknown provider, an id no model has,
    an id that is no identifier); `refused` lists every refused record, value and alias with why,
    `refused_values` and `cleaned` count what the check of upstream values did (validate.py).
    """
    checked = validate.check(records)
    matcher = Matcher(conn)
    placed = {}     # slug -> merged fields; the first record for a model wins per field
    aliases = {}    # (alias, alias_source) -> (slug, position)
    successors = {}
    tally, unknown, refused = Counter(checked.refused_records), [], list(checked.refused)
    platform, unattached = PLATFORM_SOURCES.get(source), []
    # A gateway's floating id of a line comes last: it names a model only the catalog's other ids can show it serves.
    for record in sorted(checked.records, key=lambda r: r.model_id.startswith("~")):
        if record.skip:
            tally[record.skip] += 1
            continue
        if source in CATALOG_SOURCES:
            slug, why = _catalog_row(matcher, record)
            if slug is None:
                tally[why] += 1
                (refused if why.startswith("refused") else unknown).append(f"{record.platform}/{record.model_id}")
                continue
            tally["landed on a known model"] += 1
            _place_catalog_row(placed.setdefault(slug, {}), record)
            continue
        if platform is not None and (any(a[1] != platform for a in record.aliases)
                                     or set(record.fields.get("platforms", {})) - {platform}
                                     or set(record.fields.get("prices", {})) - {platform}):
            tally["refused: another platform's id or schedule"] += 1
            refused.append(f"{record.provider}/{record.model_id}: not an id or schedule of {platform}")
            continue
        # An alias another provider's model holds is no way into that model (refused below, alone).
        names = [a for a, _ in record.aliases if not matcher.foreign(a, record.provider)]
        slug = matcher.find(record.model_id, [*names, *record.links])
        if slug is None and platform is not None:
            slug = matcher.attach(record) or matcher.attach_floating(record, platform, placed)
        elif slug is None and "cloud-b" in record.fields.get("platforms", {}):
            slug = matcher.find_vertex(record.model_id)
        why = _outside_lane(source, record, matcher.owner.get(slug)) if slug is not None else None
        if why:
            tally["refused: another lane's model"] += 1
            refused.append(f"{record.provider or 'platform'}/{record.model_id} -> {slug}: {why}")
            continue
        if slug is None and platform is not None:
            # A platform's id of a model the registry does not know: listed for a curator, never a model of its own.
            tally["platform id no model of its provider is"] += 1
            unattached.append(f"{record.provider}/{record.model_id}")
            continue
        if slug is None:
            if not record.provider:
                tally["platform row with an id no model has" if "platforms" in record.fields
                      else "not a provider's model"] += 1
                continue
            if source == HUB_SOURCE and not record.fields.get("release_date"):
                # A repo older than the hub's creation dates (a research checkpoint) that no curated model
                # claims: no day says when it was released, so it is no working model to list.
                tally["undated repo no curated model claims"] += 1
                continue
            # Kept under the id's slug even for the feed: merge never creates a model from feed facts
            # alone, but they apply once a provider source lists it, whatever the order of runs.
            slug = slugify(record.model_id)
            if source == FEED_SOURCE:
                tally["unknown id"] += 1
                unknown.append(f"{record.provider}/{record.model_id}")
            else:
                tally["new model"] += 1
        else:
            tally["landed on a known model"] += 1
        fields = placed.setdefault(slug, {})
        for field, value in record.fields.items():
            if field == "successor":
                successors.setdefault(slug, value)
            elif field == "platforms":   # one record per cloud id: their schedules add up
                fields.setdefault(field, {}).update(value)
            else:
                fields.setdefault(field, value)
        if record.provider:
            fields.setdefault("provider", record.provider)
        positions = {}
        for alias, alias_source in record.aliases:
            owner = matcher.aliases.get(alias)
            if owner != slug and matcher.foreign(alias, record.provider):
                tally["refused: another provider's alias"] += 1
                refused.append(f"{record.provider}/{record.model_id}: alias {alias} is {owner}'s"
                               f" ({matcher.owner[owner][0]})")
                continue
            if (alias, alias_source) not in aliases:
                aliases[(alias, alias_source)] = (slug, positions.get(alias_source, 0))
                positions[alias_source] = positions.get(alias_source, 0) + 1
    for slug, successor_id in successors.items():
        # An unknown replacement keeps its slug: merge links it when that model exists.
        target = matcher.find(successor_id) or slugify(successor_id)
        mine, theirs = placed[slug].get("provider"), matcher.owner.get(target, (None,))[0]
        if mine and theirs and theirs != mine:
            tally["refused: another provider's replacement"] += 1
            refused.append(f"{mine}/{slug}: replacement {target} is {theirs}'s")
        elif target != slug:
            placed[slug]["successor"] = target
    held, shrunk = prices.dated(conn, source, placed), held_back.shrinking_windows(conn, source, placed)
    facts = _within_bound(fact_rows(source, placed), refused, checked.refused_values)
    alias_rows = [(source, alias, slug, alias_source, position)
                  for (alias, alias_source), (slug, position) in aliases.items()]
    details = {"records": sum(tally.values()), "outcomes": dict(sorted(tally.items()))}
    if unknown:
        details["unknown_ids"] = _bounded(sorted(unknown))
    if unattached:   # registry curate --drift lists them too (docs/curating.md#drift)
        details["unattached"] = _bounded(sorted(unattached))
    if refused:
        details["refused"] = _bounded(sorted(refused))
    if held:   # registry curate --drift lists them too (docs/api.md#prices)
        details["held_prices"] = _bounded(sorted(held))
    if shrunk:
        details["held_windows"] = _bounded(shrunk)
    details.update(checked.details())
    return facts, alias_rows, details


MAX_LISTED = 500   # lines of a run's details: the counts stay exact, the list is what an operator reads
# Bytes of facts one model may have from one source, as stored (JSON). Each value is bounded on its own
# (validate.py), but 200 keys nested 6 deep are not small: 38 MB of one model's `capabilities` made its
# answers slow for everyone (issue 44). The largest real record is under 1 KB.
MAX_RECORD_BYTES = 64 * 1024


def _within_bound(rows: list, refused: list, counts) -> list:
    """The fact rows with, for each model past MAX_RECORD_BYTES, its largest values dropped until it fits;
    each drop listed in refused and counted (a model's id and dates are small: they are never the ones)."""
    totals = {}
    for _source, slug, _field, value in rows:
        totals[slug] = totals.get(slug, 0) + len(value)
    over = {slug for slug, total in totals.items() if total > MAX_RECORD_BYTES}
    if not over:
        return rows
    dropped = set()
    for slug in over:
        total = totals[slug]
        for row in sorted((r for r in rows if r[1] == slug), key=lambda r: len(r[3]), reverse=True):
            if total <= MAX_RECORD_BYTES:
                break
            total -= len(row[3])
            dropped.add(row)
            refused.append(f"{slug}: {row[2]} ({len(row[3])} bytes) dropped: the model's facts from this source"
                           f" held {totals[slug]} bytes, past the {MAX_RECORD_BYTES} a record may hold")
            counts[f"{row[2]} past the bytes a record may hold"] += 1
    return [r for r in rows if r not in dropped]


def _bounded(lines: list) -> list:
    """At most MAX_LISTED lines, the last saying how many more there were."""
    if len(lines) <= MAX_LISTED:
        return lines
    return lines[:MAX_LISTED] + [f"... and {len(lines) - MAX_LISTED} more (counted in outcomes and refused_values)"]


def _catalog_row(matcher, record) -> tuple:
    """(slug, None) for a public catalog's row in its lane, else (None, why): its id must be one the registry knows
    on the row's platform, its price that platform's, and only a provider's own row may state the model's own
    capabilities (docs/data-flow.md#the-public-catalog)."""
    slug = matcher.on_platform(record.model_id, record.platform)
    if slug is None:
        return None, "an id the registry does not know on its platform"
    if set(record.fields.get("prices", {})) - {record.platform}:
        return None, "refused: another platform's price"
    if record.platform != OFFICIAL and set(record.fields) - {"prices"}:
        return None, "refused: a platform's row states the model's own facts"
    if record.provider and matcher.owner.get(slug, (record.provider,))[0] != record.provider:
        return None, "refused: another provider's model"
    return slug, None


def _place_catalog_row(fields: dict, record) -> None:
    """A public catalog's row into its model's fields: the first row of the model on each platform gives that
    platform's price, the first to state a capability gives it."""
    for field, value in record.fields.items():
        if field == "prices":
            fields.setdefault(field, {}).setdefault(record.platform, value[record.platform])
        else:
            fields.setdefault(field, value)


def _outside_lane(source: str, record, owner: tuple | None) -> str | None:
    """Why a record may not write the known model it landed on (None: its own lane)."""
    if owner is None:
        return None
    provider, open_weights = owner
    if record.provider and record.provider != provider:
        return f"a model of {provider}, not of {record.provider}"
    if source == HUB_SOURCE and not open_weights:
        return "not an open-weights model (the hub writes only published weights)"
    return None

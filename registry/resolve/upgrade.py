"""The upgrade as the read path serves it: the stored decision, and its id in the caller's own format.

The decision itself (final and forward, per platform) is registry/lifecycle/upgrade.py, made by the
write path and stored in platform_lifecycles; this module reads it for /models/{slug}/upgrade,
/resolve, the pages, feeds, webhooks, the scanner and MCP alike, and picks the upgrade's alias that
keeps the caller's format (docs/lifecycle.md#upgrade-alias).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..queries import catalog
from ..fields import PLATFORM_NAMES
from ..fields import OFFICIAL
from .index import AliasRow
from ..normalize import DIRECT_API_PREFIXES, HOSTED_PATHS, decoration


def upgrade_for(db, row, platform: str = OFFICIAL):
    """The upgrade of a model (a full row) on a platform, as a full row, or None.

    Read from platform_lifecycles: a model has a row for its own API and for each platform serving
    its ids; a platform it has no row for follows its own API's decision.
    """
    lifecycle = catalog.platform_lifecycle(db, row["id"], platform)
    if lifecycle is None and platform != OFFICIAL:
        lifecycle = catalog.platform_lifecycle(db, row["id"], OFFICIAL)
    if lifecycle is None or lifecycle["upgrade_id"] is None:
        return None
    return catalog.model_row(db, model_id=lifecycle["upgrade_id"])


def _hub_form(alias: str) -> bool:
    """A published-weights repo id ('Qwen/Qwen3-8B'): an organisation path, not the path head of a provider's
    own API id ('models/gemini-2.5-pro', LiteLLM's 'gemini/gemini-2.5-pro'), which names its API id."""
    head, slash, _ = alias.partition("/")
    return bool(slash) and head.lower() not in HOSTED_PATHS and head.lower() not in DIRECT_API_PREFIXES


def wanted_form(matched: AliasRow, query: str | None) -> tuple:
    """(region, pinned, variant, hub form) the caller's id has: the query's own region prefix and
    gateway variant (normalization may have stripped them to match) before the matched alias's."""
    region, pinned, variant = decoration(matched.alias)
    if query is not None:
        asked = decoration(query)
        region, variant = asked[0] or region, asked[2] or variant
    return (region, pinned, variant, matched.source == "official" and _hub_form(query or matched.alias))


def alias_form(alias: AliasRow) -> tuple:
    """(region, pinned, variant, hub form) an alias has, to weigh against wanted_form."""
    region, pinned, variant = decoration(alias.alias)
    return (region, pinned, variant, alias.source == "official" and _hub_form(alias.alias))


def pick_upgrade_alias(matched: AliasRow, upgrade_aliases: list[AliasRow], query: str | None = None) -> AliasRow | None:
    """The upgrade model's alias in the matched alias's format (docs/lifecycle.md#upgrade-alias).

    query: the string the caller sent; its own region prefix or gateway variant is kept in
    preference to the matched alias's. Only aliases of the same source qualify (None when there is
    none). Among them: the one with the same decoration (region prefix, date-pinned vs floating,
    gateway variant, a hub repo id for a hub repo id); failing that, the one keeping the most
    important parts (region first, then hub form, then pin, then variant); then the source's
    primary alias (lowest position); then the alias string.
    """
    same = [a for a in upgrade_aliases if a.source == matched.source]
    if len(same) < 2:   # none, or the only alias of that format: nothing to weigh
        return same[0] if same else None
    want = wanted_form(matched, query)

    def key(a: AliasRow) -> tuple:
        d = alias_form(a)
        return (d != want, d[0] != want[0], d[3] != want[3], d[1] != want[1], d[2] != want[2], a.position, a.alias)

    return min(same, key=key)


@dataclass(frozen=True)
class FormatKept:
    """Whether the upgrade's alias is served where the caller's id is (its source, region prefix, hub
    repo form and gateway variant kept), and a note on whatever of the caller's format it could not keep
    (a dated snapshot moving to a floating id is noted, but is kept: decisions allow that move)."""

    kept: bool
    note: str | None = None


def format_kept(matched: AliasRow, chosen: AliasRow | None, upgrade, query: str | None = None) -> FormatKept:
    """What of the caller's id format the chosen upgrade alias keeps (docs/lifecycle.md#upgrade-alias)."""
    where = PLATFORM_NAMES[matched.source]
    name = upgrade["display_name"]
    if chosen is None:
        return FormatKept(False, f"{name} has no id on {where}: no upgrade id in your format.")
    want, has = wanted_form(matched, query), alias_form(chosen)
    lost, noted = [], []
    if want[0] and has[0] != want[0]:
        lost.append(f"no {want[0]}. cross-region inference profile on {where}; this is its "
                    + (f"{has[0]}. profile" if has[0] else "in-region id"))
    if want[3] and not has[3]:
        lost.append("no Hugging Face repo id; this is its provider API id")
    if want[2] and has[2] != want[2]:
        lost.append(f"no :{want[2]} variant on {where}")
    if want[1] != has[1]:
        noted.append("no dated snapshot id; this is its floating id" if want[1]
                     else "no floating id; this is a dated snapshot id")
    parts = lost + noted
    return FormatKept(not lost, f"{name} has " + "; and ".join(parts) + "." if parts else None)


def upgrade_alias_for(db, matched: AliasRow, upgrade, query: str | None = None) -> AliasRow | None:
    """The alias of the upgrade model (a row) that keeps the matched alias's format, or None."""
    return pick_upgrade_alias(matched, upgrade_aliases(db, upgrade), query=query)


def upgrade_aliases(db, upgrade) -> list[AliasRow]:
    """An upgrade model's aliases as AliasRows."""
    return [AliasRow(alias=a["alias"], source=a["source"], model_slug=upgrade["slug"], position=a["position"],
                     release_date=upgrade["release_date"], status=upgrade["status"], listed=bool(a["listed"]))
            for a in catalog.model_aliases(db, upgrade["id"])]

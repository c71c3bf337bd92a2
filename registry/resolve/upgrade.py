"""The upgrade decision: successor chain, family latest, and the alias in the caller's format.

docs/api-decisions.md#upgrade says what a recommendation must be; this module is the one
place that decides it, for /models/{slug}/upgrade and /resolve alike.
"""
from __future__ import annotations

from .. import queries
from .index import AliasRow
from .normalize import decoration


def upgrade_for(db, row):
    """The recommended upgrade row for a model row, or None (docs/api-decisions.md#upgrade).

    Follow successor links to the end (cycle-safe), then the family's latest when the
    end of the chain is not the latest; never a sunset model when a working one is on the path.
    """
    if row["status"] == "latest":
        return None
    path, seen, current = [], {row["id"]}, row
    while current["successor_id"] and current["successor_id"] not in seen:
        current = queries.model_row(db, model_id=current["successor_id"])
        if current is None:
            break
        seen.add(current["id"])
        path.append(current)
    end = path[-1] if path else row
    if end["status"] != "latest":
        latest = queries.family_latest(db, end["family_id"])
        if latest is not None and latest["id"] not in seen:
            path.append(latest)
    working = [m for m in path if m["status"] != "sunset"]
    return (working or path or [None])[-1]


def pick_upgrade_alias(matched: AliasRow, upgrade_aliases: list[AliasRow], query: str | None = None) -> AliasRow | None:
    """The upgrade model's alias in the matched alias's format (docs/api-decisions.md#upgrade_alias).

    query: the string the caller sent; its own region prefix or gateway variant (which
    normalization may have stripped to match) is kept in preference to the matched alias's.

    Only aliases of the same source qualify (None when there is none). Among them: the one
    with the same decoration (region prefix, date-pinned vs floating, gateway variant);
    failing that, the one keeping the most important parts (region first, then pin, then
    variant); then the source's primary alias (lowest position); then the alias string.
    """
    same = [a for a in upgrade_aliases if a.source == matched.source]
    if len(same) < 2:   # none, or the only alias of that format: nothing to weigh
        return same[0] if same else None
    want = decoration(matched.alias)
    if query is not None:
        asked = decoration(query)
        want = (asked[0] or want[0], want[1], asked[2] or want[2])

    def key(a: AliasRow) -> tuple:
        d = decoration(a.alias)
        return (d != want, d[0] != want[0], d[1] != want[1], d[2] != want[2],
                a.position, a.alias)

    return min(same, key=key)


def upgrade_alias_for(db, matched: AliasRow, upgrade, query: str | None = None) -> AliasRow | None:
    """The alias of the upgrade model (a row) that keeps the matched alias's format, or None."""
    candidates = [AliasRow(alias=a["alias"], source=a["source"], model_slug=upgrade["slug"],
                           position=a["position"], release_date=upgrade["release_date"], status=upgrade["status"])
                  for a in queries.model_aliases(db, upgrade["id"])]
    return pick_upgrade_alias(matched, candidates, query=query)

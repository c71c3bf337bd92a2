"""The upgrade decision: successor chain, a sound family upgrade, and the alias in the caller's format.

docs/api-decisions.md#upgrade says what a recommendation must be; this module is the one
place that decides it, for /models/{slug}/upgrade and /resolve alike.
"""
from __future__ import annotations

from .. import queries
from . import soundness
from .index import AliasRow
from .normalize import decoration

# A product line has tens of working models, not thousands: past this many newer ones, none is sound
# enough to find (bounds the work of one answer on a registry with huge families).
SCAN_LIMIT = 64


def successor_chain(db, row) -> list:
    """The models the successor links lead to from row, in order (cycle-safe).

    A link that breaks LINK_RULES (another kind of model, a catch-all family) ends the chain there.
    """
    path, seen, current = [], {row["id"]}, row
    while current["successor_id"] and current["successor_id"] not in seen:
        following = queries.model_row(db, model_id=current["successor_id"])
        if following is None or soundness.broken_rules(current, following, soundness.LINK_RULES):
            break
        seen.add(following["id"])
        path.append(following)
        current = following
    return path


def family_upgrade(db, model, family_id: int | None = None):
    """The newest working model of a family (model's own unless family_id names another) that is a
    sound upgrade for model, or None."""
    family_id = model["family_id"] if family_id is None else family_id
    # The family's latest first: one indexed row, and the answer whenever it is sound (most often).
    latest = queries.family_latest(db, family_id)
    if latest is not None:
        if soundness.released_after(model, latest):
            return None   # the newest working model is not newer than this one: none is
        if latest["id"] != model["id"] and soundness.is_sound(model, latest, soundness.INFERRED_RULES):
            return latest
    for seen, candidate in enumerate(queries.working_family_models(db, family_id)):
        if seen >= SCAN_LIMIT or soundness.released_after(model, candidate):
            return None   # newest first: every later candidate is older still (or undated)
        if candidate["id"] != model["id"] and soundness.is_sound(model, candidate, soundness.INFERRED_RULES):
            return candidate
    return None


def upgrade_for(db, row):
    """The recommended upgrade row for a model row, or None (docs/api-decisions.md#upgrade).

    The provider's replacement first: follow the successor links to the end; a working end is the
    answer. Where the chain ends at a deprecated or retired model (or there is none), the newest
    working model of that model's family that is a sound upgrade for this one; failing that, the
    last working model on the chain, else the provider's own replacement. A family's latest has no
    upgrade.
    """
    if row["status"] == "latest":
        return None
    path = successor_chain(db, row)
    if path and soundness.working(path[-1]):
        return path[-1]
    inferred = family_upgrade(db, row, path[-1]["family_id"] if path else None)
    if inferred is not None:
        return inferred
    working = [m for m in path if soundness.working(m)]
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

"""Identifier -> model -> upgrade: normalize.py, index.py (matching), cache.py, upgrade.py."""
from __future__ import annotations

from dataclasses import dataclass

from .. import queries
from .cache import alias_index
from .index import Match
from .upgrade import upgrade_alias_for, upgrade_for


@dataclass
class Resolution:
    """What /resolve answers: the match, the matched model's row, its upgrade row and alias."""

    match: Match
    model: object
    upgrade: object | None
    upgrade_alias: object | None


def resolve_identifier(db, path: str, generation: int | None, q: str) -> Resolution | None:
    """Resolve any identifier string to its model and format-preserving upgrade; None if nothing matches."""
    match = alias_index(db, path, generation).match(q)
    if match is None:
        return None
    row = queries.model_row(db, slug=match.row.model_slug)
    upgrade = upgrade_for(db, row)
    chosen = upgrade_alias_for(db, match.row, upgrade, query=q) if upgrade is not None else None
    return Resolution(match, row, upgrade, chosen)

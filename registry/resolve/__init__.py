"""Identifier -> model -> upgrade: normalize, platform_forms, index, substring, cache, upgrade."""
from __future__ import annotations

from dataclasses import dataclass

from .. import queries
from ..merge import lifecycle
from .cache import alias_index
from . import soundness
from .index import Match
from .upgrade import upgrade_alias_for, upgrade_for


@dataclass
class Resolution:
    """What /resolve answers: the match, the matched model's row, its upgrade row and alias."""

    match: Match
    model: object
    upgrade: object | None
    upgrade_alias: object | None
    platform: dict | None = None   # the matched id's cloud schedule, when that cloud has its own

    @property
    def status(self) -> str:
        """The matched id's status today: its cloud's, when that cloud retires it on its own schedule
        (docs/api-decisions.md#lifecycle), else the model's."""
        return self.platform["status"] if self.platform else self.model["status"]


def resolve_identifier(db, path: str, generation: int | None, q: str) -> Resolution | None:
    """Resolve any identifier string to its model and format-preserving upgrade; None if nothing matches."""
    match = alias_index(db, path, generation).match(q)
    if match is None:
        return None
    row = queries.model_row(db, slug=match.row.model_slug)
    upgrade = upgrade_for(db, row)
    chosen = upgrade_alias_for(db, match.row, upgrade, query=q) if upgrade is not None else None
    platform = lifecycle.platform_schedule(row["metadata"], match.row.source)
    if platform is not None and platform["status"] is None:
        # Nothing retiring on that cloud yet: the id works there, whatever the provider's own API does.
        platform["status"] = row["status"] if soundness.working(row) else "active"
    return Resolution(match, row, upgrade, chosen, platform)

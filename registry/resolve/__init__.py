"""Identifier -> model -> upgrade: normalize, platform_forms, index, substring, cache, upgrade."""
from __future__ import annotations

from dataclasses import dataclass

from ..queries import catalog
from ..fields import HUB_PLATFORM, OFFICIAL
from .cache import alias_index
from .index import Match
from .upgrade import FormatKept, format_kept, pick_upgrade_alias, upgrade_alias_for, upgrade_aliases, upgrade_for

_HUB_HOSTS = ("https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "hf.co/")


@dataclass
class Resolution:
    """What /resolve answers: the match, the matched model's row, the lifecycle of the platform the
    identifier belongs to, and the upgrade there with its alias in the caller's format."""

    match: Match
    model: object
    platform: str                 # official, cloud-a, cloud-b, gateway or hub
    lifecycle: object             # the platform_lifecycles row of (model, platform)
    upgrade: object | None
    upgrade_alias: object | None
    kept: FormatKept | None = None

    @property
    def status(self) -> str:
        """The identifier's status today: its platform's (docs/lifecycle.md#platforms)."""
        return self.lifecycle["status"]


def platform_of(q: str, matched, lifecycles: dict) -> str:
    """The platform an identifier belongs to: the hub for a published-weights repo id of open weights
    ('meta-llama/Llama-3.2-3B-Instruct', 'https://huggingface.co/Qwen/Qwen3-8B'), else its alias's source."""
    if matched.source == OFFICIAL and HUB_PLATFORM in lifecycles:
        text = q.strip()
        for host in _HUB_HOSTS:
            if text.lower().startswith(host):
                return HUB_PLATFORM
        if "/" in matched.alias or (text.count("/") == 1 and text != text.lower()):
            return HUB_PLATFORM
    return matched.source


def resolve_identifier(db, path: str, generation: int | None, q: str, target=None) -> Resolution | None:
    """Resolve any identifier string to its model and its platform's lifecycle and format-keeping
    upgrade; None if nothing matches. target: as answer_match takes it."""
    match = alias_index(db, path, generation).match(q)
    return None if match is None else answer_match(db, q, match, target)


def upgrade_target(db, model_id: int) -> tuple:
    """(full row, alias rows) of a model that is an upgrade: all an answer reads of it."""
    row = catalog.model_row(db, model_id=model_id)
    return row, (upgrade_aliases(db, row) if row is not None else [])


def answer_match(db, q: str, match: Match, target=None) -> Resolution:
    """What the registry answers for an identifier q that matched an alias (resolve, the calendar and
    webhooks of a watched id alike). target(model_id): upgrade_target of a model, read from db when not
    given (the API keeps them per data generation: a family's models share one upgrade)."""
    row, platforms = catalog.model_with(db, match.row.model_slug)
    lifecycles = {r["platform"]: r for r in platforms}
    platform = platform_of(q, match.row, lifecycles)
    lifecycle = lifecycles.get(platform) or lifecycles.get("official") or _unknown(row)
    upgrade = chosen = kept = None
    if lifecycle["upgrade_id"] and target is not None:
        upgrade, aliases = target(lifecycle["upgrade_id"])   # upgrade_alias_for, its aliases already read
        chosen = pick_upgrade_alias(match.row, aliases, query=q) if upgrade is not None else None
    elif lifecycle["upgrade_id"]:
        upgrade = catalog.model_row(db, model_id=lifecycle["upgrade_id"])
        chosen = upgrade_alias_for(db, match.row, upgrade, query=q) if upgrade is not None else None
    if upgrade is not None:
        kept = format_kept(match.row, chosen, upgrade, query=q)
    return Resolution(match, row, platform, lifecycle, upgrade, chosen, kept)


def as_watched(db, row, identifier: str | None = None, match: Match | None = None) -> tuple:
    """(lifecycle days {deprecation_date, sunset_date, sources, ...}, upgrade row, upgrade alias) of a
    model: as a watched identifier's own platform has them, in its format (its /resolve answer,
    docs/lifecycle.md#platforms) when it matched an alias, else the model's own days and upgrade.
    The calendar and webhooks of a watched id both read this."""
    if match is not None:
        found = answer_match(db, identifier, match)
        alias = found.upgrade_alias.alias if found.upgrade_alias else None
        return catalog.platform_dict(found.lifecycle), found.upgrade, alias
    own = {"deprecation_date": row["deprecation_date"], "sunset_date": row["sunset_date"], "sources": None}
    return own, upgrade_for(db, row), None


def _unknown(row) -> dict:
    """A model whose lifecycle was never decided (a database written before it was stored): its own fields."""
    return {"platform": "official", "status": row["status"], "deprecation_date": row["deprecation_date"],
            "sunset_date": row["sunset_date"], "upgrade_id": None, "successor_id": row["successor_id"],
            "own_schedule": 0, "sources": None, "successor_slug": None, "successor_name": None,
            "upgrade_slug": None, "upgrade_name": None, "upgrade_status": None}


__all__ = ["Resolution", "answer_match", "as_watched", "platform_of", "resolve_identifier", "upgrade_for",
           "upgrade_target"]

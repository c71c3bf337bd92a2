"""Identifier -> model -> upgrade: normalize, platform_forms, index, substring, cache, written, upgrade."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from ..queries import catalog
from ..fields import HUB_PLATFORM, OFFICIAL, PLATFORM_NAMES, RETIRING
from .cache import alias_index
from .index import Match
from ..normalize import normalize as normalized
from .platform_forms import spelled_differently
from .upgrade import FormatKept, format_kept, pick_upgrade_alias, upgrade_aliases, upgrade_for
from .written import Written, written

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
    how: Written = field(default_factory=Written)   # how the caller wrote the id: its route, its platform
    first_party: object | None = None   # the provider's own upgrade, where it is another model than upgrade
    notes: list = field(default_factory=list)       # what the answer could not give in the caller's terms

    @property
    def status(self) -> str:
        """The identifier's status today: its platform's (docs/lifecycle.md#platforms)."""
        return self.lifecycle["status"]


def platform_of(q: str, matched, lifecycles: dict, how: Written | None = None) -> str:
    """The platform an identifier belongs to: the one its route names where the model is served there
    ('vertex_ai/gemini-2.5-pro'); the provider's own API for an id of a platform outside the four; the hub for a
    published-weights repo id of open weights ('meta-llama/Llama-3.2-3B-Instruct', 'https://huggingface.co/Qwen/
    Qwen3-8B'); else its alias's source."""
    if how is not None and how.platform in lifecycles:
        return how.platform
    if how is not None and how.outside:   # another platform's id: the provider's own lifecycle, no other platform's
        return OFFICIAL
    if matched.source == OFFICIAL and HUB_PLATFORM in lifecycles and (how is None or not how.prefix):
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
    webhooks of a watched id alike): on the platform q is written for, the upgrade chosen there and its id
    written as q is (docs/lifecycle.md#the-upgrade). target(model_id): upgrade_target of a model, read from db
    when not given (the API keeps them per data generation: a family's models share one upgrade)."""
    row, platforms = catalog.model_with(db, match.row.model_slug)
    lifecycles = {r["platform"]: r for r in platforms}
    how = written(q, gateway_listed=match.stage == "exact" and match.row.source == "gateway",
                  spelled_elsewhere=match.stage == "form" and spelled_differently(normalized(q),
                                                                                  normalized(match.row.alias)))
    bare = q.strip()[len(how.prefix):]   # the platform's id as the caller wrote it, without the client's route
    platform = platform_of(q, match.row, lifecycles, how)
    lifecycle = lifecycles.get(platform) or lifecycles.get(OFFICIAL) or _unknown(row)
    if how.platform and how.platform != platform:
        # Not served where the route says: the answer is another platform's, so its ids are written bare.
        note = f"{row['display_name']} has no id on {PLATFORM_NAMES[how.platform]}: this answer is for " \
               f"{PLATFORM_NAMES[platform]}."
        how = Written()
    else:
        note = None
    found = Resolution(match, row, platform, lifecycle, None, None, how=how, notes=[note] if note else [])
    if lifecycle["upgrade_id"]:
        found.upgrade, aliases = (target or partial(upgrade_target, db))(lifecycle["upgrade_id"])
    own = lifecycles.get(OFFICIAL)
    if own is not None and platform != OFFICIAL and own["upgrade_id"] and own["upgrade_id"] != lifecycle["upgrade_id"]:
        # named beside, not written: its row alone (kept with its aliases where the caller keeps them)
        first = own["upgrade_id"]
        found.first_party = target(first)[0] if target else catalog.model_row(db, model_id=first)
    if found.upgrade is None:
        if found.first_party is not None:
            where = PLATFORM_NAMES[platform]
            found.notes.append((f"{where} serves no working fit of {row['display_name']}" if lifecycle["status"]
                                in RETIRING else f"{row['display_name']} is still served on {where}")
                               + f"; its provider's own upgrade is {found.first_party['display_name']}, on its API.")
        return found
    if how.outside:
        # An id of a platform outside the registry's four: its model and upgrade, never another platform's id.
        found.notes.append(how.outside_note(bare, found.upgrade["display_name"]))
        return found
    in_platform = _platform_alias(match.row, platform)
    found.upgrade_alias = pick_upgrade_alias(in_platform, aliases, query=bare)
    found.kept = format_kept(in_platform, found.upgrade_alias, found.upgrade, query=bare)
    return found


def _platform_alias(matched, platform: str):
    """The matched alias as an id of the platform answered for (a Gemini id matched on the Gemini API, asked
    as `vertex_ai/...`, is Vertex AI's id of the same string); the hub's ids are the provider's own."""
    return matched if platform in (matched.source, HUB_PLATFORM) else replace(matched, source=platform)


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


__all__ = ["Resolution", "Written", "answer_match", "as_watched", "platform_of", "resolve_identifier",
           "upgrade_for", "upgrade_target", "written"]

"""Status from dates, one latest per family, and a floating id's inherited lifecycle (docs/lifecycle.md#status)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from ..config import setting
from ..fields import WORKING
DATES = ("deprecation_date", "sunset_date")


def today() -> str:
    """Today's date (UTC) as ISO; REGISTRY_TODAY pins it, for reproducible runs and tests."""
    return setting("REGISTRY_TODAY") or datetime.now(timezone.utc).date().isoformat()


def days_left(day: str | None, on: str | None = None) -> int | None:
    """Whole days from today (UTC, or REGISTRY_TODAY) to day; negative once it has passed; None if unknown."""
    if not day:
        return None
    try:
        return (date.fromisoformat(day[:10]) - date.fromisoformat(on or today())).days
    except ValueError:   # a month-only date ('2025-04') has no day to count to
        return None


def working(status: str | None) -> bool:
    """Active or latest (None: working, before the family's latest is chosen)."""
    return status is None or status in WORKING


@dataclass
class Member:
    """What the rules read of one model: plain values, loaded by the write path.

    flags: the lifecycle signals sources gave (deprecated, retired: a provider's flags; status: a
    curated pin). schedules: platform -> {deprecation_date, sunset_date, successor_id, status, source}
    (metadata.platforms). sources: field -> the source of the model's own lifecycle values.
    served: the platforms its ids belong to (alias sources, and 'hub' for published weights).
    key / pinned: its slug normalized, and whether that names a dated snapshot (the write path
    computes both with registry/normalize.py).
    """

    id: int
    slug: str
    family_id: int
    model_type: str | None = None
    release_date: str | None = None
    deprecation_date: str | None = None
    sunset_date: str | None = None
    parameter_count: int | None = None
    successor_id: int | None = None
    points_to_id: int | None = None
    flags: dict = field(default_factory=dict)
    schedules: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)
    served: frozenset = frozenset()
    removed: bool = False
    open_weights: bool = False
    key: str = ""
    pinned: bool = False
    preview: bool = False   # the provider calls it a preview or experimental release (lifecycle.is_preview)
    provider_id: int | None = None   # whose model it is: a platform's own best fit is among the same provider's
    # what it reads and writes (its capabilities), None where no source says: a fit keeps them (fit.py)
    version: str | None = None   # the model's number ("5.0") or date stamp, as curated or listed
    input_modalities: frozenset | None = None
    output_modalities: frozenset | None = None

    def dates(self) -> dict:
        """The model's own lifecycle days."""
        return {"deprecation_date": self.deprecation_date, "sunset_date": self.sunset_date}


def derive(dates: dict, flags: dict, on: str) -> str | None:
    """Status from lifecycle days and flags, before the family's latest is chosen.

    Returns sunset or deprecated, or None for a working model (active or latest): sunset once the
    shutdown day has passed (or a source lists it retired); deprecated once the deprecation day has
    passed, a source flags it, or a shutdown is scheduled with no deprecation day known (scheduling
    it is the announcement). A known future deprecation day still waits for its day.
    """
    sunset, deprecation = dates.get("sunset_date"), dates.get("deprecation_date")
    if (sunset and sunset <= on) or flags.get("retired"):
        return "sunset"
    if (deprecation and deprecation <= on) or flags.get("deprecated"):
        return "deprecated"
    if sunset and not deprecation:
        return "deprecated"
    return None


def inherited(member: Member, members: dict) -> Member:
    """A floating id's lifecycle where the provider documents none of its own: its target's days,
    flags, replacement and platform schedules (docs/lifecycle.md#floating-ids); others as they are."""
    target = members.get(member.points_to_id)
    if target is None or any(member.dates().values()) or member.flags:
        return member
    return Member(**{**member.__dict__, "deprecation_date": target.deprecation_date,
                     "sunset_date": target.sunset_date, "flags": dict(target.flags),
                     "successor_id": member.successor_id or target.successor_id,
                     "schedules": {**target.schedules, **member.schedules},
                     "sources": {**{k: v for k, v in target.sources.items() if k in DATES + ("successor",)},
                                 **member.sources, "points_to": member.sources.get("points_to")}})


def competes_for_latest(member: Member) -> bool:
    """A tombstone (no source lists it) and a floating id (an alias of its target) never are latest."""
    return not member.removed and member.points_to_id is None


def own_statuses(members: dict, on: str) -> dict:
    """id -> the model's own (first-party) status on day `on`: pins, then dates, then exactly one
    latest per family among its working models (the newest release; none when all are retiring)."""
    status, pinned = {}, {}
    for m in members.values():
        if m.flags.get("status"):
            pinned[m.id] = m.flags["status"]
        status[m.id] = pinned.get(m.id) or derive(m.dates(), m.flags, on)
    by_family: dict = {}
    for m in members.values():
        by_family.setdefault(m.family_id, []).append(m)
    for family in by_family.values():
        live = [m for m in family if status[m.id] in (None, "latest")]
        pinned_latest = [m for m in live if pinned.get(m.id) == "latest"]
        candidates = pinned_latest or [m for m in live if m.id not in pinned and competes_for_latest(m)]
        newest = max(candidates, key=lambda m: (m.release_date or "", m.slug), default=None)
        for m in live:
            if m.id not in pinned or pinned[m.id] == "latest":
                status[m.id] = "latest" if m is newest else "active"
    return status

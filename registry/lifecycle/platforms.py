"""Each model's lifecycle on each platform that serves it, with the upgrade there (docs/lifecycle.md#platforms).

`official` is the provider's own API: the model's own fields. Another platform (Bedrock `cloud-a`,
Vertex AI `cloud-b`, the gateway, the `hub` for published weights) has its own status, days and
replacement where it has a schedule of its own (metadata.platforms); without one, a cloud or the
gateway follows the model's own lifecycle, and the hub serves the weights for as long as they are
published, whatever a host does with its copy.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..fields import HUB_PLATFORM, OFFICIAL
from .status import DATES, Member, derive, inherited, own_statuses, working
from .upgrade import UNSERVED, View, upgrade_in


@dataclass
class Lifecycle:
    """One model on one platform: its status today, days, named replacement, upgrade and sources."""

    status: str
    deprecation_date: str | None = None
    sunset_date: str | None = None
    successor_id: int | None = None
    upgrade_id: int | None = None
    upgrade_basis: str | None = None   # why the upgrade (lifecycle/upgrade.py BASES)
    sources: dict = field(default_factory=dict)
    own_schedule: bool = False   # the days are the platform's own (metadata.platforms), not the model's


def on_platform(member: Member, platform: str, own: str, on: str) -> Lifecycle:
    """A model's lifecycle on one platform, given its own status (without the upgrade)."""
    # successor_url: the page naming the replacement, kept beside its source (queries/basis.py named_by)
    own_sources = {k: member.sources[k] for k in DATES + ("successor", "successor_url") if member.sources.get(k)}
    if platform == OFFICIAL:
        return Lifecycle(own, member.deprecation_date, member.sunset_date, member.successor_id,
                         sources=own_sources)
    entry = member.schedules.get(platform) or {}
    named = entry.get("sources") or {}
    if any(entry.get(k) for k in (*DATES, "status", "successor")):
        days = {k: entry.get(k) for k in DATES}
        status = entry.get("status") or derive(days, {}, on) or (own if working(own) else "active")
        successor = entry.get("successor_id")
        sources = {k: named.get(k, entry.get("source")) for k in (*DATES, "status", "successor") if entry.get(k)}
        if successor is not None and entry.get("deprecation_url"):   # the platform's page names its replacement
            sources["successor_url"] = entry["deprecation_url"]
        if successor is None and platform != HUB_PLATFORM:   # the provider's named replacement, with its source
            successor = member.successor_id
            if successor is not None and own_sources.get("successor"):
                sources.update((k, own_sources[k]) for k in ("successor", "successor_url") if own_sources.get(k))
        return Lifecycle(status, days["deprecation_date"], days["sunset_date"], successor, own_schedule=True,
                         sources=sources)
    if platform == HUB_PLATFORM:   # published weights: no host's retirement shuts them down
        return Lifecycle(own if working(own) else "active")
    if entry.get("listed") and not working(own):
        # The platform's own catalog lists the id today with no schedule of its own: it still serves the model
        # its provider retired (Bedrock keeps a model its maker's API shut down).
        return Lifecycle("active", successor_id=member.successor_id, own_schedule=True,
                         sources={"status": named.get("listed", entry.get("source")),
                                  **{k: own_sources[k] for k in ("successor", "successor_url") if own_sources.get(k)}})
    return Lifecycle(own, member.deprecation_date, member.sunset_date, member.successor_id, sources=own_sources)


def _families(members: dict) -> dict:
    """family id -> ids of the models an upgrade may go to, newest release first, undated last."""
    families: dict = {}
    for m in members.values():
        if not m.removed and m.points_to_id is None:
            families.setdefault(m.family_id, []).append(m)
    return {fid: [m.id for m in sorted(ms, key=lambda m: (m.release_date or "", m.slug), reverse=True)]
            for fid, ms in families.items()}


def views(members: dict, family_successor: dict, on: str) -> dict:
    """platform -> (View, {id: Lifecycle without the upgrade}) for the model's own API and every
    platform serving some model; members as loaded (floating ids' inheritance applied here).

    Every other platform serves only its own models: every model it serves no id of has the status UNSERVED
    there, so an id of a cloud, the gateway or the hub is only ever sent to a model that platform serves (the
    upgrade is chosen on the caller's platform, docs/lifecycle.md#the-upgrade); a served model's status there
    is its platform schedule's, else the model's own (the hub: working while the weights are published).
    """
    effective = {mid: inherited(m, members) for mid, m in members.items()}
    own = own_statuses(effective, on)
    families = _families(effective)
    mine = {mid: on_platform(m, OFFICIAL, own[mid], on) for mid, m in effective.items()}
    by_kind: dict = {}   # every view's lines by kind: the same members and families, indexed once
    out = {OFFICIAL: (View(effective, {mid: lc.status for mid, lc in mine.items()},
                           {mid: lc.successor_id for mid, lc in mine.items()}, families, family_successor, by_kind,
                           frozenset(mid for mid, m in effective.items() if m.preview)),
                      mine)}
    official = out[OFFICIAL][0]
    for platform in sorted({p for m in effective.values() for p in m.served} - {OFFICIAL}):
        here = {mid: on_platform(m, platform, own[mid], on) for mid, m in effective.items()
                if platform in m.served or platform in m.schedules}
        hub = platform == HUB_PLATFORM
        served = {mid: lc for mid, lc in here.items() if platform in effective[mid].served}
        status = dict.fromkeys(effective, UNSERVED)
        successor = {} if hub else dict(official.successor)
        status.update((mid, lc.status) for mid, lc in served.items())
        successor.update((mid, lc.successor_id) for mid, lc in here.items())
        preview = official.preview | {mid for mid, m in effective.items()
                                      if (m.schedules.get(platform) or {}).get("preview")}
        out[platform] = (View(effective, status, successor, families, family_successor, by_kind, preview), served)
    return out


def lifecycles(members: dict, family_successor: dict, on: str) -> dict:
    """(model id, platform) -> Lifecycle for every model on its own API and each platform serving it,
    upgrades decided in each platform's view."""
    rows: dict = {}
    decided = views(members, family_successor, on)
    official, mine = decided[OFFICIAL]
    touched = {}
    for mid, lc in mine.items():
        touched[mid] = set()
        lc.upgrade_id, lc.upgrade_basis = upgrade_in(official, mid, touched[mid])
        rows[(mid, OFFICIAL)] = lc
    # where a platform may offer its own best fit: the provider offers an upgrade, or does not retire the model at all
    offered = frozenset(mid for mid, lc in mine.items() if lc.upgrade_id is not None or official.working(mid))
    moved_on = frozenset(mid for mid in mine if not official.working(mid))
    for platform, (view, here) in decided.items():
        if platform == OFFICIAL:
            continue
        view.own_best, view.moved_on = offered, moved_on
        # Lines where this platform still serves a model the provider's own API retired: there it may
        # offer a fit the model's own decision passed over.
        revived = {view.members[mid].family_id for mid in here
                   if view.working(mid) and not official.working(mid)}
        for mid, lc in here.items():
            # Where every model the model's own decision reached stands the same on this platform, the
            # platform decides the same (it only has fewer models to offer): computed once, reused.
            reached = touched[mid] | {mid}
            same = all(view.status[v] == official.status[v] and view.successor.get(v) == official.successor.get(v)
                       and (v in view.preview) == (v in official.preview)
                       for v in reached) and not _lines(view, reached) & revived \
                and (rows[(mid, OFFICIAL)].upgrade_id is not None or view.working(mid))   # else its own best fit
            own = rows[(mid, OFFICIAL)]
            lc.upgrade_id, lc.upgrade_basis = (own.upgrade_id, own.upgrade_basis) if same else upgrade_in(view, mid)
            rows[(mid, platform)] = lc
    return rows


def _lines(view, reached: set) -> set:
    """The families a decision through these models could look in: theirs and their successor lines."""
    families = {view.members[v].family_id for v in reached}
    return families | {line for f in families for line in view.successor_lines(f)}

"""The events an endpoint is due: each new change its filters match, and each shutdown that has come
within one of its day thresholds. Payloads are the Standard Webhooks shape {type, timestamp, data}."""
import json

from .. import wording
from ..queries import catalog, changes, schedule
from ..fields import CHANGE_KINDS as KINDS
from ..lifecycle import days_left, today
from ..resolve import as_watched
from ..resolve.index import AliasRow, Match
from ..resolve.upgrade import upgrade_alias_for

UPCOMING = "shutdown_upcoming"
EVENT_KINDS = KINDS + (UPCOMING,)
BATCH = 5000   # changes read per pass: a first notify after a big ingest reads them in steps


def _matched(watched: dict) -> AliasRow:
    return AliasRow(alias=watched["alias"], source=watched["alias_source"], model_slug=watched["slug"],
                    position=0, release_date=None, status="")


def _upgrade_alias(db, watched: dict | None, upgrade) -> str | None:
    """The upgrade as the watched id's own format names it (its alias of that source), else None."""
    if watched is None or upgrade is None or not watched.get("alias"):
        return None
    chosen = upgrade_alias_for(db, _matched(watched), upgrade, query=watched["identifier"])
    return chosen.alias if chosen is not None else None


def _lifecycle(db, row, watched: dict | None) -> tuple:
    """(shutdown day, upgrade row, upgrade alias) of a model as a watched id's platform has them
    (docs/lifecycle.md#platforms), else the model's own."""
    if watched is not None and watched.get("alias"):
        days, upgrade, alias = as_watched(db, row, watched["identifier"], Match(_matched(watched), "exact", 1.0))
    else:
        days, upgrade, alias = as_watched(db, row)
    return days["sunset_date"], upgrade, alias


class Endpoint:
    """One webhook row's filters, read once."""

    def __init__(self, row):
        self.id, self.cursor = row["id"], row["change_cursor"]
        self.watched = {m["slug"]: m for m in json.loads(row["models"])}
        self.providers = set(json.loads(row["providers"]))
        self.kinds = set(json.loads(row["kinds"]))
        self.days_before = sorted(json.loads(row["days_before"]))

    def wants(self, kind: str, model_slug: str, provider_slug: str) -> bool:
        """Whether an event of kind about that model passes every filter (an empty filter passes all)."""
        return ((not self.kinds or kind in self.kinds) and (not self.watched or model_slug in self.watched)
                and (not self.providers or provider_slug in self.providers))


def change_events(db, endpoint: Endpoint) -> tuple[list, int]:
    """(events, new cursor) for the changes after the endpoint's cursor that it wants."""
    events, cursor = [], endpoint.cursor
    while True:
        batch = changes.changes_after(db, cursor, BATCH)
        for change in batch:
            if endpoint.wants(change["kind"], change["model_slug"], change["provider_slug"]):
                watched = endpoint.watched.get(change["model_slug"])
                upgrade = catalog.model_by_slug(db, change["upgrade_slug"]) if change["upgrade_slug"] else None
                data = {**change, "watched_id": watched["identifier"] if watched else None,
                        "upgrade_alias": _upgrade_alias(db, watched, upgrade)}
                events.append((f"change-{change['id']}", f"change.{change['kind']}",
                               {"type": f"change.{change['kind']}", "timestamp": change["occurred_at"], "data": data}))
        if len(batch) < BATCH:
            return events, (batch[-1]["id"] if batch else cursor)
        cursor = batch[-1]["id"]


def threshold_events(db, endpoint: Endpoint, on: str | None = None) -> list:
    """One event per model whose shutdown is within the endpoint's smallest threshold it has reached."""
    if endpoint.kinds and UPCOMING not in endpoint.kinds:
        return []
    on = on or today()
    events = []
    watching = {"models": sorted(endpoint.watched)} if endpoint.watched else {}
    for row in schedule.dated_models(db, watching, platform_days=bool(endpoint.watched)):
        if not endpoint.wants(UPCOMING, row["slug"], row["provider_slug"]):
            continue
        watched = endpoint.watched.get(row["slug"])
        shutdown, upgrade, alias = _lifecycle(db, row, watched)
        if not shutdown or shutdown < on:
            continue
        left = days_left(shutdown, on)
        reached = [d for d in endpoint.days_before if d >= left]
        if not reached:
            continue
        threshold = reached[0]
        name = watched["identifier"] if watched else row["slug"]
        move_to = alias or (upgrade["slug"] if upgrade is not None else None)
        data = {"model_slug": row["slug"], "watched_id": watched["identifier"] if watched else None,
                "provider_slug": row["provider_slug"], "sunset_date": shutdown, "days_before": threshold,
                "days_left": left, "upgrade_slug": upgrade["slug"] if upgrade is not None else None,
                "upgrade_alias": alias, "title": wording.shutdown_upcoming(name, left, shutdown, move_to)}
        events.append((f"shutdown-{row['slug']}-{shutdown}-{threshold}", f"lifecycle.{UPCOMING}",
                       {"type": f"lifecycle.{UPCOMING}", "timestamp": f"{on}T00:00:00Z", "data": data}))
    return events

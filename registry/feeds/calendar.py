"""The lifecycle calendar (RFC 5545): an all-day event for every deprecation and shutdown day.

Each event's UID is fixed per (model, kind), so a calendar client that refreshes the subscription
updates a moved date instead of adding a second event; alarms fire 90, 30 and 7 days before a
shutdown. The upgrade is named in the watched identifier's own format when the caller named one
(docs/api-decisions.md#feeds).
"""
import json
from datetime import date, datetime, timedelta, timezone

import icalendar

from ..resolve.upgrade import upgrade_alias_for, upgrade_for
from . import GENERATOR, model_url

MIMETYPE = "text/calendar"
ALARM_DAYS = (90, 30, 7)
# kind -> (the date column, what the day means); kinds as the change history names the announcements.
EVENTS = {
    "deprecation_announced": ("deprecation_date", "deprecated"),
    "shutdown_scheduled": ("sunset_date", "shuts down"),
}


def uid(slug: str, kind: str) -> str:
    """The event's UID: the same for a (model, kind) whatever its date, run after run."""
    return f"{slug}.{kind}@{GENERATOR}"


def _stamp(iso: str) -> datetime:
    return datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _upgrade_name(db, row, watched) -> str | None:
    """The upgrade's name: in the watched id's format (its alias of that source) when one was named."""
    upgrade = upgrade_for(db, row)
    if upgrade is None:
        return None
    match = watched[1] if watched else None
    if match is not None:
        alias = upgrade_alias_for(db, match.row, upgrade, query=watched[0])
        if alias is not None:
            return alias.alias
    return upgrade["slug"]


def _event(row, kind: str, day: str, upgrade: str | None, label: str, base_url: str) -> icalendar.Event:
    column, meaning = EVENTS[kind]
    provenance = (json.loads(row["metadata"] or "{}").get("provenance") or {}).get(column)
    event = icalendar.Event()
    event.add("uid", uid(row["slug"], kind))
    event.add("dtstamp", _stamp(row["updated_at"]))
    event.add("last-modified", _stamp(row["updated_at"]))
    start = date.fromisoformat(day)
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(days=1))
    event.add("transp", "TRANSPARENT")
    summary = f"{label} {meaning}" + (f"; move to {upgrade}" if upgrade else "")
    event.add("summary", summary)
    lines = [f"{row['display_name']} ({row['provider_name']}) {meaning} on {day}.",
             f"Move to: {upgrade}." if upgrade else "No sound upgrade is known.",
             f"Source: {provenance}." if provenance else None, model_url(base_url, row["slug"])]
    event.add("description", "\n".join(line for line in lines if line))
    event.add("url", model_url(base_url, row["slug"]))
    event.add("categories", [kind])
    if kind == "shutdown_scheduled":
        for days in ALARM_DAYS:
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("trigger", timedelta(days=-days))
            alarm.add("description", f"{label} shuts down in {days} days ({day})")
            event.add_component(alarm)
    return event


def render(db, rows, watched: dict, kinds, since: str | None, until: str | None, base_url: str) -> bytes:
    """The calendar of rows' deprecation and shutdown days (within [since, until) when given).

    watched: slug -> (identifier, alias Match or None), as api/changes.py resolve_watched gives.
    """
    calendar = icalendar.Calendar()
    calendar.add("prodid", f"-//{GENERATOR}//lifecycle calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "Model deprecations and shutdowns")
    calendar.add("refresh-interval", timedelta(days=1), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "P1D")
    for row in rows:
        days = [(kind, row[EVENTS[kind][0]]) for kind in kinds]
        chosen = [(kind, day) for kind, day in days
                  if day and (since is None or day >= since[:10]) and (until is None or day < until[:10])]
        if not chosen:
            continue
        watched_id = watched.get(row["slug"])
        upgrade = _upgrade_name(db, row, watched_id)
        label = watched_id[0] if watched_id else row["slug"]
        for kind, day in chosen:
            calendar.add_component(_event(row, kind, day, upgrade, label, base_url))
    return calendar.to_ical()

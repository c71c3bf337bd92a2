"""The lifecycle calendar (RFC 5545): an all-day event for every deprecation and shutdown day.

Each event's UID is fixed per (model, kind), so a calendar client that refreshes the subscription
updates a moved date instead of adding a second event; alarms fire 90, 30 and 7 days before a
shutdown. The upgrade is named in the watched identifier's own format when the caller named one
(docs/api-decisions.md#feeds).
"""
import json
from dataclasses import dataclass
from datetime import date, timedelta

from .. import wording
from . import GENERATOR, ics, model_url

MIMETYPE = "text/calendar"
ALARM_DAYS = (90, 30, 7)
# kind -> the date column; kinds as the change history names the announcements (their words: registry/wording.py).
EVENTS = {"deprecation_announced": "deprecation_date", "shutdown_scheduled": "sunset_date"}


def uid(slug: str, kind: str) -> str:
    """The event's UID: the same for a (model, kind) whatever its date, run after run."""
    return f"{slug}.{kind}@{GENERATOR}"


def _stamp(iso: str) -> str:
    return iso.replace("-", "").replace(":", "")   # 2026-11-22T18:04:45Z -> 20261122T180445Z


def _day(iso: str) -> str:
    return iso.replace("-", "")


@dataclass(frozen=True)
class Entry:
    """One model's calendar: its row, its lifecycle days (the watched id's platform's, or its own: a
    dict with deprecation_date, sunset_date and their sources), the upgrade to name (in the watched
    id's format when there is one) and the label its events carry (the watched id, else the slug)."""

    row: object
    lifecycle: dict
    upgrade: str | None
    label: str


def _next_day(day: str) -> str | None:
    """The day after an ISO day, or None when it is no date a calendar can hold (a value of 9999-12-31
    once took the whole calendar down: docs/threat-model.md#writers)."""
    try:
        return (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    except (TypeError, ValueError, OverflowError):
        return None


def _event(entry: Entry, kind: str, day: str, base_url: str) -> bytes:
    row, upgrade, label = entry.row, entry.upgrade, entry.label
    provenance = ((entry.lifecycle.get("sources") or json.loads(row["metadata"] or "{}").get("provenance") or {})
                  .get(EVENTS[kind]))
    url = model_url(base_url, row["slug"])
    description = wording.day_description(row["display_name"], row["provider_name"], kind, day, upgrade,
                                          provenance, url)
    end = _next_day(day)
    properties = [
        ("UID", ics.text(uid(row["slug"], kind))), ("DTSTAMP", _stamp(row["updated_at"])),
        ("LAST-MODIFIED", _stamp(row["updated_at"])),
        ("DTSTART;VALUE=DATE", _day(day)), ("DTEND;VALUE=DATE", _day(end)), ("TRANSP", "TRANSPARENT"),
        ("SUMMARY", ics.text(wording.day_summary(label, kind, upgrade))),
        ("DESCRIPTION", ics.text(description)),
        ("URL;VALUE=URI", url), ("CATEGORIES", ics.text(kind))]
    alarms = [ics.component("VALARM", [("ACTION", "DISPLAY"), ("TRIGGER", f"-P{days}D"),
                                       ("DESCRIPTION", ics.text(wording.day_alarm(label, days, day)))])
              for days in (ALARM_DAYS if kind == "shutdown_scheduled" else ())]
    return ics.component("VEVENT", properties, alarms)


def render(entries: list, kinds, since: str | None, until: str | None, base_url: str) -> bytes:
    """The calendar of the entries' deprecation and shutdown days (within [since, until) when given):
    pure, the caller passes each model's days and upgrade (Entry)."""
    events = []
    for entry in entries:
        days = [(kind, entry.lifecycle[EVENTS[kind]]) for kind in kinds]
        chosen = [(kind, day) for kind, day in days if day and _next_day(day)
                  and (since is None or day >= since[:10]) and (until is None or day < until[:10])]
        events += [_event(entry, kind, day, base_url) for kind, day in chosen]
    return ics.component("VCALENDAR", [
        ("VERSION", "2.0"), ("PRODID", f"-//{GENERATOR}//lifecycle calendar//EN"), ("CALSCALE", "GREGORIAN"),
        ("METHOD", "PUBLISH"), ("X-WR-CALNAME", ics.text("Model deprecations and shutdowns")),
        ("REFRESH-INTERVAL;VALUE=DURATION", "P1D"), ("X-PUBLISHED-TTL", "P1D")], events)

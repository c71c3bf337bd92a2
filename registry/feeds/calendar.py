"""The lifecycle calendar (RFC 5545): an all-day event for every deprecation and shutdown day.

Each event's UID is fixed per (model, kind), so a calendar client that refreshes the subscription
updates a moved date instead of adding a second event; alarms fire 90, 30 and 7 days before a
shutdown. The upgrade is named in the watched identifier's own format when the caller named one
(docs/api-decisions.md#feeds).
"""
import json
from datetime import date, timedelta

from ..queries import catalog
from ..resolve import answer_match
from ..resolve.upgrade import upgrade_for
from . import GENERATOR, ics, model_url

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


def _stamp(iso: str) -> str:
    return iso.replace("-", "").replace(":", "")   # 2026-11-22T18:04:45Z -> 20261122T180445Z


def _day(iso: str) -> str:
    return iso.replace("-", "")


def entries(db, rows, watched: dict) -> list:
    """(row, lifecycle, upgrade name, label) for each model row: a watched id's own platform's days and
    upgrade in its format (the /resolve answer for it, docs/lifecycle.md#platforms), else the model's own
    days and its upgrade's slug.

    watched: slug -> (identifier, alias Match or None), as api/changes.py resolve_watched gives.
    """
    out = []
    for row in rows:
        identifier, match = watched.get(row["slug"]) or (None, None)
        if match is not None:
            found = answer_match(db, identifier, match)
            name = found.upgrade_alias.alias if found.upgrade_alias else (found.upgrade and found.upgrade["slug"])
            out.append((row, catalog.platform_dict(found.lifecycle), name, identifier))
            continue
        upgrade = upgrade_for(db, row)
        own = {"deprecation_date": row["deprecation_date"], "sunset_date": row["sunset_date"], "sources": None}
        out.append((row, own, upgrade["slug"] if upgrade else None, identifier or row["slug"]))
    return out


def _next_day(day: str) -> str | None:
    """The day after an ISO day, or None when it is no date a calendar can hold (a value of 9999-12-31
    once took the whole calendar down: docs/threat-model.md#writers)."""
    try:
        return (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    except (TypeError, ValueError, OverflowError):
        return None


def _event(row, lifecycle: dict, kind: str, day: str, upgrade: str | None, label: str, base_url: str) -> bytes:
    column, meaning = EVENTS[kind]
    provenance = ((lifecycle.get("sources") or json.loads(row["metadata"] or "{}").get("provenance") or {})
                  .get(column))
    url = model_url(base_url, row["slug"])
    lines = [f"{row['display_name']} ({row['provider_name']}) {meaning} on {day}.",
             f"Move to: {upgrade}." if upgrade else "No sound upgrade is known.",
             f"Source: {provenance}." if provenance else None, url]
    end = _next_day(day)
    properties = [
        ("UID", ics.text(uid(row["slug"], kind))), ("DTSTAMP", _stamp(row["updated_at"])),
        ("LAST-MODIFIED", _stamp(row["updated_at"])),
        ("DTSTART;VALUE=DATE", _day(day)), ("DTEND;VALUE=DATE", _day(end)), ("TRANSP", "TRANSPARENT"),
        ("SUMMARY", ics.text(f"{label} {meaning}" + (f"; move to {upgrade}" if upgrade else ""))),
        ("DESCRIPTION", ics.text("\n".join(line for line in lines if line))),
        ("URL;VALUE=URI", url), ("CATEGORIES", ics.text(kind))]
    alarms = [ics.component("VALARM", [("ACTION", "DISPLAY"), ("TRIGGER", f"-P{days}D"),
                                       ("DESCRIPTION", ics.text(f"{label} shuts down in {days} days ({day})"))])
              for days in (ALARM_DAYS if kind == "shutdown_scheduled" else ())]
    return ics.component("VEVENT", properties, alarms)


def render(entries_: list, kinds, since: str | None, until: str | None, base_url: str) -> bytes:
    """The calendar of the entries' deprecation and shutdown days (within [since, until) when given).

    entries_: what entries() gives: (row, lifecycle days, upgrade name, label) per model.
    """
    events = []
    for row, lifecycle, upgrade, label in entries_:
        days = [(kind, lifecycle[EVENTS[kind][0]]) for kind in kinds]
        chosen = [(kind, day) for kind, day in days if day and _next_day(day)
                  and (since is None or day >= since[:10]) and (until is None or day < until[:10])]
        events += [_event(row, lifecycle, kind, day, upgrade, label, base_url) for kind, day in chosen]
    return ics.component("VCALENDAR", [
        ("VERSION", "2.0"), ("PRODID", f"-//{GENERATOR}//lifecycle calendar//EN"), ("CALSCALE", "GREGORIAN"),
        ("METHOD", "PUBLISH"), ("X-WR-CALNAME", ics.text("Model deprecations and shutdowns")),
        ("REFRESH-INTERVAL;VALUE=DURATION", "P1D"), ("X-PUBLISHED-TTL", "P1D")], events)

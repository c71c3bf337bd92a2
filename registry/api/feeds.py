"""Feeds under /feeds/: the change history as Atom and JSON Feed, the lifecycle days as iCalendar."""
from urllib.parse import urlencode

from flask import Response, request

from ..queries import schedule
from ..web.connection import get_db
from ..feeds import atom, calendar, entries, jsonfeed
from ..resolve import as_watched
from .blueprint import bp
from .changes import page, watch


def _urls(following: str | None) -> tuple[str, str, str | None]:
    """(this feed's URL without a cursor, the change list's URL, the next page's URL or None)."""
    query = [(k, v) for k, v in request.args.items(multi=True) if k != "cursor"]
    this = request.base_url + (f"?{urlencode(query)}" if query else "")
    home = request.host_url + "api/v1/changes"
    nxt = request.base_url + "?" + urlencode(query + [("cursor", following)]) if following else None
    return this, home, nxt


def _feed(module):
    changes, following = page(watch().filters)
    this, home, nxt = _urls(following)
    body = module.render(entries(changes, request.host_url), this, home, nxt)
    return Response(body, mimetype=module.MIMETYPE)


@bp.get("/feeds/changes.atom")
def changes_atom():
    return _feed(atom)


@bp.get("/feeds/changes.json")
def changes_json():
    return _feed(jsonfeed)


def _calendar_entries(rows, identifiers: dict) -> list:
    """Each model's days and upgrade as its watched id's platform has them, in that id's format, else its own
    (identifiers: slug -> (identifier, Match or None), as api/changes.py resolve_watched gives)."""
    entries = []
    for row in rows:
        identifier, match = identifiers.get(row["slug"]) or (None, None)
        days, upgrade, alias = as_watched(get_db(), row, identifier, match)
        entries.append(calendar.Entry(row, days, alias or (upgrade["slug"] if upgrade is not None else None),
                                      identifier or row["slug"]))
    return entries


@bp.get("/feeds/lifecycle.ics")
def lifecycle_ics():
    watched = watch(tuple(calendar.EVENTS))
    filters = watched.filters
    rows = schedule.dated_models(get_db(), filters, platform_days=bool(watched.identifiers))
    body = calendar.render(_calendar_entries(rows, watched.identifiers), filters["kinds"] or tuple(calendar.EVENTS),
                           filters["since"], filters["until"], request.host_url)
    return Response(body, mimetype=calendar.MIMETYPE)

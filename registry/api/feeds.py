"""Feeds under /feeds/: the change history as Atom and JSON Feed, the lifecycle days as iCalendar."""
from urllib.parse import urlencode

from flask import Response, request

from ..queries import schedule
from ..web.connection import get_db
from ..feeds import atom, calendar, entries, jsonfeed
from . import bp
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


@bp.get("/feeds/lifecycle.ics")
def lifecycle_ics():
    watched = watch(tuple(calendar.EVENTS))
    filters = watched.filters
    rows = schedule.dated_models(get_db(), filters, platform_days=bool(watched.identifiers))
    entries = calendar.entries(get_db(), rows, watched.identifiers)
    body = calendar.render(entries, filters["kinds"] or tuple(calendar.EVENTS), filters["since"], filters["until"],
                           request.host_url)
    return Response(body, mimetype=calendar.MIMETYPE)

"""Change history: GET /changes and /models/{slug}/changes, and the filters the feeds share."""
import re
from dataclasses import dataclass, field

from flask import jsonify

from ..queries import catalog, changes
from ..web.connection import get_db, request_snapshot
from ..fields import CHANGE_KINDS as KINDS
from ..resolve.cache import alias_index
from ..web.errors import ApiError, bad_request
from ..web import params
from .blueprint import bp

MAX_LIMIT = 200
# Opaque to callers (pass next_cursor back); it is the id the next page starts below.
_CURSOR = re.compile(r"^[1-9][0-9]{0,17}$")


@dataclass
class Watch:
    """What a caller watches: the filters of changes.list_changes, and each watched model's own
    identifier (slug -> (the string sent, its alias Match or None)) for answers in that format."""

    filters: dict
    identifiers: dict = field(default_factory=dict)


def _known_slug(db, q: str) -> str | None:
    # A model no source lists any longer no longer resolves, but its history does (by its slug).
    return q if changes.has_history(db, q) else None


def resolve_watched(db, identifiers: list) -> dict:
    """slug -> (identifier, Match or None) for identifiers in any format, resolved as /resolve does; 404 naming
    the first that matches no model."""
    index = alias_index(db, *request_snapshot())
    found = {}
    for q in identifiers:
        match = index.match(q)
        slug = match.row.model_slug if match is not None else _known_slug(db, q)
        if slug is None:
            raise ApiError(404, "not_found", f"No model matches '{q}'.")
        found.setdefault(slug, (q, match))
    return found


def watch(kinds=KINDS) -> Watch:
    """The filters every change list and feed takes: since, until, model, models, provider, family, kind.

    An empty window (since not before until) is an empty answer; model and models add up.
    """
    filters = {"since": params.instant("since"), "until": params.instant("until"),
               "provider": params.text("provider"), "family": params.text("family"),
               "kinds": params.listed("kind", kinds)}
    named = ([params.text("model")] if params.single("model") is not None else []) + (params.listed("models") or [])
    identifiers = resolve_watched(get_db(), named) if named else {}
    if identifiers:
        filters["models"] = sorted(identifiers)
    return Watch(filters, identifiers)


def cursor() -> int | None:
    """The id below which the next page starts: the next_cursor a previous page gave."""
    value = params.single("cursor")
    if value is None:
        return None
    if not _CURSOR.match(value):
        raise bad_request("Parameter 'cursor' must be a next_cursor this API gave.")
    return int(value)


def next_cursor(found: list, limit: int) -> str | None:
    """The cursor of the page after found (which holds up to limit + 1 rows), or None on the last page."""
    return str(found[limit - 1]["id"]) if len(found) > limit else None


def page(filters: dict, default_limit: int = 50) -> tuple[list, str | None]:
    """One page of changes matching filters, newest first, and the cursor of the next."""
    limit = params.integer("limit", default=default_limit, minimum=1, maximum=MAX_LIMIT)
    found = changes.list_changes(get_db(), filters, limit + 1, cursor())
    return found[:limit], next_cursor(found, limit)


@bp.get("/changes")
def list_changes():
    changes, following = page(watch().filters)
    return jsonify({"changes": changes, "next_cursor": following})


@bp.get("/models/<slug>/changes")
def model_changes(slug):
    if catalog.model_by_slug(get_db(), slug) is None and _known_slug(get_db(), slug) is None:
        raise ApiError(404, "not_found", f"Model '{slug}' not found.")
    filters = {"models": [slug], "since": params.instant("since"), "until": params.instant("until"),
               "kinds": params.listed("kind", KINDS)}
    changes, following = page(filters)
    return jsonify({"model": {"slug": slug}, "changes": changes, "next_cursor": following})

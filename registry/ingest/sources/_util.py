"""Shape checks and small converters shared by the source modules: drift becomes a SourceError, never a KeyError."""
import math
import re
from datetime import date, datetime, timezone

from ..http import get_json
from ..records import Page, SourceError

MAX_PAGES = 200   # a paging loop past this is a server bug (a cursor that never ends), not a catalogue
LAST_SECOND = 253402300800   # 10000-01-01T00:00:00Z: past it no date can be written (registry/ingest/validate.py)
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")


def where(source: str, index: int | None = None, item_id: str | None = None) -> str:
    """A position label for error messages: 'vendor-a-api item 3 (gpt-4o)'."""
    label = source if index is None else f"{source} item {index}"
    return f"{label} ({item_id})" if item_id else label


def body_list(body, key: str | None, ctx: str) -> list:
    """The list of items of a page body: body[key] (or the body itself when key is None); drift raises."""
    if key is not None:
        if not isinstance(body, dict):
            raise SourceError(f"{ctx}: expected a JSON object with '{key}', got {type(body).__name__}")
        if key not in body:
            raise SourceError(f"{ctx}: response has no '{key}' list (keys: {sorted(body)[:8]})")
        body = body[key]
    if not isinstance(body, list):
        raise SourceError(f"{ctx}: expected a list{f' in {key!r}' if key else ''}, got {type(body).__name__}")
    return body


def listed(pages: list, key: str | None, id_key: str, source: str):
    """Yield (model_id, item, ctx) for every item of every page: shapes checked, each id required."""
    for p, page in enumerate(pages, 1):
        for i, raw in enumerate(body_list(page.body, key, f"{source} page {p}"), 1):
            ctx = where(source, i)
            item = item_dict(raw, ctx)
            model_id = req_str(item, id_key, ctx)
            yield model_id, item, where(source, i, model_id)


def stated(**values) -> dict:
    """The given facts minus the unstated ones (None, an empty string or list)."""
    return {k: v for k, v in values.items() if v is not None and v != "" and v != []}


def item_dict(item, ctx: str) -> dict:
    """One listed item, which must be a JSON object."""
    if not isinstance(item, dict):
        raise SourceError(f"{ctx}: expected an object, got {type(item).__name__}")
    return item


def req_str(item: dict, key: str, ctx: str) -> str:
    """A required non-empty string field."""
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SourceError(f"{ctx}: missing or invalid '{key}' (got {value!r})")
    return value.strip()


def opt_str(item: dict, key: str, ctx: str) -> str | None:
    """An optional string field; null or empty string mean 'not stated'."""
    value = item.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise SourceError(f"{ctx}: '{key}' should be a string, got {type(value).__name__}")
    return value.strip() or None


def opt_int(item: dict, key: str, ctx: str) -> int | None:
    """An optional integer field; integral floats (Cohere types counts as double) are accepted."""
    value = item.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and (not math.isfinite(value) or value != int(value))):
        raise SourceError(f"{ctx}: '{key}' should be an integer, got {value!r}")
    return int(value)


def opt_bool(item: dict, key: str, ctx: str) -> bool | None:
    """An optional boolean field."""
    value = item.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise SourceError(f"{ctx}: '{key}' should be a boolean, got {value!r}")


def opt_list(item: dict, key: str, ctx: str) -> list:
    """An optional list of strings (absent or null: empty)."""
    value = item.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SourceError(f"{ctx}: '{key}' should be a list of strings, got {value!r}")
    return [v for v in value if v]


def day(value, ctx: str, key: str) -> str | None:
    """The ISO day of an RFC 3339 timestamp or YYYY-MM-DD string; empty or the Unix epoch mean unknown."""
    if value is None or value == "":
        return None
    match = _DAY.match(value) if isinstance(value, str) else None
    if not match:
        raise SourceError(f"{ctx}: '{key}' is not a date: {value!r}")
    try:
        parsed = date.fromisoformat(match.group(1))   # the pattern allows only YYYY-MM-DD; strptime is 30x slower
    except ValueError as exc:
        raise SourceError(f"{ctx}: '{key}' is not a date: {value!r}") from exc
    # Upstreams write the epoch (1970-01-01) when they do not know the date.
    return None if parsed.year <= 1970 else match.group(1)


def epoch_iso(value, ctx: str, key: str) -> str | None:
    """A Unix-seconds timestamp as an ISO 8601 UTC string (kept as metadata, never as a release date); a number
    before 1970 or past year 9999 is returned as it is, for the check of values to refuse."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SourceError(f"{ctx}: '{key}' should be Unix seconds, got {value!r}")
    if not 0 <= value < LAST_SECOND:   # a number no date can show (or NaN): the check of values refuses it
        return value
    return datetime.fromtimestamp(value, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def follow(get_page, source: str) -> list:
    """Call get_page(cursor) -> (page, next_cursor) from cursor None until next_cursor is falsy."""
    pages, cursor, seen = [], None, set()
    while True:
        page, cursor = get_page(cursor)
        pages.append(page)
        if not cursor:
            return pages
        # A cursor seen before would loop forever; so would an endless one.
        if cursor in seen or len(pages) >= MAX_PAGES:
            raise SourceError(f"{source}: pagination does not end (cursor {str(cursor)[:80]!r} "
                              f"after {len(pages)} pages)")
        seen.add(cursor)


def token_pages(session, url: str, headers: dict, source: str, size: tuple, token: tuple) -> list:
    """Every page of a page-token API: size=(param, n); token=(request param, response field)."""
    def get_page(cursor):
        params = {size[0]: size[1]}
        if cursor:
            params[token[0]] = cursor
        body, _ = get_json(session, url, params=params, headers=headers)
        if not isinstance(body, dict):
            raise SourceError(f"{source}: expected a JSON object, got {type(body).__name__}")
        return Page(body), opt_str(body, token[1], source)

    return follow(get_page, source)


def need_key(key: str | None, env: str, source: str) -> str:
    """The API key, or a SourceError naming the variable to set."""
    if not key:
        raise SourceError(f"{source}: {env} is not set; the source needs an API key")
    return key


def one_page(session, url: str, headers: dict | None = None) -> list:
    """GET a listing that is not paginated: everything comes in one page."""
    body, _ = get_json(session, url, headers=headers or {})
    return [Page(body)]


def bearer(key: str | None, env: str, source: str) -> dict:
    """The Authorization header of a source that takes a bearer key (which it needs)."""
    return {"Authorization": f"Bearer {need_key(key, env, source)}"}

"""vendor-b-api: Anthropic GET /v1/models (cursor pages; names, release day, token limits, lifecycle)."""
from ...fields import SOURCE_URLS
from ..http import get_json
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "vendor-b-api"
PROVIDER = "anthropic"
KEY_ENV = "ANTHROPIC_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/models"
API_VERSION = "2023-06-01"
LIMIT = 1000   # the documented maximum: fewest round trips


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET every page: after_id=<last_id> while has_more."""
    url = base_url.rstrip("/") + PATH
    headers = {"x-api-key": u.need_key(key, KEY_ENV, SOURCE), "anthropic-version": API_VERSION}

    def get_page(cursor):
        params = {"limit": LIMIT}
        if cursor:
            params["after_id"] = cursor
        body, _ = get_json(session, url, params=params, headers=headers)
        return Page(body), _next_cursor(body)

    return u.follow(get_page, SOURCE)


def _next_cursor(body) -> str | None:
    """last_id when has_more is true; a page that says 'more' without a cursor is drift."""
    if not isinstance(body, dict):
        raise SourceError(f"{SOURCE}: expected a JSON object, got {type(body).__name__}")
    if not body.get("has_more"):
        return None
    cursor = body.get("last_id")
    if not isinstance(cursor, str) or not cursor:
        raise SourceError(f"{SOURCE}: has_more is true but last_id is missing")
    return cursor


def parse(pages: list[Page]) -> list[Record]:
    """One Record per model; an epoch created_at means 'release date unknown'."""
    records = {}
    for model_id, item, ctx in u.listed(pages, "data", "id", SOURCE):
        records[model_id] = Record(model_id, PROVIDER, _fields(item, ctx), [(model_id, "official")])
    return list(records.values())


def _fields(item: dict, ctx: str) -> dict:
    """The facts of one model item."""
    lifecycle = u.opt_str(item, "lifecycle", ctx)
    fields = u.stated(
        display_name=u.opt_str(item, "display_name", ctx),
        release_date=u.day(item.get("created_at"), ctx, "created_at"),
        input_context_window=u.opt_int(item, "max_input_tokens", ctx),
        output_context_window=u.opt_int(item, "max_tokens", ctx),
        lifecycle=lifecycle,
        # Only the flags the API raises; "active" says nothing against a passed deprecation date.
        deprecated=True if lifecycle == "deprecated" else None,
        retired=True if lifecycle == "retired" else None,
        deprecation_date=u.day(item.get("deprecated_at"), ctx, "deprecated_at"),
        sunset_date=u.day(item.get("retires_at"), ctx, "retires_at"),
        line=u.opt_str(item, "line", ctx))
    capabilities = item.get("capabilities")
    if capabilities is not None:
        if not isinstance(capabilities, dict):
            raise SourceError(f"{ctx}: 'capabilities' should be an object")
        fields["capabilities"] = capabilities
    return fields

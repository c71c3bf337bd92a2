"""vendor-c-api: Google Gemini GET /v1beta/models (page tokens; names, versions, token limits)."""
from ...fields import SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "vendor-c-api"
PROVIDER = "google"
KEY_ENV = "GEMINI_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1beta/models"
PAGE_SIZE = 1000   # the documented maximum


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET every page: pageToken=<nextPageToken> until the token is absent."""
    # The header rather than ?key=: keys in URLs end up in proxy logs and error messages.
    headers = {"x-goog-api-key": u.need_key(key, KEY_ENV, SOURCE)}
    return u.token_pages(session, base_url.rstrip("/") + PATH, headers, SOURCE,
                         size=("pageSize", PAGE_SIZE), token=("pageToken", "nextPageToken"))


def parse(pages: list[Page]) -> list[Record]:
    """One Record per model; the id is `name` without its 'models/' prefix."""
    records = {}
    for name, item, ctx in u.listed(pages, "models", "name", SOURCE):
        model_id = name.removeprefix("models/")
        if not model_id:
            raise SourceError(f"{ctx}: empty model name")
        records[model_id] = Record(model_id, PROVIDER, _fields(item, ctx), [(model_id, "official")])
    return list(records.values())


def _fields(item: dict, ctx: str) -> dict:
    """The facts of one model item."""
    return u.stated(
        display_name=u.opt_str(item, "displayName", ctx),
        version=u.opt_str(item, "version", ctx),
        description=u.opt_str(item, "description", ctx),
        base_model_id=u.opt_str(item, "baseModelId", ctx),
        input_context_window=u.opt_int(item, "inputTokenLimit", ctx),
        output_context_window=u.opt_int(item, "outputTokenLimit", ctx),
        supported_generation_methods=u.opt_list(item, "supportedGenerationMethods", ctx),
        thinking=u.opt_bool(item, "thinking", ctx))

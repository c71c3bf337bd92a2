"""vendor-e-api: Cohere GET /v1/models (page tokens; names, deprecation flag, context length)."""
from ...fields import SOURCE_URLS
from ..records import Page, Record
from . import _util as u

SOURCE = "vendor-e-api"
PROVIDER = "cohere"
KEY_ENV = "CO_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/models"
PAGE_SIZE = 1000   # the documented maximum


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET every page: page_token=<next_page_token> until the token is absent."""
    return u.token_pages(session, base_url.rstrip("/") + PATH, u.bearer(key, KEY_ENV, SOURCE), SOURCE,
                         size=("page_size", PAGE_SIZE), token=("page_token", "next_page_token"))


def parse(pages: list[Page]) -> list[Record]:
    """One Record per public model (fine-tuned ones belong to one account and are skipped)."""
    records = {}
    for model_id, item, ctx in u.listed(pages, "models", "name", SOURCE):
        if u.opt_bool(item, "finetuned", ctx):
            continue
        records[model_id] = Record(model_id, PROVIDER, _fields(item, ctx), [(model_id, "official")])
    return list(records.values())


def _fields(item: dict, ctx: str) -> dict:
    """The facts of one model item."""
    return u.stated(
        deprecated=u.opt_bool(item, "is_deprecated", ctx),
        input_context_window=u.opt_int(item, "context_length", ctx),   # typed double upstream: 128000.0
        endpoints=u.opt_list(item, "endpoints", ctx),
        features=u.opt_list(item, "features", ctx),
        supports_vision=u.opt_bool(item, "supports_vision", ctx),
    )

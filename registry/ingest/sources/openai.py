"""vendor-a-api: OpenAI GET /v1/models (one page; ids, object creation time, owner, shutdown date)."""
from ...fields import SOURCE_URLS
from ..records import Page, Record
from . import _util as u

SOURCE = "vendor-a-api"
PROVIDER = "openai"
KEY_ENV = "OPENAI_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/models"


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the model list (OpenAI does not paginate it: everything comes in one page)."""
    return u.one_page(session, base_url.rstrip("/") + PATH, u.bearer(key, KEY_ENV, SOURCE))


def parse(pages: list[Page]) -> list[Record]:
    """One Record per listed model; fine-tunes (ft:...) are private to an org and are skipped."""
    records = {}
    for model_id, item, ctx in u.listed(pages, "data", "id", SOURCE):
        if model_id.startswith("ft:"):
            continue
        fields = u.stated(
            # `created` is when the API object was made, not the launch day: metadata only.
            created=u.epoch_iso(item.get("created"), ctx, "created"),
            owned_by=u.opt_str(item, "owned_by", ctx),
            sunset_date=u.day(item.get("shutdown_date"), ctx, "shutdown_date"))
        records[model_id] = Record(model_id, PROVIDER, fields, [(model_id, "official")])
    return list(records.values())

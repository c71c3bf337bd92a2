"""vendor-a-api: OpenAI GET /v1/models (one page; ids, object creation time, owner, shutdown date)."""
from ..http import get_json
from ..records import Page, Record
from . import _util as u

SOURCE = "vendor-a-api"
PROVIDER = "openai"
KEY_ENV = "OPENAI_API_KEY"
KEY_REQUIRED = True
BASE_URL = "https://api.openai.com"
PATH = "/v1/models"


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the model list (OpenAI does not paginate it: everything comes in one page)."""
    headers = {"Authorization": f"Bearer {u.need_key(key, KEY_ENV, SOURCE)}"}
    body, _ = get_json(session, base_url.rstrip("/") + PATH, headers=headers)
    return [Page(body)]


def parse(pages: list[Page]) -> list[Record]:
    """One Record per listed model; fine-tunes (ft:...) are private to an org and are skipped."""
    records = {}
    for p, page in enumerate(pages, 1):
        for i, raw in enumerate(u.body_list(page.body, "data", f"{SOURCE} page {p}"), 1):
            ctx = u.where(SOURCE, i)
            item = u.item_dict(raw, ctx)
            model_id = u.req_str(item, "id", ctx)
            ctx = u.where(SOURCE, i, model_id)
            if model_id.startswith("ft:"):
                continue
            fields = {}
            # `created` is when the API object was made, not the launch day: metadata only.
            created = u.epoch_iso(item.get("created"), ctx, "created")
            if created:
                fields["created"] = created
            owned_by = u.opt_str(item, "owned_by", ctx)
            if owned_by:
                fields["owned_by"] = owned_by
            shutdown = u.day(item.get("shutdown_date"), ctx, "shutdown_date")
            if shutdown:
                fields["sunset_date"] = shutdown
            records[model_id] = Record(model_id, PROVIDER, fields, [(model_id, "official")])
    return list(records.values())

"""vendor-f-api: xAI GET /v1/language-models (one page; ids, aliases, version, modalities)."""
from ...fields import SOURCE_URLS
from ..records import Page, Record
from . import _util as u

SOURCE = "vendor-f-api"
PROVIDER = "xai"
KEY_ENV = "XAI_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/language-models"


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the language-model list (not paginated); /v1/models lacks the aliases, so this endpoint."""
    return u.one_page(session, base_url.rstrip("/") + PATH, u.bearer(key, KEY_ENV, SOURCE))


def parse(pages: list[Page]) -> list[Record]:
    """One Record per model, its aliases official; `created` goes to metadata only."""
    records = {}
    for model_id, item, ctx in u.listed(pages, "models", "id", SOURCE):
        # fingerprint is left out: it changes with every backend build and would churn metadata.
        fields = u.stated(
            version=u.opt_str(item, "version", ctx),
            created=u.epoch_iso(item.get("created"), ctx, "created"),
            owned_by=u.opt_str(item, "owned_by", ctx),
            input_modalities=u.opt_list(item, "input_modalities", ctx),
            output_modalities=u.opt_list(item, "output_modalities", ctx))
        aliases = [(model_id, "official")]
        aliases += [(a, "official") for a in u.opt_list(item, "aliases", ctx) if a != model_id]
        records[model_id] = Record(model_id, PROVIDER, fields, aliases)
    return list(records.values())

"""vendor-f-api: xAI GET /v1/language-models (one page; ids, aliases, version, modalities)."""
from ... import pricing
from ...fields import SOURCE_URLS
from ..records import Page, Record
from . import _util as u

# Its prices, in 1/100 US cents per 1M tokens, the same as cents per 100M (30000: $3 per 1M tokens; the units as
# https://docs.rs/xai-grpc-client/0.4.3/xai_grpc_client/models/struct.LanguageModel.html gives them, and grok-4-0709's
# 30000 / 150000 are xAI's $3 / $15) -> the registry's USD per 1M tokens (registry/pricing.py). Image input and
# search are priced in other units: left out.
PER_MTOK = "0.0001"
READ = {"prompt_text_token_price": ("input_per_mtok", PER_MTOK),
        "completion_text_token_price": ("output_per_mtok", PER_MTOK),
        "cached_prompt_text_token_price": ("cached_input_read_per_mtok", PER_MTOK)}

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
        price = pricing.stated(item, READ)
        if price:
            fields["prices"] = {"official": price}
        aliases = [(model_id, "official")]
        aliases += [(a, "official") for a in u.opt_list(item, "aliases", ctx) if a != model_id]
        records[model_id] = Record(model_id, PROVIDER, fields, aliases)
    return list(records.values())

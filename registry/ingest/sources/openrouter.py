"""openrouter-catalog: OpenRouter GET /api/v1/models (one page, no key): the gateway's ids of the registry's
providers' models, and the day OpenRouter stops serving one (expiration_date).

A platform catalog writes only its platform's ids and schedule, never a model's own facts
(docs/lifecycle.md#platform-catalogs). Each id names its model through the registry's own ids
(registry/ingest/matcher.py attach); `canonical_slug` and `hugging_face_id` help find it.
"""
from ...fields import PLATFORM_SOURCES, SOURCE_URLS
from ... import pricing as price_rules
from ..records import Page, Record
from . import _util as u

SOURCE = "openrouter-catalog"
PROVIDER = None
KEY_ENV = None
KEY_REQUIRED = False
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/api/v1/models"
PLATFORM = PLATFORM_SOURCES[SOURCE]
# OpenRouter's organisation names (the id's head) of the registry's providers; a `~` before one marks the
# gateway's floating id of a line (`~anthropic/claude-sonnet-latest`).
ORGS = {"openai": "openai", "anthropic": "anthropic", "google": "google", "meta-llama": "meta",
        "mistralai": "mistral", "cohere": "cohere", "x-ai": "xai", "deepseek": "deepseek", "qwen": "qwen",
        "amazon": "amazon", "moonshotai": "moonshotai", "z-ai": "zai", "minimax": "minimax",
        "microsoft": "microsoft", "nvidia": "nvidia", "nousresearch": "nousresearch", "perplexity": "perplexity",
        "ai21": "ai21", "writer": "writer",
        # providers curated for their OpenRouter ids (curation/<slug>.yaml names the listing it read)
        "baidu": "baidu", "xiaomi": "xiaomi", "bytedance-seed": "bytedance", "bytedance": "bytedance",
        "tencent": "tencent", "inclusionai": "inclusionai", "stepfun": "stepfun", "kwaipilot": "kwaipilot",
        "alibaba": "alibaba", "nex-agi": "nex-agi", "arcee-ai": "arcee", "liquid": "liquid", "ibm-granite": "ibm",
        "poolside": "poolside", "rekaai": "reka", "relace": "relace", "morph": "morph", "inflection": "inflection",
        "inception": "inception", "upstage": "upstage", "perceptron": "perceptron", "essentialai": "essentialai",
        "prime-intellect": "primeintellect", "allenai": "allenai", "deepcogito": "deepcogito",
        "aion-labs": "aionlabs", "sao10k": "sao10k", "thedrummer": "thedrummer", "anthracite-org": "anthracite",
        "mancer": "mancer", "undi95": "undi95", "gryphe": "gryphe", "alfredpros": "alfredpros",
        "cognitivecomputations": "cognitivecomputations"}
# OpenRouter's `pricing` (USD per token, as strings) -> the registry's prices per 1M tokens (registry/pricing.py);
# `request` is per request. Its image, audio, web_search and internal_reasoning prices have no unit the registry
# keeps yet: left out.
READ = {"prompt": ("input_per_mtok", 1_000_000), "completion": ("output_per_mtok", 1_000_000),
        "input_cache_read": ("cached_input_read_per_mtok", 1_000_000),
        "input_cache_write": ("cached_input_write_per_mtok", 1_000_000), "request": ("per_request", 1)}
# Organisations whose ids are the gateway's routers or its cloaked (unnamed) models: no provider's model.
ROUTERS = frozenset({"openrouter", "switchpoint"})


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the whole catalog (public, one page)."""
    return u.one_page(session, base_url.rstrip("/") + PATH)


def parse(pages: list[Page]) -> list[Record]:
    """One Record per listed id of a registry provider's model; other organisations are counted, not read."""
    records = []
    for model_id, item, ctx in u.listed(pages, "data", "id", SOURCE):
        org = model_id.split("/", 1)[0].lstrip("~").lower()
        provider = ORGS.get(org)
        if org in ROUTERS:
            records.append(Record(model_id, None, skip="a router or cloaked model of the gateway, no provider's"))
            continue
        if provider is None:
            records.append(Record(model_id, None, skip="organisation outside the registry's providers"))
            continue
        # The gateway routes to the provider's API: the provider's lifecycle is its own, but for the day it stops.
        schedule = u.stated(sunset_date=u.day(item.get("expiration_date"), ctx, "expiration_date"))
        links = [v for v in (u.opt_str(item, "canonical_slug", ctx), u.opt_str(item, "hugging_face_id", ctx)) if v]
        fields = {"platforms": {PLATFORM: schedule}}
        # A variant (`:free`, `:extended`) is priced as that variant: the model's gateway price is its plain id's.
        price = None if ":" in model_id else _price(item.get("pricing"))
        if price:
            fields["prices"] = {PLATFORM: price}
        records.append(Record(model_id, provider, fields, [(model_id, PLATFORM)], links=links))
    return records


def _price(pricing) -> dict | None:
    """The gateway's price of one id (USD), per 1M tokens and per request; None when it states none."""
    if not isinstance(pricing, dict):
        return None
    price = price_rules.stated(pricing, READ)
    if price and price.get("per_request") == 0:   # "0": no charge per request, which is no price of its own
        del price["per_request"]
    return price if price and set(price) != {"currency"} else None

"""price-map: LiteLLM's model cost map (`model_prices_and_context_window.json`, one keyless JSON, MIT): what each
platform charges for each of its ids, with the batch, flex and priority services models.dev does not state.

A public catalog of prices only, after models.dev (docs/data-flow.md#the-price-map): a row writes only its own
platform's price, and lands only on the model that already holds the row's id on that platform. It adds no model,
no id, no date and no capability.
"""
import re

from ... import pricing
from ...fields import OFFICIAL, PRICE_MAP_SOURCE, SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = PRICE_MAP_SOURCE
PROVIDER = None
KEY_ENV = None
KEY_REQUIRED = False
# One document, where LiteLLM itself reads it: its URL is the base URL, so REGISTRY_PRICE_MAP_URL can name a mirror
# or a pinned release's copy, and a page links the document itself.
BASE_URL = SOURCE_URLS[SOURCE]
PATH = ""
# The map's `litellm_provider` values the registry reads -> (the provider whose own API it is, or None for a cloud
# that serves many providers' models; the platform, an alias source; the route head LiteLLM writes before the
# platform's id in a key). Every other value (resellers, hosts, Azure, OpenRouter's rows) is counted, not read:
# OpenRouter's own catalog prices OpenRouter's ids.
PROVIDERS = {
    "openai": ("openai", OFFICIAL, "openai/"), "anthropic": ("anthropic", OFFICIAL, "anthropic/"),
    "gemini": ("google", OFFICIAL, "gemini/"), "xai": ("xai", OFFICIAL, "xai/"),
    "mistral": ("mistral", OFFICIAL, "mistral/"), "cohere": ("cohere", OFFICIAL, "cohere/"),
    "cohere_chat": ("cohere", OFFICIAL, "cohere/"),
    "bedrock": (None, "cloud-a", "bedrock/"), "bedrock_converse": (None, "cloud-a", "bedrock/"),
}
VERTEX = (None, "cloud-b", "vertex_ai/")   # every `vertex_ai-*` value: Vertex AI, whichever publisher's model
# A row's per-token prices (USD per token, as JSON numbers) -> the registry's (registry/pricing.py), per 1M tokens.
READ = {"input_cost_per_token": ("input_per_mtok", 10**6), "output_cost_per_token": ("output_per_mtok", 10**6),
        "cache_read_input_token_cost": ("cached_input_read_per_mtok", 10**6),
        "cache_creation_input_token_cost": ("cached_input_write_per_mtok", 10**6),
        "input_cost_per_audio_token": ("input_audio_per_mtok", 10**6),
        "output_cost_per_audio_token": ("output_audio_per_mtok", 10**6)}
PER_IMAGE = {"output_cost_per_image": ("per_image", 1)}
# The services of the same id at their own rate, by the suffix LiteLLM puts on each price's key -> the mode's name
# in the registry (docs/api.md#prices): the Batch APIs, OpenAI's and Google's flex, and priority processing.
MODES = {"batches": "batch", "flex": "flex", "priority": "priority"}
LONG_PROMPT = re.compile(r"^(?P<price>[a-z_]+)_above_(?P<thousands>\d{1,5})k_tokens$")


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the whole map (public, one document)."""
    return u.one_page(session, base_url.rstrip("/") + PATH)


def parse(pages: list[Page]) -> list[Record]:
    """One Record per row of a provider or cloud the registry reads, each platform's rows shortest id first (a
    plain Bedrock id before its `us.` profile: the first row of a model on a platform gives its price)."""
    records, rows = [], []
    for p, page in enumerate(pages, 1):
        if not isinstance(page.body, dict):
            raise SourceError(f"{SOURCE} page {p}: expected a JSON object of rows, got {type(page.body).__name__}")
        for key, row in page.body.items():
            ctx = u.where(SOURCE, None, str(key)[:80])
            row = u.item_dict(row, ctx)
            where = _platform(row.get("litellm_provider"))
            if where is None:
                records.append(Record(str(key), None, skip="a provider or platform the registry does not read"))
                continue
            provider, platform, head = where
            model_id, why = _platform_id(str(key), head, platform)
            if why:
                records.append(Record(str(key), provider, skip=why))
                continue
            rows.append((platform, model_id, key != model_id, provider, row))
    seen = set()
    for platform, model_id, _routed, provider, row in sorted(rows, key=lambda r: (r[0], r[2], len(r[1]), r[1])):
        if (platform, model_id) in seen:   # `bedrock/x` beside `x`: the id as the platform writes it is read
            records.append(Record(model_id, provider, skip="an id another row of its platform prices"))
            continue
        seen.add((platform, model_id))
        price = _price(row)
        if price is None:
            records.append(Record(model_id, provider, skip="a row that states no price the registry keeps"))
            continue
        records.append(Record(model_id, provider, {"prices": {platform: price}}, platform=platform))
    return records


def _platform(litellm_provider) -> tuple | None:
    """(provider, platform, route head) of a row's `litellm_provider`, or None for one the registry does not read."""
    if not isinstance(litellm_provider, str):
        return None
    if litellm_provider.startswith("vertex_ai"):
        return VERTEX
    return PROVIDERS.get(litellm_provider)


def _platform_id(key: str, head: str, platform: str) -> tuple:
    """(the platform's own id, None) of a row's key: the key without LiteLLM's route head; or (None, why) for a key
    that is a route's variant, not an id (a region, a commitment term, an image size, a fine-tune)."""
    model_id = key[len(head):] if key.startswith(head) else key
    # Vertex AI's partner ids name their publisher (`meta/llama-3.3-70b-instruct-maas`); no other platform's id
    # holds a slash.
    slashes = 1 if platform == "cloud-b" else 0
    if not model_id or model_id.count("/") > slashes or model_id.startswith("ft:"):
        return None, "a route's variant (a region, a commitment, an image size, a fine-tune), not a platform's id"
    return model_id, None


def _price(row: dict) -> dict | None:
    """The row's price entry: its prices, its long-prompt tiers and its services' prices; None when it states none."""
    price = pricing.stated(row, {**READ, **PER_IMAGE})
    if not price:
        return None
    sizes = sorted({int(shape["thousands"]) for key in row if (shape := LONG_PROMPT.match(key))
                    and shape["price"] in READ})
    tiers = [{pricing.TIER_KEY: size * 1000, **values} for size in sizes
             if (values := pricing.stated_values(row, _suffixed(f"above_{size}k_tokens")))]
    if tiers:
        price["tiers"] = tiers[:pricing.MAX_PARTS]
    modes = {mode: values for suffix, mode in MODES.items()
             if (values := pricing.stated_values(row, _suffixed(suffix)))
             and ("input_per_mtok" in values or "output_per_mtok" in values)}
    if modes:   # a service priced only for cached reads says nothing of what a call costs there: left out
        price["modes"] = modes
    return price


def _suffixed(suffix: str) -> dict:
    """READ for the keys LiteLLM writes with a suffix (`input_cost_per_token_batches`, `..._above_200k_tokens`)."""
    return {f"{name}_{suffix}": read for name, read in READ.items()}

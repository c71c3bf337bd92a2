"""public-catalog: models.dev's `GET /api.json` (one keyless JSON, MIT): what each listed platform charges for
each of its ids, and, from a provider's own rows, the model's capabilities.

The last word on both (docs/data-flow.md#the-public-catalog): a platform's own catalog and the providers'
listings come first, and a row writes only its own platform's price. It adds no model, no id and no date: a row
lands only on the model that already holds its id on that platform.
"""
from ... import pricing
from ...fields import CATALOG_SOURCE, OFFICIAL, SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = CATALOG_SOURCE
PROVIDER = None
KEY_ENV = None
KEY_REQUIRED = False
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/api.json"
# models.dev's catalogs the registry reads -> (the provider whose own API it is, or None for a platform that
# serves many providers' models; the platform, an alias source). The others (130 resellers and hosts) are counted.
CATALOGS = {
    "openai": ("openai", OFFICIAL), "anthropic": ("anthropic", OFFICIAL), "google": ("google", OFFICIAL),
    "mistral": ("mistral", OFFICIAL), "cohere": ("cohere", OFFICIAL), "xai": ("xai", OFFICIAL),
    "deepseek": ("deepseek", OFFICIAL), "moonshotai": ("moonshotai", OFFICIAL), "zai": ("zai", OFFICIAL),
    "minimax": ("minimax", OFFICIAL), "alibaba": ("qwen", OFFICIAL), "perplexity": ("perplexity", OFFICIAL),
    "amazon-bedrock": (None, "cloud-a"), "google-vertex": (None, "cloud-b"),
    "google-vertex-anthropic": (None, "cloud-b"), "openrouter": (None, "gateway"),
}
# A row's `cost` (USD per 1M tokens, as numbers) -> the registry's prices (registry/pricing.py). `reasoning`
# (reasoning tokens priced apart) has no price name in the registry yet: left out.
READ = {"input": ("input_per_mtok", 1), "output": ("output_per_mtok", 1),
        "cache_read": ("cached_input_read_per_mtok", 1), "cache_write": ("cached_input_write_per_mtok", 1),
        "input_audio": ("input_audio_per_mtok", 1), "output_audio": ("output_audio_per_mtok", 1)}


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the whole catalog (public, one document)."""
    return u.one_page(session, base_url.rstrip("/") + PATH)


def parse(pages: list[Page]) -> list[Record]:
    """One Record per row of a catalog the registry reads, each platform's rows shortest id first (a plain
    Bedrock id before its `us.` profile: the first row of a model on a platform gives its price)."""
    records, seen = [], set()
    for p, page in enumerate(pages, 1):
        if not isinstance(page.body, dict):
            raise SourceError(f"{SOURCE} page {p}: expected a JSON object of catalogs, got {type(page.body).__name__}")
        for catalog, listing in page.body.items():
            rows = _rows(catalog, listing, f"{SOURCE} catalog {str(catalog)[:40]}")
            if catalog not in CATALOGS:
                records += [Record(str(model_id), None, skip="a catalog the registry does not read")
                            for model_id in rows]
                continue
            provider, platform = CATALOGS[catalog]
            for model_id in sorted(rows, key=lambda i: (len(i), i)):
                ctx = u.where(SOURCE, None, f"{catalog}/{model_id}")
                item = u.item_dict(rows[model_id], ctx)
                if (platform, model_id) in seen:   # Vertex's Claude ids are in two of its catalogs: the first read
                    records.append(Record(model_id, provider, skip="an id another catalog of its platform lists"))
                    continue
                seen.add((platform, model_id))
                records.append(_record(model_id, item, provider, platform, ctx))
    return records


def _rows(catalog, listing, ctx: str) -> dict:
    """A catalog's `models` object (id -> row)."""
    models = listing.get("models") if isinstance(listing, dict) else None
    if not isinstance(models, dict):
        raise SourceError(f"{ctx}: expected an object with a 'models' object")
    return models


def _record(model_id: str, item: dict, provider: str | None, platform: str, ctx: str) -> Record:
    """One row: its price on its platform; on a provider's own row, the model's capabilities too."""
    if platform == "gateway" and ":" in model_id:
        return Record(model_id, provider, skip="a variant of a gateway id (`:free`), priced as that variant")
    fields = {}
    experimental = item.get("experimental") if isinstance(item.get("experimental"), dict) else {}
    price = _price(item.get("cost"), experimental.get("modes"), ctx)
    if price:
        fields["prices"] = {platform: price}
    if platform == OFFICIAL:
        fields.update(_capabilities(item, ctx))
    return Record(model_id, provider, fields, platform=platform)


def _price(cost, item_modes, ctx: str) -> dict | None:
    """The row's price entry, with its long-prompt tiers and its faster modes' prices; None when it states none."""
    if cost is None:
        return None
    cost = u.item_dict(cost, f"{ctx} cost")
    price = pricing.stated(cost, READ)
    if not price:
        return None
    tiers = []
    for tier in cost.get("tiers") or []:
        tier = u.item_dict(tier, f"{ctx} cost tier")
        shape = tier.get("tier")
        if not isinstance(shape, dict) or shape.get("type", "context") != "context":
            continue   # a tier of another kind than the prompt's length: no price the registry keeps
        values = pricing.stated_values(tier, READ)
        if values:
            tiers.append({pricing.TIER_KEY: shape.get("size"), **values})
    if tiers:
        price["tiers"] = tiers
    modes = _modes(item_modes)
    if modes:
        price["modes"] = modes
    return price


def _modes(modes) -> dict:
    """A row's `experimental.modes` (a faster service the id offers: {"fast": {"cost": {...}, "provider": ...}}):
    each mode's prices. Experimental in models.dev's schema, so a mode of another shape is passed over, not a
    fault of the run."""
    found = {}
    for name, mode in (modes.items() if isinstance(modes, dict) else ()):
        values = pricing.stated_values(mode.get("cost"), READ) if isinstance(mode, dict) else None
        if values:
            found[str(name)[:40]] = values
    return found


def _capabilities(item: dict, ctx: str) -> dict:
    """A provider's own row: the model's capabilities under the registry's names (registry/merge/capabilities.py)."""
    modalities = item.get("modalities") if isinstance(item.get("modalities"), dict) else {}
    efforts = [value for option in item.get("reasoning_options") or [] if isinstance(option, dict)
               and option.get("type") == "effort" for value in option.get("values") or []]
    return u.stated(
        tool_calling=u.opt_bool(item, "tool_call", ctx), reasoning=u.opt_bool(item, "reasoning", ctx),
        structured_output=u.opt_bool(item, "structured_output", ctx),
        knowledge_cutoff=u.opt_str(item, "knowledge", ctx),
        reasoning_efforts=efforts or None,
        input_modalities=u.opt_list(modalities, "input", ctx), output_modalities=u.opt_list(modalities, "output", ctx))

"""deprecation-feed: deprecations.info GET /v1/deprecations.json (both record generations, provider rows only)."""
from ...fields import SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "deprecation-feed"
PROVIDER = None
KEY_ENV = None
KEY_REQUIRED = False
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/deprecations.json"

# Feed display names of model makers. Platforms (AWS Bedrock, Google Vertex, Azure, Groq) are left
# out on purpose: their rows describe a host's schedule, not the model's own lifecycle (each is
# counted in the run's details as a platform row).
PLATFORMS = {"azure", "aws bedrock", "google vertex", "groq"}
# Clouds whose ids the registry keeps as aliases: their rows become that cloud's own schedule for the
# model (metadata.platforms), never the model's own dates (docs/api-decisions.md#lifecycle).
PLATFORM_ALIAS_SOURCES = {"aws bedrock": "cloud-a", "google vertex": "cloud-b"}
PROVIDERS = {
    "openai": "openai", "anthropic": "anthropic", "google": "google", "google gemini": "google",
    "cohere": "cohere", "xai": "xai", "mistral": "mistral", "mistral ai": "mistral",
}


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the whole feed: one raw JSON array, no auth, no pagination."""
    return u.one_page(session, base_url.rstrip("/") + PATH)


def parse(pages: list[Page]) -> list[Record]:
    """One Record per (provider, model): deprecation date, sunset date and successor."""
    merged: dict[tuple[str, str], tuple[str, dict]] = {}
    skipped: list[Record] = []   # counted in the run's details, never dropped silently
    for p, page in enumerate(pages, 1):
        for i, raw in enumerate(u.body_list(page.body, None, f"{SOURCE} page {p}"), 1):
            ctx = u.where(SOURCE, i)
            row = u.item_dict(raw, ctx)
            feed_provider = u.req_str(row, "provider", ctx)
            # Records before December 2025 name the model `model_name`, not `model_id`.
            model_id = u.opt_str(row, "model_id", ctx) or u.opt_str(row, "model_name", ctx)
            if not model_id:
                raise SourceError(f"{ctx}: record has neither 'model_id' nor 'model_name'")
            ctx = u.where(SOURCE, i, model_id)
            provider = PROVIDERS.get(feed_provider.lower())
            if any(c.isspace() for c in model_id):   # a product or feature ("Agent Builder"), not a model id
                skipped.append(Record(model_id, None, skip="not a model id"))
                continue
            alias_source = PLATFORM_ALIAS_SOURCES.get(feed_provider.lower())
            if alias_source is not None:
                schedule = _fields(row, ctx)
                schedule.pop("replacement_models", None)
                schedule.pop("successor", None)   # a platform's replacement is its own id, not a model slug
                skipped.append(Record(model_id, None, {"platforms": {alias_source: schedule}}))
                continue
            if provider is None:
                why = "platform row" if feed_provider.lower() in PLATFORMS else "unknown provider"
                skipped.append(Record(model_id, None, skip=f"{why}: {feed_provider}"))
                continue
            seen = u.opt_str(row, "last_observed", ctx) or u.opt_str(row, "scraped_at", ctx) or ""
            key = (provider, model_id)
            fields, (prev_seen, prev) = _fields(row, ctx), merged.get(key, ("", {}))
            # Duplicate rows: the most recently observed one wins, the older fills its gaps.
            if key in merged:
                skipped.append(Record(model_id, provider, skip="duplicate row, merged into the other"))
            if seen >= prev_seen:
                merged[key] = (seen, {**prev, **fields})
            else:
                merged[key] = (prev_seen, {**fields, **prev})
    return [Record(model_id, provider, fields) for (provider, model_id), (_, fields) in sorted(merged.items())] \
        + skipped


def _fields(row: dict, ctx: str) -> dict:
    """The facts of one feed row; empty strings and nulls mean unknown."""
    replacements = _replacements(row, ctx)
    return u.stated(
        # The provider's published date when the record has one (new generation), else the date the
        # feed first saw the notice (announcement_date; the only date of old-generation records).
        deprecation_date=u.day(row.get("deprecation_date"), ctx, "deprecation_date")
        or u.day(row.get("announcement_date"), ctx, "announcement_date"),
        sunset_date=u.day(row.get("shutdown_date"), ctx, "shutdown_date"),
        successor=replacements[0] if replacements else None,   # the feed lists the recommended one first
        replacement_models=replacements,
        deprecation_url=u.opt_str(row, "url", ctx),
    )


def _replacements(row: dict, ctx: str) -> list[str]:
    """replacement_models (list or null; new generation) or replacement_model (one string; old)."""
    if row.get("replacement_models") is not None:
        return u.opt_list(row, "replacement_models", ctx)
    single = u.opt_str(row, "replacement_model", ctx)
    return [single] if single else []

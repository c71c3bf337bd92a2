"""bedrock-catalog: Amazon Bedrock ListFoundationModels (with modelLifecycle) and ListInferenceProfiles, through
boto3 (the `aws` extra) with the usual AWS credentials: Bedrock's ids, its cross-region profiles and its own
schedule (LEGACY, legacy and end-of-life days).

A page is a response body as the REST API sends it (timestamps ISO 8601), so the offline snapshot reads like
a live run. A platform catalog writes only its platform's ids and schedule (docs/lifecycle.md#platform-catalogs).
"""
from datetime import datetime

from ...config import setting
from ...fields import PLATFORM_SOURCES, SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "bedrock-catalog"
PROVIDER = None
KEY_ENV = None          # credentials come from boto3's chain (environment, profile, instance role)
KEY_REQUIRED = False
BASE_URL = SOURCE_URLS[SOURCE]
PLATFORM = PLATFORM_SOURCES[SOURCE]
# Bedrock's providerName (letters and digits only, lower case) -> the registry's provider.
PROVIDERS = {"anthropic": "anthropic", "meta": "meta", "mistralai": "mistral", "amazon": "amazon",
             "cohere": "cohere", "ai21labs": "ai21", "deepseek": "deepseek", "qwen": "qwen", "openai": "openai",
             "google": "google", "minimax": "minimax", "moonshotai": "moonshotai", "nvidia": "nvidia",
             "zai": "zai", "xai": "xai", "stabilityai": "stability", "twelvelabs": "twelvelabs", "lumaai": "luma",
             "writer": "writer"}
_ARN_MODEL = "foundation-model/"


def client_for(region: str, endpoint: str | None):
    """A boto3 Bedrock client for a region (endpoint: a mirror's URL, or None for AWS's own)."""
    try:
        import boto3
        from botocore.config import Config
    except ImportError as exc:
        raise SourceError(f"{SOURCE}: boto3 is not installed (pip install 'model-registry[aws]')") from exc
    config = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 4, "mode": "standard"})
    return boto3.client("bedrock", region_name=region, endpoint_url=endpoint, config=config)


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """The home region's foundation models, then each region's system-defined inference profiles."""
    from botocore.exceptions import BotoCoreError, ClientError
    endpoint = None if base_url.rstrip("/") == BASE_URL else base_url
    regions = setting("REGISTRY_BEDROCK_REGIONS")
    pages = []
    try:
        for i, region in enumerate(regions):
            client = client_for(region, endpoint)
            if i == 0:
                pages.append(Page(_wire(client.list_foundation_models())))
            for page in client.get_paginator("list_inference_profiles").paginate(typeEquals="SYSTEM_DEFINED"):
                pages.append(Page(_wire(page)))
                if len(pages) > u.MAX_PAGES:
                    raise SourceError(f"{SOURCE}: pagination does not end ({len(pages)} pages)")
    except (BotoCoreError, ClientError) as exc:
        raise SourceError(f"{SOURCE}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    return pages


def _wire(value):
    """A boto3 response as its REST body: no ResponseMetadata, timestamps ISO 8601 (as the wire has them)."""
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items() if k != "ResponseMetadata"}
    if isinstance(value, list):
        return [_wire(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    return value


def parse(pages: list[Page]) -> list[Record]:
    """One Record per foundation model (its schedule) and per inference profile (the model it routes to)."""
    models, profiles = [], []
    for p, page in enumerate(pages, 1):
        body = page.body
        key = "modelSummaries" if isinstance(body, dict) and "modelSummaries" in body else "inferenceProfileSummaries"
        for i, raw in enumerate(u.body_list(body, key, f"{SOURCE} page {p}"), 1):
            item = u.item_dict(raw, u.where(SOURCE, i))
            (models if key == "modelSummaries" else profiles).append(item)
    records, schedules = [], {}
    for i, item in enumerate(models, 1):
        model_id = u.req_str(item, "modelId", u.where(SOURCE, i))
        ctx = u.where(SOURCE, i, model_id)
        name = u.opt_str(item, "providerName", ctx) or ""
        provider = PROVIDERS.get("".join(c for c in name.lower() if c.isalnum()))
        schedules[model_id] = (provider, _schedule(item, ctx))
        records.append(_record(model_id, provider, schedules[model_id][1]))
    for i, item in enumerate(profiles, 1):
        profile_id = u.req_str(item, "inferenceProfileId", u.where(SOURCE, i))
        ctx = u.where(SOURCE, i, profile_id)
        routed = [_model_of(m, ctx) for m in item.get("models") or [] if isinstance(m, dict)]
        known = [m for m in routed if m in schedules]
        if not known:
            records.append(Record(profile_id, None, skip="inference profile of a model the listing does not name"))
            continue
        provider, schedule = schedules[known[0]]
        records.append(_record(profile_id, provider, schedule, links=known))
    return records


def _record(model_id: str, provider: str | None, schedule: dict, links=()) -> Record:
    if provider is None:
        return Record(model_id, None, skip="provider outside the registry's providers")
    return Record(model_id, provider, {"platforms": {PLATFORM: schedule}}, [(model_id, PLATFORM)], links=list(links))


def _schedule(item: dict, ctx: str) -> dict:
    """Bedrock's own schedule of a model: listed (Bedrock states its lifecycle: it serves its own copy, working
    while ACTIVE even where the maker's API retired the model), LEGACY deprecated there, its legacy and end-of-life
    days."""
    lifecycle = item.get("modelLifecycle") or {}
    if not isinstance(lifecycle, dict):
        raise SourceError(f"{ctx}: 'modelLifecycle' should be an object")
    legacy = u.opt_str(lifecycle, "status", ctx) == "LEGACY"
    deprecation = u.day(lifecycle.get("legacyTime"), ctx, "legacyTime")
    return u.stated(listed=True, deprecation_date=deprecation, sunset_date=u.day(lifecycle.get("endOfLifeTime"), ctx,
                                                                                  "endOfLifeTime"),
                    status="deprecated" if legacy and not deprecation else None)


def _model_of(model: dict, ctx: str) -> str:
    """The foundation model id a profile routes to: the last part of its ARN."""
    arn = u.req_str(model, "modelArn", ctx)
    return arn.rsplit(_ARN_MODEL, 1)[-1] if _ARN_MODEL in arn else arn.rsplit("/", 1)[-1]

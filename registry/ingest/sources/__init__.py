"""The automated sources: one module per upstream, each with fetch (HTTP, pagination) and parse (to Records).

Every module defines:
    SOURCE       the source name (the spec's vendor-a-api, ..., deprecation-feed, model-hub; the platform catalogs
                 openrouter-catalog, bedrock-catalog, vertex-catalog; the public catalogs public-catalog and price-map)
    PROVIDER     provider slug of the run, or None for cross-provider sources
    KEY_ENV      environment variable holding the API key, or None
    KEY_REQUIRED whether a missing key fails the run
    BASE_URL     default base URL: SOURCE_URLS[SOURCE] (registry/fields.py, where pages link the source too);
                 REGISTRY_<SOURCE>_URL overrides it, e.g. REGISTRY_VENDOR_A_API_URL
    fetch(session, base_url, key) -> list[Page]   every page, following the upstream's pagination
    parse(pages) -> list[Record]                  pure: the same pages give the same records
"""
import importlib

MODULES = {
    "vendor-a-api": "openai",
    "vendor-b-api": "anthropic",
    "vendor-c-api": "gemini",
    "vendor-d-api": "mistral",
    "vendor-e-api": "cohere",
    "vendor-f-api": "xai",
    "deprecation-feed": "deprecations",
    "model-hub": "huggingface",
    "openrouter-catalog": "openrouter",
    "bedrock-catalog": "bedrock",
    "vertex-catalog": "vertex",
    "public-catalog": "modelsdev",
    "price-map": "litellm",
}


def load(source: str):
    """Return the module of a source name (KeyError for an unknown one)."""
    return importlib.import_module(f"{__name__}.{MODULES[source]}")

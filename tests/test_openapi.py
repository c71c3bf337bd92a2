"""The OpenAPI document describes exactly the app's routes, with the app's own limits and enums."""
import re

import pytest

from registry.search import ranking
from registry.api import changes as changes_api
from registry.api import models as models_api
from registry.web.params import MAX_Q
from registry.fields import ALIAS_SOURCES
from registry.fields import KNOWLEDGE_CUTOFF, MODALITIES, MODEL_TYPES, REASONING_EFFORTS, STATUSES
from registry.web.openapi import load_document
from registry.fields import AUTOMATED_SOURCES, CURATION

DOC = load_document()
SCHEMAS = DOC["components"]["schemas"]


def operation(path, method="get"):
    return DOC["paths"][path][method]


def param(path, name, method="get"):
    for p in operation(path, method)["parameters"]:
        p = DOC["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p
        if p["name"] == name:
            return p
    raise KeyError(name)


def param_schema(path, name, method="get"):
    schema = param(path, name, method)["schema"]
    return SCHEMAS[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema


def test_document_is_openapi_3_1_under_the_versioned_prefix():
    assert DOC["openapi"].startswith("3.1.")
    assert DOC["servers"] == [{"url": "/api/v1"}]
    assert "x-anchors" not in DOC


def routes_of(app, api: bool) -> set:
    """(path, method) of every route of the API (api) or of the pages blueprint, in OpenAPI's path form."""
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("pages.") is api:
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule).removeprefix("/api/v1")
        if not api and path.endswith(".md"):   # a page's Markdown twin, documented with the page
            path = path.removesuffix(".md").replace("/index", "/") or "/"
        routes |= {(path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"}}
    return routes


def test_every_route_is_documented_and_nothing_else(app):
    documented = {(path, method) for path, item in DOC["paths"].items() for method in item}
    assert routes_of(app, api=True) == documented


def test_every_page_is_documented_and_nothing_else(app):
    pages = DOC["x-pages"]
    assert pages["servers"] == [{"url": "/"}]
    assert routes_of(app, api=False) == {(path, m) for path, item in pages["paths"].items() for m in item}


@pytest.mark.parametrize("path", list(DOC["x-pages"]["paths"]))
def test_every_page_documents_caching_errors_and_rate_limit_headers(path):
    responses = DOC["x-pages"]["paths"][path]["get"]["responses"]
    assert {"200", "304", "404", "429", "500"} <= set(responses)
    assert {"ETag", "Cache-Control", "X-RateLimit-Limit"} <= set(responses["200"]["headers"])
    limited = DOC["components"]["responses"][responses["429"]["$ref"].rsplit("/", 1)[1]]
    assert "Retry-After" in limited["headers"]


@pytest.mark.parametrize("path,method", [(p, m) for p, item in DOC["paths"].items() for m in item])
def test_every_operation_documents_errors_and_rate_limit_headers(path, method):
    responses = operation(path, method)["responses"]
    for status in ("429", "500"):
        assert status in responses
    for status, response in responses.items():
        response = DOC["components"]["responses"].get(response.get("$ref", "").rsplit("/", 1)[-1], response)
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} <= set(response["headers"])
        if status == "429":
            assert "Retry-After" in response["headers"]
        if status.startswith(("4", "5")):
            assert response["content"]["application/json"]["schema"]["$ref"].endswith("Error")
    admin = path.startswith("/admin/")
    assert operation(path, method).get("security") == ([{"adminKey": []}] if admin else None)
    rpc = path == "/mcp"   # JSON-RPC over POST: answers are not cacheable (docs/api-decisions.md#mcp)
    success = responses["200" if rpc else min(status for status in responses if status.startswith("2"))]
    assert ("ETag" in success["headers"]) is not (admin or rpc)
    if not (admin or rpc):
        assert "304" in responses


@pytest.mark.parametrize("path,name,expected", [
    ("/models", "status", list(STATUSES)),
    ("/models", "sort", ["release_date", "parameter_count", "input_price", "output_price"]),
    ("/models", "model_type", list(MODEL_TYPES)),
    ("/search", "model_type", list(MODEL_TYPES)),
    ("/models", "input_modalities", list(MODALITIES)),
    ("/search", "output_modalities", list(MODALITIES)),
    ("/models", "reasoning_efforts", list(REASONING_EFFORTS)),
    ("/search", "reasoning_efforts", list(REASONING_EFFORTS)),
    ("/admin/ingestion-runs", "source", list(AUTOMATED_SOURCES) + [CURATION]),
    ("/admin/ingestion-runs", "status", ["running", "completed", "failed"]),
])
def test_enums_match_the_app(path, name, expected):
    schema = param_schema(path, name)
    if schema.get("type") == "array":      # a comma-separated list (style: form, explode: false)
        item = schema["items"]
        schema = SCHEMAS[item["$ref"].rsplit("/", 1)[1]] if "$ref" in item else item
    assert sorted(schema["enum"]) == sorted(expected)


@pytest.mark.parametrize("path", ["/models", "/search"])
def test_knowledge_cutoff_pattern_is_the_apps(path):
    # The app's own pattern, anchored: a month the document allows is one the app takes (and no other).
    assert param_schema(path, "min_knowledge_cutoff")["pattern"] == f"^{KNOWLEDGE_CUTOFF.pattern}$"


def test_schema_enums_match_the_app():
    assert sorted(SCHEMAS["Status"]["enum"]) == sorted(STATUSES)
    assert sorted(SCHEMAS["AliasSource"]["enum"]) == sorted(ALIAS_SOURCES)
    assert sorted(SCHEMAS["AutomatedSource"]["enum"]) == sorted(AUTOMATED_SOURCES)
    assert SCHEMAS["ModelType"]["enum"] == list(MODEL_TYPES) + [None]


@pytest.mark.parametrize("path,name,minimum,maximum,default", [
    ("/models", "page", 1, 10**6, 1),
    ("/models", "per_page", 1, models_api.MAX_PER_PAGE, 50),
    ("/models", "min_params", 0, models_api.MAX_PARAMS, None),
    ("/models", "max_params", 0, models_api.MAX_PARAMS, None),
    ("/search", "limit", 1, ranking.MAX_LIMIT, ranking.DEFAULT_LIMIT),
    ("/admin/ingestion-runs", "limit", 1, 200, 50),
    ("/changes", "limit", 1, changes_api.MAX_LIMIT, 50),
    ("/feeds/changes.atom", "limit", 1, changes_api.MAX_LIMIT, 50),
    ("/admin/webhooks/{webhook_id}/deliveries", "limit", 1, 200, 50),
])
def test_integer_bounds_match_the_app(path, name, minimum, maximum, default):
    schema = param_schema(path, name)
    assert (schema["type"], schema["minimum"], schema["maximum"], schema.get("default")) == \
        ("integer", minimum, maximum, default)


@pytest.mark.parametrize("path", ["/resolve", "/search"])
def test_q_is_required_text_of_at_most_200(path):
    assert param(path, "q")["required"] is True
    assert param_schema(path, "q")["maxLength"] == MAX_Q == 200


# The text pattern and the app agree on what is blank or holds control characters.
@pytest.mark.parametrize("value,valid", [
    ("claude", True), (" claude ", True), ("\u00e9", True), ("\ufeff", True), ("a b", True),
    (" ", False), ("\t", False), ("\u3000", False), ("\u00a0", False), ("a\x00", False),
    ("a\x85", False), ("a\x7f", False), ("a\nb", False),
])
def test_text_pattern_agrees_with_the_app(client, value, valid):
    pattern = SCHEMAS["QueryText"]["pattern"]
    assert bool(re.search(pattern, value)) is valid
    assert (client.get("/api/v1/search", query_string={"q": value}).status_code == 200) is valid


@pytest.mark.parametrize("url, schema", [
    ("/api/v1/resolve?q=claude-3-5-sonnet-20241022", "Resolution"),
    ("/api/v1/resolve?q=us.anthropic.claude-3-5-sonnet-20241022-v2:0", "Resolution"),
    ("/api/v1/resolve?q=claude-sonnet-4-5", "Resolution"),
    ("/api/v1/models/claude-3-5-sonnet-20241022", "ModelDetail"),
    ("/api/v1/models/llama-3.1-8b-instruct", "ModelDetail"),
])
def test_answers_match_their_schema(client, url, schema):
    """The lifecycle fields beside the interface's (platform_lifecycle, upgrade_alias_kept and _note,
    platforms, points_to) are described exactly as they are answered (docs/lifecycle.md)."""
    from jsonschema import Draft202012Validator
    document = {**DOC, "$ref": f"#/components/schemas/{schema}"}
    body = client.get(url).get_json()
    errors = sorted(Draft202012Validator(document).iter_errors(body), key=str)
    assert errors == [], [e.message for e in errors]

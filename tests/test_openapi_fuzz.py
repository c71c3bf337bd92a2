"""Schemathesis over the whole OpenAPI document, in-process against the WSGI app.

Checks every response against the document (status codes, content types, body schemas, headers),
that nothing answers 5xx, and that the admin operations refuse requests without a valid key.
FUZZ_EXAMPLES=500 raises the examples per operation (default 60, about 10 seconds in all).
"""
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

import fakes
from helpers import assert_error, build_db
from registry import create_app
from registry.web.openapi import load_document
from registry.fields import AUTOMATED_SOURCES

KEY = "fuzz-admin-key"


@pytest.fixture
def fuzz_app(tmp_path, curation_dir, monkeypatch):
    build_db(tmp_path / "registry.db", curation_dir)
    # Triggered runs finish at once over fake sources: the fuzzer must not reach the network.
    fakes.install(monkeypatch, {s: fakes.fake_module(s, None, []) for s in AUTOMATED_SOURCES})
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "registry.db"),
                       # Webhook URLs are not looked up in DNS here (random host names): test_webhooks.py checks them.
                       "ADMIN_API_KEYS": [KEY], "WEBHOOKS_ALLOW_PRIVATE": True, "RATELIMIT_PUBLIC": "1000000/minute",
                       "RATELIMIT_ADMIN": "1000000/minute"})


# The document the package ships (test_served_document_is_the_shipped_one shows it is what the app
# serves). Loaded eagerly: schemathesis' fixture-based lazy loader does not work with pytest 9.
schema = schemathesis.openapi.from_dict(load_document())
# Unknown query parameters are ignored, as by most HTTP APIs (proxies and caches add their own):
# schemathesis would otherwise count them as invalid input the app must reject.
schema.config.generation.update(allow_extra_parameters=False)


@schema.auth(refresh_interval=None, retry_on=[]).apply_to(tag="admin")
class AdminKey:
    """The valid admin key on admin operations; schemathesis' ignored_auth check replays without it."""

    def get(self, case, ctx):
        return KEY

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def crossed_bounds(query) -> bool:
    """min_params above max_params: each valid alone, a 400 together, which OpenAPI cannot state.

    docs/api-decisions.md#parameters
    """
    try:   # values are ints in generated cases, strings in schemathesis' coverage phase
        return int(query["min_params"]) > int(query["max_params"])
    except (KeyError, TypeError, ValueError):
        return False


def dns_dependent(case) -> bool:
    """A webhook registration: whether its URL is accepted depends on where its host resolves (public
    addresses only) and its models on what the registry holds, which OpenAPI cannot state."""
    return case.operation.method.upper() == "POST" and case.operation.path == "/admin/webhooks"


@schema.parametrize()
@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_app_conforms_to_its_document(fuzz_app, case):
    # On the operation and its schema, not per call: the auth check's probe requests must reach it too.
    case.operation.app = case.operation.schema.app = fuzz_app
    excluded = [positive_data_acceptance] if crossed_bounds(case.query) or dns_dependent(case) else []
    # /mcp is at the root (its operation's own server): schemathesis' in-process calls keep the
    # document's /api/v1 prefix unless told.
    base_url = "http://localhost" if case.path == "/mcp" else None
    response = case.call_and_validate(excluded_checks=excluded, base_url=base_url)
    if excluded and not dns_dependent(case):
        assert response.status_code == 400


def test_served_document_is_the_shipped_one(fuzz_app):
    response = fuzz_app.test_client().get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.get_json() == load_document()
    assert response.get_json()["openapi"].startswith("3.1")


ADMIN = [(method, path) for path, item in load_document()["paths"].items()
         for method, op in item.items() if op.get("security")]


def test_document_marks_exactly_the_admin_operations():
    assert sorted(ADMIN) == [("delete", "/admin/webhooks/{webhook_id}"), ("get", "/admin/ingestion-runs"),
                             ("get", "/admin/webhooks"), ("get", "/admin/webhooks/{webhook_id}/deliveries"),
                             ("post", "/admin/ingest/{source}"), ("post", "/admin/webhooks")]


@pytest.mark.parametrize("method,path", ADMIN)
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}])
def test_admin_operations_refuse_without_a_valid_key(fuzz_app, method, path, headers):
    url = "/api/v1" + path.replace("{source}", "model-hub").replace("{webhook_id}", "1")
    response = fuzz_app.test_client().open(url, method=method.upper(), headers=headers)
    assert_error(response, 401, "unauthorized")

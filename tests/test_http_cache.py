"""ETag, Cache-Control and 304 (docs/api-decisions.md#caching)."""
import pytest

from registry.db import bump_generation, transaction

KEY = "cache-key"
PUBLIC_URLS = [
    "/api/v1/providers",
    "/api/v1/providers/anthropic",
    "/api/v1/families?open_source=false",
    "/api/v1/families/claude-sonnet",
    "/api/v1/models?per_page=3",
    "/api/v1/models/claude-sonnet-4-5-20250929",
    "/api/v1/models/claude-sonnet-4-20250514/upgrade",
    "/api/v1/models/claude-sonnet-4-20250514/history",
    "/api/v1/resolve?q=claude-sonnet-4-5",
    "/api/v1/search?q=sonnet",
    "/api/v1/openapi.json",
]


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_public_reads_carry_etag_and_cache_control(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=60"
    etag = response.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert client.get(url).headers["ETag"] == etag   # same data, same tag


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_matching_if_none_match_is_304_without_body(client, url):
    etag = client.get(url).headers["ETag"]
    response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == etag
    assert response.headers["Cache-Control"] == "public, max-age=60"
    assert "X-RateLimit-Remaining" in response.headers


# If-None-Match uses the weak comparison; "*" matches any current representation.
@pytest.mark.parametrize("header,status", [
    ("{etag}", 304),
    ("W/{etag}", 304),
    ('"other", {etag}', 304),
    ("*", 304),
    ('"other"', 200),
    ('W/"other"', 200),
    ("", 200),
    ("not an etag at all", 200),
])
def test_if_none_match_forms(client, header, status):
    etag = client.get("/api/v1/providers").headers["ETag"]
    response = client.get("/api/v1/providers", headers={"If-None-Match": header.format(etag=etag)})
    assert response.status_code == status
    if status == 200:
        assert response.get_json()["providers"]


def test_changed_data_changes_the_etag(client, rw):
    before = client.get("/api/v1/providers/anthropic").headers["ETag"]
    # As every write run does, the change bumps the data generation (cached answers are tagged with it).
    with transaction(rw):
        rw.execute("UPDATE providers SET name = 'Anthropic PBC' WHERE slug = 'anthropic'")
        bump_generation(rw)
    response = client.get("/api/v1/providers/anthropic", headers={"If-None-Match": before})
    assert response.status_code == 200
    assert response.headers["ETag"] != before


# Admin answers and errors are never cached and carry no ETag.
@pytest.mark.parametrize("method,url,headers,status", [
    ("GET", "/api/v1/admin/ingestion-runs", {"Authorization": f"Bearer {KEY}"}, 200),
    ("GET", "/api/v1/admin/ingestion-runs", {}, 401),
    ("POST", "/api/v1/admin/ingest/nope", {"Authorization": f"Bearer {KEY}"}, 400),
    ("GET", "/api/v1/models/nope", {}, 404),
    ("GET", "/api/v1/models?per_page=0", {}, 400),
    ("GET", "/nowhere", {}, 404),
    ("PUT", "/api/v1/providers", {}, 405),
])
def test_admin_answers_and_errors_are_not_stored(app, method, url, headers, status):
    app.config["ADMIN_API_KEYS"] = [KEY]
    response = app.test_client().open(url, method=method, headers=headers)
    assert response.status_code == status
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers


def test_admin_ignores_if_none_match(app):
    app.config["ADMIN_API_KEYS"] = [KEY]
    client = app.test_client()
    response = client.get("/api/v1/admin/ingestion-runs", headers={"Authorization": f"Bearer {KEY}",
                                                                   "If-None-Match": "*"})
    assert response.status_code == 200

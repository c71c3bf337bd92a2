"""One invariant over every GET route, derived from the app's URL map so a new endpoint cannot be left out:
it answers JSON under /api/v1 (a feed its own format; outside it: a page, Markdown or an asset); public
answers are 200 with ETag and Cache-Control, admin answers without a key are 401 in the error shape; every
answer carries the rate-limit headers."""
import pytest

from registry import create_app

from helpers import assert_error, get_routes

# The feeds answer in their own formats, the export's JSON Schema as a schema; everything else, errors
# included, is JSON.
MIMETYPES = {"/api/v1/feeds/changes.atom": "application/atom+xml",
             "/api/v1/feeds/changes.json": "application/feed+json", "/api/v1/feeds/lifecycle.ics": "text/calendar",
             "/api/v1/export.schema.json": "application/schema+json"}
ROUTES = get_routes(create_app({"TESTING": True, "DATABASE": "unused-url-map-only.db"}))
# What the pages answer (registry/pages/): HTML, the Markdown twins, /llms.txt and the three assets.
PAGE_TYPES = {"text/html", "text/markdown", "text/plain", "text/css", "text/javascript", "image/svg+xml"}


def test_the_url_map_gives_every_resource():
    assert len(ROUTES) >= 12
    assert any(r.startswith("/api/v1/admin/") for r in ROUTES)
    assert {"/", "/index.md", "/models/claude-3-5-sonnet-20241022", "/families/claude-sonnet.md",
            "/llms.txt"} <= set(ROUTES)


@pytest.mark.parametrize("url", ROUTES)
def test_every_get_route(client, url):
    response = client.get(url)
    if url.startswith("/api/v1/"):
        assert response.mimetype == MIMETYPES.get(url, "application/json")
    else:
        assert response.mimetype in PAGE_TYPES
    assert all(h in response.headers for h in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"))
    if url.startswith("/api/v1/admin/"):
        assert_error(response, 401, "unauthorized")
        assert response.headers["Cache-Control"] == "no-store"
    else:
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.headers["ETag"] and response.headers["Cache-Control"] == "public, max-age=60"
        again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304

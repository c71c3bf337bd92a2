"""Deprecation (RFC 9745), Sunset (RFC 8594) and successor-version Link on answers about retiring models."""
import pytest

from registry.api.signals import lifecycle_headers

# In the fixture curation (today pinned to 2026-11-21): claude-3-5-sonnet is deprecated (2025-08-13,
# shutdown 2099-10-22, upgrade claude-sonnet-4-5), claude-3-sonnet is sunset (2025-01-21 / 2025-07-21).
DEPRECATED = {"Deprecation": "@1755043200", "Sunset": "Thu, 22 Oct 2099 00:00:00 GMT",
              "Link": '</api/v1/models/claude-sonnet-4-5-20250929>; rel="successor-version"'}
SUNSET = {"Deprecation": "@1737417600", "Sunset": "Mon, 21 Jul 2025 00:00:00 GMT",
          "Link": '</api/v1/models/claude-sonnet-4-5-20250929>; rel="successor-version"'}


@pytest.mark.parametrize("url, expected", [
    ("/api/v1/models/claude-3-5-sonnet-20241022", DEPRECATED),
    ("/api/v1/models/claude-3-5-sonnet-20241022/upgrade", DEPRECATED),
    ("/api/v1/resolve?q=anthropic.claude-3-5-sonnet-20241022-v2:0", DEPRECATED),
    ("/api/v1/models/claude-3-sonnet-20240229", SUNSET),
    ("/api/v1/resolve?q=claude-3-sonnet-20240229", SUNSET),
    ("/api/v1/models/claude-sonnet-4-5-20250929", {}),                 # working: no signals
    ("/api/v1/resolve?q=claude-sonnet-4-5", {}),
])
def test_signals_on_model_upgrade_and_resolve(client, url, expected):
    for attempt in ("fresh", "cached"):      # the response cache keeps them with the body
        response = client.get(url)
        assert response.status_code == 200, attempt
        got = {name: response.headers.get(name) for name in ("Deprecation", "Sunset", "Link")}
        assert got == {name: expected.get(name) for name in got}, attempt


@pytest.mark.parametrize("model, upgrade, expected", [
    ({"status": "active", "deprecation_date": None, "sunset_date": "2027-01-01"}, None, {}),
    ({"status": "deprecated", "deprecation_date": None, "sunset_date": "2027-01-14"}, None,
     # deprecated by its shutdown day at the latest
     {"Deprecation": "@1799884800", "Sunset": "Thu, 14 Jan 2027 00:00:00 GMT"}),
    ({"status": "deprecated", "deprecation_date": None, "sunset_date": None}, {"slug": "x"},
     {"Link": '</api/v1/models/x>; rel="successor-version"'}),                    # no day known: no Deprecation
])
def test_lifecycle_headers(model, upgrade, expected):
    assert lifecycle_headers(model, upgrade) == expected

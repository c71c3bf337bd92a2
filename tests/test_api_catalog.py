import pytest

from helpers import assert_error


def test_providers_sorted_by_name_with_counts(client):
    providers = client.get("/api/v1/providers").get_json()["providers"]
    assert [p["slug"] for p in providers] == ["anthropic", "meta"]
    anthropic = providers[0]
    assert set(anthropic) == {"slug", "name", "website_url", "api_models_url", "family_count", "model_count",
                              "created_at", "updated_at"}
    assert (anthropic["family_count"], anthropic["model_count"]) == (3, 6)
    assert providers[1]["api_models_url"] is None


def test_provider_detail(client):
    body = client.get("/api/v1/providers/meta").get_json()
    assert body["name"] == "Meta" and body["model_count"] == 3


@pytest.mark.parametrize("query,expected", [
    ("", ["claude-haiku", "claude-instant", "claude-sonnet", "llama-3-1-instruct"]),
    ("?provider=meta", ["llama-3-1-instruct"]),
    ("?provider=nobody", []),
    ("?open_source=true", ["llama-3-1-instruct"]),
    ("?open_source=false", ["claude-haiku", "claude-instant", "claude-sonnet"]),
    ("?open_source=FALSE&provider=anthropic", ["claude-haiku", "claude-instant", "claude-sonnet"]),
])
def test_family_filters(client, query, expected):
    families = client.get("/api/v1/families" + query).get_json()["families"]
    assert [f["slug"] for f in families] == expected


def test_family_list_shape(client):
    family = client.get("/api/v1/families?provider=meta").get_json()["families"][0]
    assert family == {**family, "name": "Llama 3.1 Instruct", "provider": {"slug": "meta", "name": "Meta"},
                      "is_open_source": True, "model_count": 3}
    assert "models" not in family and "created_at" in family and "updated_at" in family


def test_family_timeline_oldest_first(client):
    family = client.get("/api/v1/families/claude-sonnet").get_json()
    assert [m["slug"] for m in family["models"]] == [
        "claude-3-sonnet-20240229", "claude-3-5-sonnet-20241022", "claude-sonnet-4-20250514",
        "claude-sonnet-4-5-20250929"]
    first, last = family["models"][0], family["models"][-1]
    # the spec's entry, and the shutdown day beside the deprecation day (issue 45), each absent when there is none
    assert set(first) == {"slug", "display_name", "version", "status", "release_date", "deprecation_date",
                          "sunset_date", "input_context_window", "output_context_window"}
    assert (first["deprecation_date"], first["sunset_date"]) == ("2025-01-21", "2025-07-21")
    assert "deprecation_date" not in last and "sunset_date" not in last


@pytest.mark.parametrize("url,message", [
    ("/api/v1/providers/nobody", "Provider 'nobody' not found"),
    ("/api/v1/families/nothing", "Family 'nothing' not found"),
])
def test_not_found(client, url, message):
    assert_error(client.get(url), 404, "not_found", message)


@pytest.mark.parametrize("query,name", [
    ("?open_source=yes", "open_source"),
    ("?open_source=", "open_source"),
    ("?provider=", "provider"),
    ("?provider=a&provider=b", "provider"),
])
def test_family_bad_parameters(client, query, name):
    assert_error(client.get("/api/v1/families" + query), 400, "bad_request", name)

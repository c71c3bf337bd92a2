import pytest

from helpers import assert_error
from registry.db import bump_generation, transaction

SONNET_45 = "claude-sonnet-4-5-20250929"

# q -> (matched slug, matched alias, source, confidence, upgrade slug, upgrade_alias or None)
CASES = [
    ("claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20241022", "official", 1.0,
     SONNET_45, "claude-sonnet-4-5-20250929"),
    ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-latest", "official", 1.0,
     SONNET_45, "claude-sonnet-4-5"),                                     # floating in, floating out
    ("us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022",
     "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "cloud-a", 1.0,
     SONNET_45, "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),         # region kept
    ("eu.anthropic.claude-3-sonnet-20240229-v1:0", "claude-3-sonnet-20240229",
     "anthropic.claude-3-sonnet-20240229-v1:0", "cloud-a", 0.8,
     SONNET_45, "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"),         # the caller's region kept
    ("bedrock/anthropic.claude-3-sonnet-20240229-v1:0", "claude-3-sonnet-20240229",
     "anthropic.claude-3-sonnet-20240229-v1:0", "cloud-a", 0.8, SONNET_45, "anthropic.claude-sonnet-4-5-20250929-v1:0"),
    # the upgrade is chosen among what Vertex AI serves: the newest Sonnet with a Vertex id (Sonnet 4.5 has none)
    ("claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-v2@20241022", "cloud-b", 1.0,
     "claude-sonnet-4-20250514", "claude-sonnet-4@20250514"),
    ("anthropic/claude-3.5-sonnet", "claude-3-5-sonnet-20241022", "anthropic/claude-3.5-sonnet", "gateway", 1.0,
     SONNET_45, "anthropic/claude-sonnet-4.5"),
    ("openrouter/anthropic/claude-3-sonnet:beta", "claude-3-sonnet-20240229", "anthropic/claude-3-sonnet",
     "gateway", 0.8, SONNET_45, "anthropic/claude-sonnet-4.5"),
    ("CLAUDE-3-HAIKU-20240307", "claude-3-haiku-20240307", "claude-3-haiku-20240307", "official", 0.8, None, None),
    ("bedrock/meta.llama3-1-70b-instruct-v1:0", "llama-3.1-70b-instruct", "meta.llama3-1-70b-instruct-v1:0",
     "cloud-a", 0.8, None, None),                                       # only a smaller model: no upgrade
    # a platform's spelling without 'instruct' (Groq, Ollama): a normalized match
    ("llama3-1-8b", "llama-3.1-8b-instruct", "Llama-3.1-8B-Instruct", "official", 0.8, None, None),
    ("acme-llama-3.1-8b-instruct-finetune", "llama-3.1-8b-instruct", "Llama-3.1-8B-Instruct", "official", 0.5,
     None, None),                                                       # an alias inside q: substring
    ("claude-sonnet-4-5", SONNET_45, "claude-sonnet-4-5", "official", 1.0, None, None),
]


@pytest.mark.parametrize("q,slug,alias,source,confidence,upgrade,upgrade_alias", CASES)
def test_resolve(client, q, slug, alias, source, confidence, upgrade, upgrade_alias):
    body = client.get("/api/v1/resolve", query_string={"q": q}).get_json()
    assert body["matched_model"]["slug"] == slug
    assert body["matched_alias"] == {"alias": alias, "source": source}
    assert body["confidence"] == confidence
    assert (body["upgrade"] or {}).get("slug") == upgrade
    assert body["is_latest"] is (body["matched_model"]["status"] == "latest")
    if upgrade_alias is None:
        assert body["upgrade_alias"] is None
    else:   # the fixture's curation is not a platform's listing: listed is false
        assert body["upgrade_alias"] == {"alias": upgrade_alias, "source": source, "listed": False,
                                         "written": q[:len(q) - len(q.split("/", 1)[-1])] + upgrade_alias
                                         if q.startswith(("bedrock/", "openrouter/")) else upgrade_alias}


def test_resolve_shape(client):
    body = client.get("/api/v1/resolve?q=claude-3-5-sonnet-20241022").get_json()
    # the spec's six fields, then whether upgrade_alias keeps the caller's format, and the lifecycle of
    # the platform the id belongs to (docs/lifecycle.md#what-resolve-answers)
    assert list(body) == ["matched_model", "matched_alias", "confidence", "is_latest", "upgrade", "upgrade_alias",
                          "upgrade_alias_kept", "upgrade_alias_note", "first_party_upgrade", "platform_lifecycle"]
    assert body["upgrade_alias_kept"] is True and body["upgrade_alias_note"] is None
    lifecycle = body["platform_lifecycle"]
    assert (lifecycle["platform"], lifecycle["status"], lifecycle["own_schedule"]) == ("official", "deprecated", False)
    assert lifecycle["upgrade"]["slug"] == body["upgrade"]["slug"]
    assert set(lifecycle) == {"platform", "name", "status", "deprecation_date", "sunset_date", "successor", "upgrade",
                              "own_schedule", "sources"}
    assert body["matched_model"] == {"slug": "claude-3-5-sonnet-20241022",
                                     "display_name": "Claude 3.5 Sonnet (2024-10-22)", "status": "deprecated",
                                     "family": "claude-sonnet"}
    assert set(body["upgrade"]) == {"slug", "display_name", "status", "preview", "why"}
    # why (docs/lifecycle.md#why): Anthropic named the replacement, in curation; the same answer on the lifecycle
    assert body["upgrade"]["why"]["basis"] == lifecycle["upgrade"]["basis"] == "replacement"
    assert body["upgrade"]["why"]["named_by"] == lifecycle["upgrade"]["named_by"] == {"source": "curation", "url": None}
    assert body["first_party_upgrade"] is None   # on the provider's own API, the upgrade is the provider's own


def test_latest_model_has_no_upgrade(client):
    body = client.get("/api/v1/resolve?q=claude-sonnet-4-5-20250929").get_json()
    assert (body["is_latest"], body["upgrade"], body["upgrade_alias"]) == (True, None, None)


def test_index_follows_curation_changes(client, rw):
    assert client.get("/api/v1/resolve?q=claude-next").status_code == 404
    with transaction(rw):
        rw.execute("INSERT INTO aliases (alias, model_id, source, position, normalized)"
                   " SELECT 'claude-next', id, 'official', 5, 'x' FROM models WHERE slug = ?", (SONNET_45,))
        bump_generation(rw)   # a write of this process shows at once (another's: test_response_cache.py)
    assert client.get("/api/v1/resolve?q=claude-next").get_json()["matched_model"]["slug"] == SONNET_45


@pytest.mark.parametrize("q", ["xyz-unknown-model", "zz"])
def test_no_match_is_404(client, q):
    assert_error(client.get("/api/v1/resolve", query_string={"q": q}), 404, "not_found", q)


@pytest.mark.parametrize("query,message", [
    ("", "'q' is required"),
    ("?q=", "'q' is required"),
    ("?q=%20%20", "'q' is required"),
    ("?q=" + "a" * 201, "at most 200"),
    ("?q=abc%00def", "control characters"),
    ("?q=abc%0Adef", "control characters"),
    ("?q=a&q=b", "only once"),
])
def test_bad_q_is_400(client, query, message):
    assert_error(client.get("/api/v1/resolve" + query), 400, "bad_request", message)

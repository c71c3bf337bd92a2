"""Source modules against their real URLs and response shapes (mocked with `responses`), and the seeds."""
import copy
import json
import re
from pathlib import Path

import pytest
import requests
import responses
from responses import matchers

from registry.fields import CAPABILITIES, PLATFORM_SOURCES
from registry.ingest.http import make_session
from registry.ingest.records import Page, Record, SourceError
from registry.ingest.snapshots import load_pages, save_pages
from registry.ingest.sources import MODULES, load
from registry.ingest.sources import huggingface as hub

UPSTREAM = Path(__file__).parent / "data" / "upstream"
SEEDS = Path(__file__).parent.parent / "seeds"
KEY = "test-key-123"
ALIAS_SOURCES = {"official", "cloud-a", "cloud-b", "gateway"}


def sample(name):
    return json.loads((UPSTREAM / name).read_text())


def url_of(source):
    mod = load(source)
    return mod.BASE_URL + mod.PATH.format(publisher="google")


@pytest.fixture
def session():
    return make_session(backoff=0)


@pytest.fixture
def mocked():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        yield rsps


@pytest.fixture(autouse=True)
def one_hub_org(monkeypatch):
    """Hub fetches list one org, and Vertex AI one publisher with google-auth's anonymous credentials, unless a test
    says otherwise, so mocks stay small."""
    import google.auth
    from google.auth.credentials import AnonymousCredentials
    monkeypatch.setenv("REGISTRY_HUB_ORGS", "meta-llama")
    monkeypatch.setenv("REGISTRY_VERTEX_PUBLISHERS", "google")
    monkeypatch.setattr(google.auth, "default", lambda scopes=None: (AnonymousCredentials(), None))


def check_records(records, source):
    """Invariants of every parse: the Record contract, no None for unknown, ISO days, aliases."""
    mod = load(source)
    assert records and all(isinstance(r, Record) for r in records)
    for r in records:
        assert isinstance(r.model_id, str) and r.model_id
        if r.skip:   # stated nothing, but counted with its reason in the run's details
            assert r.fields == {} and r.aliases == []
            continue
        if r.platform is not None:   # a public catalog's row: that platform's price; a provider's, capabilities
            assert set(r.fields.get("prices", {})) <= {r.platform} and r.aliases == [], r
            assert set(r.fields) <= ({"prices", *CAPABILITIES} if r.platform == "official" else {"prices"}), r
            continue
        if r.provider is None:   # a cloud's row: only that cloud's schedule for its id
            assert set(r.fields) == {"platforms"} and r.aliases == [], r
            continue
        assert None not in r.fields.values(), (r.model_id, r.fields)
        for key in ("release_date", "deprecation_date", "sunset_date"):
            if key in r.fields:
                assert re.fullmatch(r"\d{4}-\d\d-\d\d", r.fields[key]), (r.model_id, key, r.fields[key])
        for key in ("input_context_window", "output_context_window", "parameter_count"):
            if key in r.fields:
                assert isinstance(r.fields[key], int) and not isinstance(r.fields[key], bool)
        assert all(s in ALIAS_SOURCES for _, s in r.aliases)
        if source != "deprecation-feed":   # a platform's catalog: the id is its platform's
            assert (r.model_id, PLATFORM_SOURCES.get(source, "official")) in r.aliases
        if mod.PROVIDER:
            assert r.provider == mod.PROVIDER


def by_id(records):
    return {r.model_id: r for r in records}


# ---------------------------------------------------------------- minimal valid single pages

ONE_PAGE = {
    "vendor-a-api": {"object": "list", "data": [{"id": "gpt-4o", "object": "model", "created": 1715367049,
                                                  "owned_by": "system"}]},
    "vendor-b-api": {"data": [{"type": "model", "id": "claude-opus-4-6", "display_name": "Claude Opus 4.6",
                               "created_at": "2026-02-05T00:00:00Z"}],
                     "has_more": False, "first_id": "claude-opus-4-6", "last_id": "claude-opus-4-6"},
    "vendor-c-api": {"models": [{"name": "models/gemini-2.5-pro", "displayName": "Gemini 2.5 Pro"}]},
    "vendor-d-api": {"object": "list", "data": [{"id": "mistral-small-2603", "name": "mistral-small-2603",
                                                  "type": "base", "aliases": []}]},
    "vendor-e-api": {"models": [{"name": "command-a-03-2025", "is_deprecated": False}]},
    "vendor-f-api": {"models": [{"id": "grok-3", "version": "1.0", "aliases": []}]},
    "deprecation-feed": [{"provider": "OpenAI", "model_id": "o3-mini", "announcement_date": "2026-05-01",
                          "shutdown_date": "2026-10-23", "deprecation_date": "2026-04-22",
                          "replacement_models": ["gpt-5.6-sol"]}],
    "model-hub": [{"_id": "6698d8a0653e4babe21e1e7d", "id": "meta-llama/Llama-3.1-8B-Instruct",
                   "pipeline_tag": "text-generation", "createdAt": "2024-07-18T08:56:00.000Z"}],
    "openrouter-catalog": {"data": [{"id": "anthropic/claude-sonnet-4.5", "canonical_slug":
                                     "anthropic/claude-4.5-sonnet-20250929", "hugging_face_id": "",
                                     "expiration_date": None, "context_length": 1000000}]},
    "vertex-catalog": {"publisherModels": [{"name": "publishers/google/models/gemini-2.5-pro", "versionId": "default",
                                            "openSourceCategory": "PROPRIETARY", "launchStage": "GA"}]},
    "public-catalog": {"anthropic": {"id": "anthropic", "env": ["ANTHROPIC_API_KEY"], "npm": "@ai-sdk/anthropic",
                                     "name": "Anthropic", "doc": "https://docs.anthropic.com/en/docs/about-claude/models",
                                     "models": {"claude-opus-4-6": {"id": "claude-opus-4-6", "name": "Claude Opus 4.6",
                                                                    "cost": {"input": 5, "output": 25}}}}},
    "price-map": {"gpt-4o": {"input_cost_per_token": 2.5e-06, "output_cost_per_token": 1e-05,
                             "input_cost_per_token_batches": 1.25e-06, "litellm_provider": "openai", "mode": "chat"}},
}
EXPECTED_ID = {"vendor-a-api": "gpt-4o", "vendor-b-api": "claude-opus-4-6", "vendor-c-api": "gemini-2.5-pro",
               "vendor-d-api": "mistral-small-2603", "vendor-e-api": "command-a-03-2025", "vendor-f-api": "grok-3",
               "deprecation-feed": "o3-mini", "model-hub": "Llama-3.1-8B-Instruct",
               "openrouter-catalog": "anthropic/claude-sonnet-4.5", "vertex-catalog": "gemini-2.5-pro",
               "public-catalog": "claude-opus-4-6", "price-map": "gpt-4o"}
AUTH = {"vendor-a-api": ("Authorization", f"Bearer {KEY}"), "vendor-b-api": ("x-api-key", KEY),
        "vendor-c-api": ("x-goog-api-key", KEY), "vendor-d-api": ("Authorization", f"Bearer {KEY}"),
        "vendor-e-api": ("Authorization", f"Bearer {KEY}"), "vendor-f-api": ("Authorization", f"Bearer {KEY}"),
        "deprecation-feed": None, "model-hub": ("Authorization", f"Bearer {KEY}"),
        # OpenRouter's catalog is public; Vertex AI's credentials are Google's (anonymous here: no header)
        "openrouter-catalog": None, "vertex-catalog": None, "public-catalog": None, "price-map": None}
# Every source fetched over HTTP with requests (bedrock-catalog goes through boto3: tests/test_platform_catalogs.py).
ALL = sorted(set(MODULES) - {"bedrock-catalog"})


def test_module_contract():
    for source in ALL:
        mod = load(source)
        assert mod.SOURCE == source
        # a source of one document (the price map) has its URL as its base URL, and no path
        assert mod.BASE_URL.startswith("https://")
        assert mod.PATH.startswith("/") or (mod.PATH == "" and mod.BASE_URL.endswith(".json"))
        assert callable(mod.fetch) and callable(mod.parse)
    assert {load(s).KEY_ENV for s in ALL} == {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                                              "MISTRAL_API_KEY", "CO_API_KEY", "XAI_API_KEY", "HF_TOKEN", None}
    assert [s for s in ALL if not load(s).KEY_REQUIRED] == ["deprecation-feed", "model-hub", "openrouter-catalog",
                                                             "price-map", "public-catalog", "vertex-catalog"]


@pytest.mark.parametrize("source", ALL)
def test_single_page_fetch_sends_auth_and_parses(source, session, mocked):
    mocked.get(url_of(source), json=ONE_PAGE[source])
    pages = load(source).fetch(session, load(source).BASE_URL + "/", KEY)   # a trailing slash is tolerated
    assert [p.body for p in pages] == [ONE_PAGE[source]]
    auth = AUTH[source]
    sent = mocked.calls[0].request.headers
    if auth:
        assert sent[auth[0]] == auth[1]
    if source == "vendor-b-api":
        assert sent["anthropic-version"] == "2023-06-01"
    if source == "vendor-c-api":
        assert KEY not in mocked.calls[0].request.url   # the key travels in a header, not the URL
    records = load(source).parse(pages)
    check_records(records, source)
    assert EXPECTED_ID[source] in by_id(records)


@pytest.mark.parametrize("source", [s for s in ALL if load(s).KEY_REQUIRED])
def test_missing_required_key_is_a_clear_error(source, session):
    with pytest.raises(SourceError, match=load(source).KEY_ENV):
        load(source).fetch(session, load(source).BASE_URL, None)


def test_hub_without_token_sends_no_authorization(session, mocked):
    mocked.get(url_of("model-hub"), json=ONE_PAGE["model-hub"])
    hub.fetch(session, hub.BASE_URL, None)
    assert "Authorization" not in mocked.calls[0].request.headers


# ---------------------------------------------------------------- pagination (happy paths)

def anthropic_page(items, more):
    return {"data": items, "has_more": more, "first_id": items[0]["id"], "last_id": items[-1]["id"]}


def test_anthropic_cursor_pages(session, mocked):
    data = sample("anthropic-models.json")["data"]
    url = url_of("vendor-b-api")
    mocked.get(url, json=anthropic_page(data[:3], True),
               match=[matchers.query_param_matcher({"limit": "1000"})])
    mocked.get(url, json=anthropic_page(data[3:], False),
               match=[matchers.query_param_matcher({"limit": "1000", "after_id": data[2]["id"]})])
    pages = load("vendor-b-api").fetch(session, load("vendor-b-api").BASE_URL, KEY)
    assert len(pages) == 2 and len(mocked.calls) == 2
    assert list(by_id(load("vendor-b-api").parse(pages))) == [m["id"] for m in data]


def test_anthropic_has_more_without_cursor_is_drift(session, mocked):
    mocked.get(url_of("vendor-b-api"), json={"data": [], "has_more": True})
    with pytest.raises(SourceError, match="last_id"):
        load("vendor-b-api").fetch(session, load("vendor-b-api").BASE_URL, KEY)


@pytest.mark.parametrize("source,size_param,token_param,next_key,items_key,item", [
    ("vendor-c-api", "pageSize", "pageToken", "nextPageToken", "models", lambda n: {"name": f"models/m-{n}"}),
    ("vendor-e-api", "page_size", "page_token", "next_page_token", "models", lambda n: {"name": f"m-{n}"}),
])
def test_token_pages(source, size_param, token_param, next_key, items_key, item, session, mocked):
    url = url_of(source)
    mocked.get(url, json={items_key: [item(1), item(2)], next_key: "tok-2"},
               match=[matchers.query_param_matcher({size_param: "1000"})])
    mocked.get(url, json={items_key: [item(3)], next_key: "tok-3"},
               match=[matchers.query_param_matcher({size_param: "1000", token_param: "tok-2"})])
    mocked.get(url, json={items_key: [item(4)]},   # last page: no token at all
               match=[matchers.query_param_matcher({size_param: "1000", token_param: "tok-3"})])
    pages = load(source).fetch(session, load(source).BASE_URL, KEY)
    assert len(pages) == 3
    assert sorted(by_id(load(source).parse(pages))) == ["m-1", "m-2", "m-3", "m-4"]


def test_token_that_repeats_is_detected(session, mocked):
    mocked.get(url_of("vendor-e-api"), json={"models": [{"name": "x"}], "next_page_token": "same"})
    with pytest.raises(SourceError, match="pagination does not end"):
        load("vendor-e-api").fetch(session, load("vendor-e-api").BASE_URL, KEY)


def hub_link(base, cursor):
    return {"Link": f'<{base}/api/models?author=meta-llama&expand%5B%5D=safetensors&limit=500&cursor={cursor}>; '
                    f'rel="next"'}


def test_hub_follows_link_pages_with_expand(session, mocked):
    items = sample("hf-models-meta-llama.json")
    raw_link = (UPSTREAM / "hf-models-meta-llama.headers.txt").read_text().split("link: ", 1)[1].splitlines()[0]
    url = url_of("model-hub")
    mocked.get(url, json=items[:2], headers={"link": raw_link},   # the hub sends the header in lower case
               match=[matchers.query_param_matcher({"author": "meta-llama", "limit": "500"}, strict_match=False)])
    mocked.get(url, json=items[2:],
               match=[matchers.query_param_matcher({"cursor": "eyIkb3IiOlt7Il9pZCI6eyIkZ3QiOiI2NzQ1ZjI4ZjljMmU0YjdhMW"
                                                              "QzZTVmNjAifX1dfQ=="}, strict_match=False)])
    pages = hub.fetch(session, hub.BASE_URL, KEY)
    assert len(pages) == 2
    assert pages[0].headers == {"Link": raw_link} and pages[1].headers == {}
    first = mocked.calls[0].request.url
    for key in hub.EXPAND:
        assert f"expand%5B%5D={key}" in first
    assert [r.model_id for r in hub.parse(pages)] == [
        "Llama-3.1-8B-Instruct", "Meta-Llama-3-8B-Instruct", "Llama-3.3-70B-Instruct"]


def test_hub_next_link_stays_on_the_configured_base_url(session, mocked):
    mirror = "https://hf-mirror.example.org"
    mocked.get(mirror + "/api/models", json=ONE_PAGE["model-hub"], headers=hub_link("https://huggingface.co", "c2"),
               match=[matchers.query_param_matcher({"author": "meta-llama"}, strict_match=False)])
    mocked.get(mirror + "/api/models", json=[],
               match=[matchers.query_param_matcher({"cursor": "c2"}, strict_match=False)])
    pages = hub.fetch(session, mirror, None)
    assert len(pages) == 2
    assert all(c.request.url.startswith(mirror) for c in mocked.calls)


def test_hub_lists_every_configured_org(session, mocked, monkeypatch):
    monkeypatch.setenv("REGISTRY_HUB_ORGS", " Qwen , deepseek-ai ,")
    assert hub.orgs() == ["Qwen", "deepseek-ai"]
    for org, repo in (("Qwen", "Qwen/Qwen2.5-7B-Instruct"), ("deepseek-ai", "deepseek-ai/DeepSeek-R1")):
        mocked.get(url_of("model-hub"), json=[{"id": repo, "pipeline_tag": "text-generation"}],
                   match=[matchers.query_param_matcher({"author": org}, strict_match=False)])
    records = hub.parse(hub.fetch(session, hub.BASE_URL, None))
    assert {(r.model_id, r.provider) for r in records} == {("Qwen2.5-7B-Instruct", "qwen"), ("DeepSeek-R1", "deepseek")}
    monkeypatch.delenv("REGISTRY_HUB_ORGS")
    assert hub.orgs() == list(hub.ORGS)


# ---------------------------------------------------------------- HTTP faults, for every source

def paged_ok(source):
    return ONE_PAGE[source]


@pytest.mark.parametrize("source", ALL)
def test_401_is_a_source_error(source, session, mocked):
    mocked.get(url_of(source), status=401, json={"error": "invalid api key"})
    # google-auth answers a 401 by refreshing the credentials, which anonymous ones refuse
    with pytest.raises(SourceError, match="refused the credentials" if source == "vertex-catalog" else "401"):
        load(source).fetch(session, load(source).BASE_URL, KEY)


@pytest.mark.parametrize("source", ALL)
def test_429_then_success_is_retried(source, session, mocked):
    mocked.get(url_of(source), status=429, headers={"Retry-After": "1"}, json={"error": "rate limited"})
    mocked.get(url_of(source), json=paged_ok(source))
    pages = load(source).fetch(session, load(source).BASE_URL, KEY)
    assert [p.body for p in pages] == [paged_ok(source)]
    assert [c.response.status_code for c in mocked.calls] == [429, 200]


@pytest.mark.parametrize("source", ALL)
def test_persistent_5xx_gives_up_after_retries(source, session, mocked):
    mocked.get(url_of(source), status=503, body="upstream unavailable")
    with pytest.raises(SourceError, match="HTTP 503"):
        load(source).fetch(session, load(source).BASE_URL, KEY)
    assert len(mocked.calls) == 4   # the first try and three retries


@pytest.mark.parametrize("source", ALL)
def test_timeout_is_a_source_error(source, session, mocked):
    mocked.get(url_of(source), body=requests.exceptions.ConnectTimeout("connect timed out"))
    with pytest.raises(SourceError, match="no answer within 5 s"):
        load(source).fetch(session, load(source).BASE_URL, KEY)


@pytest.mark.parametrize("source", ALL)
def test_malformed_json_is_a_source_error(source, session, mocked):
    mocked.get(url_of(source), body="<html>502 Bad Gateway</html>", status=200, content_type="text/html")
    with pytest.raises(SourceError, match="malformed JSON"):
        load(source).fetch(session, load(source).BASE_URL, KEY)


# ---------------------------------------------------------------- drifted shapes, for every source

ITEMS_KEY = {"vendor-a-api": "data", "vendor-b-api": "data", "vendor-c-api": "models", "vendor-d-api": "data",
             "vendor-e-api": "models", "vendor-f-api": "models", "deprecation-feed": None, "model-hub": None,
             "openrouter-catalog": "data", "vertex-catalog": "publisherModels"}
ID_KEY = {"vendor-a-api": "id", "vendor-b-api": "id", "vendor-c-api": "name", "vendor-d-api": "id",
          "vendor-e-api": "name", "vendor-f-api": "id", "deprecation-feed": "model_id", "model-hub": "id",
          "openrouter-catalog": "id", "vertex-catalog": "name"}


def drifts(source):
    """(label, body, message pattern) of drifted bodies of a source."""
    good, key = ONE_PAGE[source], ITEMS_KEY[source]
    items = good[key] if key else good
    no_id = copy.deepcopy(items[0])
    no_id.pop(ID_KEY[source])
    cases = [("item without id", {**good, key: [no_id]} if key else [no_id],
              "model_id|model_name" if source == "deprecation-feed" else ID_KEY[source]),
             ("item not an object", {**good, key: ["gpt-4o"]} if key else ["gpt-4o"], "expected an object"),
             ("id of the wrong type", {**good, key: [{**items[0], ID_KEY[source]: 42}]} if key
              else [{**items[0], ID_KEY[source]: 42}], ID_KEY[source])]
    if key:
        cases += [("list instead of object", [items[0]], "expected a JSON object"),
                  ("items key missing", {"object": "list", "items": items}, f"no '{key}'"),
                  ("items not a list", {**good, key: {"0": items[0]}}, "expected a list")]
    else:
        cases += [("object instead of list", {"data": items}, "expected a list")]
    return cases


# The public catalogs are objects (of catalogs, of rows): their own cases in test_public_catalog.py, test_price_map.py
LISTS = [s for s in ALL if s not in ("public-catalog", "price-map")]


@pytest.mark.parametrize("source,label,body,pattern",
                         [(s, *case) for s in LISTS for case in drifts(s)],
                         ids=[f"{s}-{case[0]}" for s in LISTS for case in drifts(s)])
def test_drifted_shapes_raise_source_error(source, label, body, pattern):
    with pytest.raises(SourceError, match=pattern) as info:
        load(source).parse([Page(body)])
    assert source in str(info.value)


@pytest.mark.parametrize("source,field,value", [
    ("vendor-b-api", "max_input_tokens", "lots"), ("vendor-b-api", "created_at", "last tuesday"),
    ("vendor-c-api", "inputTokenLimit", 1.5), ("vendor-e-api", "is_deprecated", "no"),
    ("vendor-e-api", "context_length", 128000.5), ("vendor-a-api", "created", "yesterday"),
    ("vendor-f-api", "aliases", "grok-3-latest"), ("deprecation-feed", "shutdown_date", "soon"),
    ("model-hub", "tags", "llama"),
])
def test_drifted_field_types_raise_source_error(source, field, value):
    body = copy.deepcopy(ONE_PAGE[source])
    items = body[ITEMS_KEY[source]] if ITEMS_KEY[source] else body
    items[0][field] = value
    with pytest.raises(SourceError, match=field):
        load(source).parse([Page(body)])


# ---------------------------------------------------------------- quirks, one source at a time

def test_openai_created_is_metadata_and_shutdown_is_sunset():
    body = sample("openai-models.json")
    body["data"].append({"id": "ft:gpt-4o-mini-2024-07-18:acme::abc", "object": "model", "created": 1,
                         "owned_by": "org-123"})
    records = by_id(load("vendor-a-api").parse([Page(body)]))
    check_records(list(records.values()), "vendor-a-api")
    assert "ft:gpt-4o-mini-2024-07-18:acme::abc" not in records
    gpt4o = records["gpt-4o"].fields
    assert "release_date" not in gpt4o and gpt4o["created"] == "2024-05-10T18:50:49Z"
    assert "sunset_date" not in gpt4o          # shutdown_date null: not announced
    assert records["o3-mini"].fields["sunset_date"] == "2026-10-23"
    assert "deprecated" not in records["o3-mini"].fields   # status comes from the dates
    assert records["whisper-1"].fields["owned_by"] == "openai-internal"


def test_anthropic_fields_lifecycle_and_epoch():
    data = sample("anthropic-models.json")["data"]
    unknown = {**data[0], "id": "claude-mystery", "created_at": "1970-01-01T00:00:00Z"}
    retired = {**data[4], "id": "claude-3-haiku-20240307", "lifecycle": "retired",
               "retires_at": "2026-04-20T00:00:00Z"}
    old_sdk = {"type": "model", "id": "claude-3-5-haiku-20241022", "display_name": "Claude Haiku 3.5",
               "created_at": "2024-10-22T00:00:00Z"}
    records = by_id(load("vendor-b-api").parse([Page(anthropic_page(data + [unknown, retired, old_sdk], False))]))
    check_records(list(records.values()), "vendor-b-api")
    opus = records["claude-opus-4-6"].fields
    assert opus["display_name"] == "Claude Opus 4.6" and opus["release_date"] == "2026-02-05"
    assert opus["input_context_window"] == 1000000 and opus["output_context_window"] == 128000
    assert opus["capabilities"]["thinking"]["types"]["adaptive"]["supported"] is True
    assert "deprecated" not in opus and "deprecation_date" not in opus and "sunset_date" not in opus
    opus41 = records["claude-opus-4-1-20250805"].fields
    assert opus41["deprecated"] is True and opus41["deprecation_date"] == "2026-06-05"
    assert opus41["sunset_date"] == "2026-08-05"
    assert "release_date" not in records["claude-mystery"].fields
    assert records["claude-3-haiku-20240307"].fields["retired"] is True
    assert records["claude-3-haiku-20240307"].fields["sunset_date"] == "2026-04-20"
    assert records["claude-3-5-haiku-20241022"].fields == {"display_name": "Claude Haiku 3.5",
                                                           "release_date": "2024-10-22"}


def test_gemini_ids_names_limits():
    records = by_id(load("vendor-c-api").parse([Page(sample("gemini-models.json"))]))
    check_records(list(records.values()), "vendor-c-api")
    assert "gemini-2.5-flash" in records and not any(k.startswith("models/") for k in records)
    flash = records["gemini-2.5-flash"].fields
    assert (flash["display_name"], flash["version"]) == ("Gemini 2.5 Flash", "001")
    assert (flash["input_context_window"], flash["output_context_window"]) == (1048576, 65536)
    assert flash["thinking"] is True and "thinking" not in records["gemini-2.0-flash"].fields


def test_mistral_alias_cards_folded_and_fine_tunes_skipped():
    records = by_id(load("vendor-d-api").parse([Page(sample("mistral-models.json"))]))
    check_records(list(records.values()), "vendor-d-api")
    assert sorted(records) == ["codestral-2501", "codestral-2508", "mistral-embed", "mistral-small-2603"]
    codestral = records["codestral-2508"]
    assert [a for a, _ in codestral.aliases] == ["codestral-2508", "codestral-latest", "mistral-code-latest",
                                                 "mistral-code-fim-latest"]
    assert {s for _, s in codestral.aliases} == {"official"}
    assert codestral.fields["input_context_window"] == 256000
    assert "release_date" not in codestral.fields and "created" not in codestral.fields
    assert "display_name" not in codestral.fields        # `name` is just the id
    small = records["mistral-small-2603"]
    assert ("mistral-small-latest", "official") in small.aliases and small.fields["capabilities"]["vision"] is True
    old = records["codestral-2501"].fields
    assert old["sunset_date"] == "2026-01-31" and "deprecation_date" not in old   # the retirement day
    assert old["successor"] == "codestral-2508"          # codestral-latest resolved to its dated card
    assert "deprecated" not in old
    assert ("mistral-embed-2312", "official") in records["mistral-embed"].aliases


def test_mistral_canonical_card_is_the_dated_one_whatever_the_order():
    cards = sample("mistral-models.json")["data"][:2]
    for order in (cards, cards[::-1]):
        assert [r.model_id for r in load("vendor-d-api").parse([Page({"data": order})])] == ["codestral-2508"]
    floating = [{"id": "mistral-large-latest", "aliases": ["mistral-large-2512"], "name": "Mistral Large 3"},
                {"id": "mistral-large-2512", "aliases": ["mistral-large-latest"], "name": "Mistral Large 3"}]
    (record,) = load("vendor-d-api").parse([Page({"data": floating})])
    assert record.model_id == "mistral-large-2512" and record.fields["display_name"] == "Mistral Large 3"


def test_cohere_deprecation_and_context():
    body = sample("cohere-models.json")
    body["models"].append({"name": "my-finetune", "finetuned": True, "context_length": 4096})
    body["models"][0]["context_length"] = 256000.0
    records = by_id(load("vendor-e-api").parse([Page(body)]))
    check_records(list(records.values()), "vendor-e-api")
    assert "my-finetune" not in records
    assert records["command-r-03-2024"].fields["deprecated"] is True
    assert records["command-a-03-2025"].fields["deprecated"] is False
    assert "deprecated" not in records["command-r-plus"].fields    # not stated by that capture
    assert records["command-a-03-2025"].fields["input_context_window"] == 256000
    assert type(records["command-a-03-2025"].fields["input_context_window"]) is int
    assert records["command-a-03-2025"].fields["features"] == ["json_mode", "json_schema", "tools", "strict_tools"]


def test_xai_aliases_version_created():
    records = by_id(load("vendor-f-api").parse([Page(sample("xai-language-models.json"))]))
    check_records(list(records.values()), "vendor-f-api")
    grok3 = records["grok-3"]
    assert grok3.aliases == [("grok-3", "official"), ("grok-3-latest", "official"), ("grok-3-beta", "official")]
    assert grok3.fields["version"] == "1.0" and grok3.fields["created"] == "2025-04-04T00:00:00Z"
    assert "release_date" not in grok3.fields
    assert records["grok-2-vision-1212"].aliases == [("grok-2-vision-1212", "official")]


def test_feed_new_generation_sample():
    records = load("deprecation-feed").parse([Page(sample("deprecation-feed.json"))])
    check_records(records, "deprecation-feed")
    got = {(r.provider, r.model_id): r.fields for r in records if not r.skip and r.provider}
    assert ("groq", "llama-3.1-8b-instant") not in got and all(p for p, _ in got)   # platform row: nothing
    assert ("llama-3.1-8b-instant", "platform row: Groq") in {(r.model_id, r.skip) for r in records}
    o3 = got[("openai", "o3-mini")]
    assert (o3["deprecation_date"], o3["sunset_date"], o3["successor"]) == ("2026-04-22", "2026-10-23", "gpt-5.6-sol")
    assert "sunset_date" not in got[("cohere", "command-r-03-2024")]           # "" means unknown
    assert got[("cohere", "command-r-03-2024")]["replacement_models"][0] == "command-r-08-2024"
    assert "successor" not in got[("google", "gemini-1.5-pro")]                 # replacement_models: null
    assert got[("xai", "grok-code-fast-1")]["successor"] == "grok-4.3"
    assert all(r.aliases == [] for r in records)   # feed ids (sometimes family names) never become aliases


def test_feed_old_generation_duplicates_and_platforms():
    rows = [
        {"provider": "Anthropic", "model_name": "claude-3-opus-20240229", "announcement_date": "2025-06-30",
         "shutdown_date": "2026-01-05", "replacement_model": "claude-opus-4-1-20250805"},
        {"provider": "OpenAI", "model_name": "gpt-4-vision-preview", "announcement_date": "",
         "shutdown_date": "", "replacement_model": ""},
        {"provider": "OpenAI", "model_id": "o3-mini", "announcement_date": "2026-05-01", "deprecation_date": "",
         "shutdown_date": "2026-10-23", "replacement_models": [], "last_observed": "2026-05-01"},
        {"provider": "OpenAI", "model_id": "o3-mini", "announcement_date": "2026-05-01",
         "deprecation_date": "2026-04-22", "shutdown_date": "", "replacement_models": ["gpt-5.6-sol"],
         "last_observed": "2026-07-23"},
        {"provider": "Google Gemini", "model_id": "gemini-2.0-flash-001", "deprecation_date": "2026-06-01",
         "shutdown_date": "2026-06-01", "replacement_models": None},
        {"provider": "Azure", "model_id": "o3-mini", "deprecation_date": "2026-06-01", "shutdown_date": "2026-06-02"},
        {"provider": "AWS Bedrock", "model_id": "anthropic.claude-3-opus-20240229-v1:0", "shutdown_date": "2026-01-15"},
        {"provider": "Google Vertex", "model_id": "gemini-2.0-flash-001", "shutdown_date": "2026-09-15"},
        {"provider": "Groq", "model_id": "llama-3.1-8b-instant", "shutdown_date": "2026-08-16"},
    ]
    records = load("deprecation-feed").parse([Page(rows)])
    check_records(records, "deprecation-feed")
    got = {(r.provider, r.model_id): r.fields for r in records if not r.skip and r.provider}
    # every row is accounted for: four models, one merged duplicate, two rows of platforms whose ids
    # the registry does not keep, and two clouds' own schedules for their ids
    assert sorted(r.skip for r in records if r.skip) == [
        "duplicate row, merged into the other", "platform row: Azure", "platform row: Groq"]
    clouds = {r.model_id: r.fields["platforms"] for r in records if not r.skip and not r.provider}
    assert clouds == {"anthropic.claude-3-opus-20240229-v1:0": {"cloud-a": {"sunset_date": "2026-01-15"}},
                      "gemini-2.0-flash-001": {"cloud-b": {"sunset_date": "2026-09-15"}}}
    assert sorted(got) == [("anthropic", "claude-3-opus-20240229"), ("google", "gemini-2.0-flash-001"),
                           ("openai", "gpt-4-vision-preview"), ("openai", "o3-mini")]
    assert got[("anthropic", "claude-3-opus-20240229")] == {
        "deprecation_date": "2025-06-30", "sunset_date": "2026-01-05",
        "successor": "claude-opus-4-1-20250805", "replacement_models": ["claude-opus-4-1-20250805"]}
    assert got[("openai", "gpt-4-vision-preview")] == {}
    # the newer duplicate wins; the older one fills the shutdown date the newer left empty
    assert got[("openai", "o3-mini")] == {"deprecation_date": "2026-04-22", "sunset_date": "2026-10-23",
                                          "successor": "gpt-5.6-sol", "replacement_models": ["gpt-5.6-sol"]}
    assert got[("google", "gemini-2.0-flash-001")]["sunset_date"] == "2026-06-01"   # Vertex's date ignored
    # row order does not change the result
    again = {(r.provider, r.model_id): r.fields for r in load("deprecation-feed").parse([Page(rows[::-1])])
             if not r.skip and r.provider}
    assert again == got


def hub_item(repo, **extra):
    return {"_id": "0" * 24, "id": repo, "pipeline_tag": "text-generation", "createdAt": "2025-01-20T03:46:07.000Z",
            "tags": ["transformers", "safetensors", "conversational"], **extra}


def test_hub_sample_fields():
    records = by_id(hub.parse([Page(sample("hf-models-meta-llama.json"))]))
    check_records(list(records.values()), "model-hub")
    r = records["Llama-3.1-8B-Instruct"]
    # the repo name, and the repo id as the hub writes it (docs/lifecycle.md#platforms)
    assert r.provider == "meta" and r.aliases == [("Llama-3.1-8B-Instruct", "official"),
                                                  ("meta-llama/Llama-3.1-8B-Instruct", "official")]
    assert r.fields["hub_id"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert r.fields["canonical_url"] == "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct"
    assert (r.fields["parameter_count"], r.fields["parameter_label"]) == (8030261248, "8B")
    assert r.fields["release_date"] == "2024-07-18" and r.fields["pipeline_tag"] == "text-generation"
    assert "license:llama3.1" in r.fields["tags"] and r.fields["model_type"] == "chat"
    assert records["Llama-3.3-70B-Instruct"].fields["parameter_label"] == "70B"


def test_hub_filters_noise_and_maps_orgs():
    items = [
        hub_item("deepseek-ai/DeepSeek-R1"),
        hub_item("Qwen/Qwen2.5-7B-Instruct-GGUF"), hub_item("Qwen/Qwen3-8B-AWQ"),
        hub_item("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"), hub_item("meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"),
        hub_item("google/gemma-3-27b-it-qat", tags=["gguf"]),
        hub_item("mistralai/Ministral-8B-Instruct-2410-q", tags=["base_model:quantized:mistralai/Ministral-8B"]),
        hub_item("meta-llama/Llama-secret-8B", private=True), hub_item("google/taken-down-2b", disabled=True),
        hub_item("google/t5-v1_1-xxl", pipeline_tag="text2text-generation"),
        hub_item("meta-llama/Llama-3.1-8B-evals"), {"id": "meta-llama/no-task"},
        hub_item("Qwen/Qwen3-Embedding-8B", pipeline_tag="feature-extraction", tags=[]),
        hub_item("openai/whisper-large-v3", pipeline_tag="automatic-speech-recognition"),
        hub_item("CohereLabs/c4ai-command-a-03-2025"), hub_item("mistralai/Mistral-7B-Instruct-v0.3"),
        hub_item("microsoft/phi-4"),
    ]
    items[10]["pipeline_tag"] = None
    records = hub.parse([Page(items)])
    got = {r.model_id: r for r in records}
    assert sorted(got) == ["DeepSeek-R1", "Mistral-7B-Instruct-v0.3", "Qwen3-Embedding-8B", "command-a-03-2025",
                           "phi-4", "whisper-large-v3"]
    assert {r.model_id: r.provider for r in records} == {
        "DeepSeek-R1": "deepseek", "Mistral-7B-Instruct-v0.3": "mistral", "Qwen3-Embedding-8B": "qwen",
        "command-a-03-2025": "cohere", "phi-4": "microsoft", "whisper-large-v3": "openai"}
    assert got["command-a-03-2025"].aliases == [("command-a-03-2025", "official"),
                                                ("c4ai-command-a-03-2025", "official"),
                                                ("CohereLabs/c4ai-command-a-03-2025", "official")]
    assert got["command-a-03-2025"].fields["hub_id"] == "CohereLabs/c4ai-command-a-03-2025"
    assert got["Qwen3-Embedding-8B"].fields["model_type"] == "embedding"
    assert got["whisper-large-v3"].fields["model_type"] == "speech_to_text"


def test_hub_created_at_sentinel_is_not_a_release_date():
    (r,) = hub.parse([Page([hub_item("google/reformer-enwik8", createdAt="2022-03-02T23:29:04.000Z")])])
    assert "release_date" not in r.fields


@pytest.mark.parametrize("name,expected", [
    ("Llama-3.1-8B-Instruct", (8_000_000_000, "8B")), ("Llama-3.3-70B-Instruct", (70_000_000_000, "70B")),
    ("Mixtral-8x7B-Instruct-v0.1", (56_000_000_000, "8x7B")), ("Mixtral-8x22B-v0.1", (176_000_000_000, "8x22B")),
    ("Qwen2.5-1.5B-Instruct", (1_500_000_000, "1.5B")), ("SmolLM2-500M", (500_000_000, "500M")),
    ("embeddinggemma-300m", (300_000_000, "300M")), ("gpt-oss-20b", (20_000_000_000, "20B")),
    ("Qwen3-235B-A22B-Instruct-2507", (235_000_000_000, "235B")), ("gemma-4-26b-a4b-it", (26_000_000_000, "26B")),
    ("Llama-4-Scout-17B-16E-Instruct", None), ("DeepSeek-V3.1", None), ("gemma-3n-E4B-it", None),
    ("whisper-large-v3", None),
])
def test_hub_sizes_from_names(name, expected):
    assert hub.size_from_name(name) == expected


def test_hub_parameter_count_prefers_safetensors():
    items = [hub_item("mistralai/Mixtral-8x7B-Instruct-v0.1",
                      safetensors={"parameters": {"BF16": 46702792704}, "total": 46702792704}),
             hub_item("mistralai/Mixtral-8x22B-Instruct-v0.1"),
             hub_item("meta-llama/Llama-4-Scout-17B-16E-Instruct",
                      safetensors={"parameters": {"BF16": 108641793536}, "total": 108641793536}),
             hub_item("meta-llama/Llama-4-Maverick-17B-128E-Instruct"),
             hub_item("Qwen/Qwen2.5-0.5B", safetensors={"parameters": {"BF16": 494032768}, "total": 494032768}),
             hub_item("deepseek-ai/DeepSeek-V3", safetensors={"parameters": {"F8_E4M3": 1}, "total": 684531386000})]
    got = {r.model_id: (r.fields.get("parameter_count"), r.fields.get("parameter_label"))
           for r in hub.parse([Page(items)])}
    assert got == {"Mixtral-8x7B-Instruct-v0.1": (46702792704, "8x7B"),
                   "Mixtral-8x22B-Instruct-v0.1": (176_000_000_000, "8x22B"),
                   "Llama-4-Scout-17B-16E-Instruct": (108641793536, "109B"),
                   "Llama-4-Maverick-17B-128E-Instruct": (None, None),
                   "Qwen2.5-0.5B": (494032768, "0.5B"),
                   "DeepSeek-V3": (684531386000, "685B")}


def test_hub_malformed_id_and_safetensors():
    with pytest.raises(SourceError, match="org/name"):
        hub.parse([Page([hub_item("no-org-here")])])
    with pytest.raises(SourceError, match="safetensors"):
        hub.parse([Page([hub_item("Qwen/Qwen2.5-7B", safetensors=[1, 2])])])


# ---------------------------------------------------------------- seeds and snapshots

@pytest.mark.parametrize("source", ALL)
def test_every_seed_snapshot_parses(source):
    pages = load_pages(SEEDS, source)
    records = load(source).parse(pages)
    check_records(records, source)
    stating = [r for r in records if not r.skip]
    assert len({(r.provider, r.platform, r.model_id) for r in stating}) == len(stating)


def test_seeds_exercise_pagination_and_quirks():
    counts = {s: len(load_pages(SEEDS, s)) for s in ALL}
    assert counts["vendor-b-api"] >= 2 and counts["vendor-c-api"] >= 2 and counts["vendor-e-api"] >= 2
    assert counts["model-hub"] >= 2 and "rel=\"next\"" in load_pages(SEEDS, "model-hub")[0].headers["Link"]
    feed = load_pages(SEEDS, "deprecation-feed")[0].body
    # The whole feed as published: every record is new-generation (old `model_name` rows are
    # covered by the adapter tests above).
    assert len(feed) == 415 and all("replacement_models" in r for r in feed)
    assert not any("deprecation_context" in r for r in feed), "the seed keeps facts, not prose"
    assert {"Azure", "AWS Bedrock", "Google Vertex", "Groq"} <= {r["provider"] for r in feed}
    truth = {json.loads(line)["canonical"] for line in
             (Path(__file__).parent / "data" / "models_truth.jsonl").read_text().splitlines() if line.strip()}
    vendor_ids = {r.model_id for s in ALL if s.startswith("vendor-") for r in load(s).parse(load_pages(SEEDS, s))}
    assert len(vendor_ids & truth) >= 40 and "gpt-5.6-sol" in vendor_ids - truth


def test_snapshot_round_trip_and_stale_pages(tmp_path):
    pages = [Page({"data": [1]}, {"Link": '<https://x/?cursor=2>; rel="next"'}), Page({"data": [2]}), Page([3])]
    save_pages(tmp_path, "model-hub", pages)
    assert load_pages(tmp_path, "model-hub") == pages
    save_pages(tmp_path, "model-hub", [Page(["only"])])   # a shorter snapshot removes the old pages
    assert sorted(p.name for p in (tmp_path / "model-hub").iterdir()) == ["page-001.json"]
    assert load_pages(tmp_path, "model-hub") == [Page(["only"])]
    with pytest.raises(SourceError, match="empty snapshot"):
        save_pages(tmp_path, "model-hub", [])


@pytest.mark.parametrize("files,pattern", [
    ({}, "does not exist"),
    ({"README.md": "hi"}, "no page-001.json"),
    ({"page-001.json": "{not json"}, "cannot read JSON"),
    ({"page-001.json": "[]", "page-003.json": "[]"}, "not numbered"),
    ({"page-001.json": "[]", "page-001.headers.json": "[\"Link\"]"}, "header strings"),
])
def test_load_pages_errors(tmp_path, files, pattern):
    if files:
        (tmp_path / "vendor-a-api").mkdir()
    for name, text in files.items():
        (tmp_path / "vendor-a-api" / name).write_text(text)
    with pytest.raises(SourceError, match=pattern):
        load_pages(tmp_path, "vendor-a-api")


@pytest.mark.parametrize("name, aliases, expected", [
    # a Vertex notice names the publisher model; its one version's model is meant
    ("claude-3-haiku", [("claude-3-haiku@20240307", "haiku-3")], "haiku-3"),
    ("CLAUDE-3-HAIKU", [("claude-3-haiku@20240307", "haiku-3")], "haiku-3"),
    # versions of two models: the name means neither
    ("text-bison", [("text-bison@001", "bison-1"), ("text-bison@002", "bison-2")], None),
    # a prefix of a publisher model is not that model
    ("claude-3", [("claude-3-haiku@20240307", "haiku-3")], None),
])
def test_vertex_publisher_model_names(name, aliases, expected):
    import sqlite3

    from registry.db import schema_sql
    from registry.ingest.matcher import Matcher
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema_sql())
    conn.execute("INSERT INTO providers (id, slug, name, created_at, updated_at) VALUES (1, 'anthropic', 'A', '', '')")
    conn.execute("INSERT INTO families (id, provider_id, slug, name, is_open_source, created_at, updated_at)"
                 " VALUES (1, 1, 'claude', 'Claude', 0, '', '')")
    for i, (alias, slug) in enumerate(aliases, 1):
        conn.execute("INSERT INTO models (id, slug, family_id, display_name, created_at, updated_at)"
                     " VALUES (?, ?, 1, ?, '', '')", (i, slug, slug))
        conn.execute("INSERT INTO aliases (alias, model_id, source, normalized) VALUES (?, ?, 'cloud-b', '')",
                     (alias, i))
    assert Matcher(conn).find(name) is None   # never for a provider's own rows
    assert Matcher(conn).find_vertex(name) == expected

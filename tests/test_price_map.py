"""The price map (LiteLLM's model cost map, registry/ingest/sources/litellm.py, docs/data-flow.md#the-price-map):
each row's price on its own platform with its batch, flex and priority services, landing only on the model that
holds the row's id on that platform, after models.dev; each mode whole from its best source, with that source."""
import json

import pytest

from helpers import DATA, build_db
from registry import create_app, pricing
from registry.db import connect_rw
from registry.ingest.records import Page, SourceError
from registry.ingest.runner import run_source
from registry.ingest.sources import litellm
from registry.merge.priority import entries_by_key
from registry.web.connection import close_thread_connections

SONNET = "claude-sonnet-4-5-20250929"
# Real rows of the map in PyPI litellm 1.109.1 (seeds/price-map/), their price keys as written
GPT_4O = {"cache_read_input_token_cost": 1.25e-06, "cache_read_input_token_cost_priority": 2.125e-06,
          "input_cost_per_token": 2.5e-06, "input_cost_per_token_batches": 1.25e-06,
          "input_cost_per_token_priority": 4.25e-06, "litellm_provider": "openai", "mode": "chat",
          "output_cost_per_token": 1e-05, "output_cost_per_token_batches": 5e-06,
          "output_cost_per_token_priority": 1.7e-05, "source": "https://developers.openai.com/api/docs/pricing"}
SONNET_ROW = {"cache_creation_input_token_cost": 3.75e-06, "cache_creation_input_token_cost_above_1hr": 6e-06,
              "cache_read_input_token_cost": 3e-07, "input_cost_per_token": 3e-06,
              "cache_creation_input_token_cost_batches": 1.875e-06, "cache_read_input_token_cost_batches": 1.5e-07,
              "input_cost_per_token_batches": 1.5e-06, "litellm_provider": "anthropic", "mode": "chat",
              "output_cost_per_token": 1.5e-05, "output_cost_per_token_batches": 7.5e-06,
              "search_context_cost_per_query": {"search_context_size_high": 0.01}}
GEMINI_PRO = {"cache_read_input_token_cost": 1.25e-07, "cache_read_input_token_cost_above_200k_tokens": 2.5e-07,
              "cache_read_input_token_cost_flex": 1.25e-07, "input_cost_per_token": 1.25e-06,
              "input_cost_per_token_above_200k_tokens": 2.5e-06, "input_cost_per_token_priority": 2.25e-06,
              "input_cost_per_token_above_200k_tokens_priority": 4.5e-06, "litellm_provider": "gemini",
              "mode": "chat", "output_cost_per_token": 1e-05, "output_cost_per_token_above_200k_tokens": 1.5e-05,
              "output_cost_per_token_priority": 1.8e-05, "input_cost_per_token_batches": 6.25e-07,
              "output_cost_per_token_batches": 5e-06}
BEDROCK_SONNET = {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05, "litellm_provider":
                  "bedrock_converse", "mode": "chat", "input_cost_per_token_batches": 1.5e-06,
                  "output_cost_per_token_batches": 7.5e-06}


def records(body: dict) -> list:
    return litellm.parse([Page(body)])


def one(key: str, row: dict):
    (record,) = [r for r in records({key: row}) if not r.skip]
    return record


@pytest.mark.parametrize("key, row, provider, platform, model_id", [
    ("gpt-4o", GPT_4O, "openai", "official", "gpt-4o"),
    (SONNET, SONNET_ROW, "anthropic", "official", SONNET),
    ("gemini/gemini-2.5-pro", GEMINI_PRO, "google", "official", "gemini-2.5-pro"),
    ("anthropic.claude-sonnet-4-5-20250929-v1:0", BEDROCK_SONNET, None, "cloud-a",
     "anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("bedrock/moonshotai.kimi-k2.5", {**BEDROCK_SONNET, "litellm_provider": "bedrock"}, None, "cloud-a",
     "moonshotai.kimi-k2.5"),
    ("vertex_ai/claude-sonnet-4-5@20250929", {**SONNET_ROW, "litellm_provider": "vertex_ai-anthropic_models"}, None,
     "cloud-b", "claude-sonnet-4-5@20250929"),
    # Vertex AI's partner ids name their publisher, as the platform writes them
    ("vertex_ai/meta/llama-3.3-70b-instruct-maas", {**GPT_4O, "litellm_provider": "vertex_ai-llama_models"}, None,
     "cloud-b", "meta/llama-3.3-70b-instruct-maas"),
])
def test_a_rows_key_is_its_platforms_id_without_the_route(key, row, provider, platform, model_id):
    record = one(key, row)
    assert (record.model_id, record.provider, record.platform, record.aliases) == (model_id, provider, platform, [])
    assert set(record.fields) == {"prices"} and set(record.fields["prices"]) == {platform}


@pytest.mark.parametrize("key, row, skip", [
    ("bedrock/us-east-1/anthropic.claude-3-5-sonnet-20240620-v1:0", {**BEDROCK_SONNET, "litellm_provider": "bedrock"},
     "a route's variant"),
    ("bedrock/ap-northeast-1/1-month-commitment/anthropic.claude-v2:1", {**BEDROCK_SONNET,
                                                                        "litellm_provider": "bedrock"},
     "a route's variant"),
    ("low/1024-x-1024/gpt-image-1", {**GPT_4O, "mode": "image_generation"}, "a route's variant"),
    ("ft:gpt-4o-2024-08-06", GPT_4O, "a route's variant"),
    ("azure/gpt-4o", {**GPT_4O, "litellm_provider": "azure"}, "does not read"),
    ("openrouter/openai/gpt-4o", {**GPT_4O, "litellm_provider": "openrouter"}, "does not read"),
    ("sample_spec", {"litellm_provider": "one of https://docs.litellm.ai/docs/providers", "input_cost_per_token": 0.0},
     "does not read"),
    ("text-embedding-3-small", {"litellm_provider": "openai", "mode": "embedding"}, "states no price"),
])
def test_rows_the_registry_does_not_read_are_counted_with_why(key, row, skip):
    (record,) = records({key: row})
    assert skip in record.skip and record.fields == {}


def test_an_id_the_map_lists_twice_is_read_as_the_platform_writes_it():
    read = records({"bedrock/moonshotai.kimi-k2.5": {**BEDROCK_SONNET, "litellm_provider": "bedrock",
                                                     "input_cost_per_token": 9e-06},
                    "moonshotai.kimi-k2.5": {**BEDROCK_SONNET, "litellm_provider": "bedrock"}})
    (kept,) = [r for r in read if not r.skip]
    assert kept.fields["prices"]["cloud-a"]["input_per_mtok"] == 3.0
    assert [r.skip for r in read if r.skip] == ["an id another row of its platform prices"]


@pytest.mark.parametrize("key, row, price", [
    ("gpt-4o", GPT_4O, {"input_per_mtok": 2.5, "output_per_mtok": 10.0, "cached_input_read_per_mtok": 1.25,
                        "currency": "USD",
                        "modes": {"batch": {"input_per_mtok": 1.25, "output_per_mtok": 5.0},
                                  "priority": {"input_per_mtok": 4.25, "output_per_mtok": 17.0,
                                               "cached_input_read_per_mtok": 2.125}}}),
    (SONNET, SONNET_ROW, {"input_per_mtok": 3.0, "output_per_mtok": 15.0, "cached_input_read_per_mtok": 0.3,
                          "cached_input_write_per_mtok": 3.75, "currency": "USD",
                          "modes": {"batch": {"input_per_mtok": 1.5, "output_per_mtok": 7.5,
                                              "cached_input_read_per_mtok": 0.15,
                                              "cached_input_write_per_mtok": 1.875}}}),
    # long-prompt tiers; a service priced only for cached reads (flex here) says nothing of a call's cost: left out
    ("gemini/gemini-2.5-pro", GEMINI_PRO, {
        "input_per_mtok": 1.25, "output_per_mtok": 10.0, "cached_input_read_per_mtok": 0.125, "currency": "USD",
        "tiers": [{"above_input_tokens": 200000, "input_per_mtok": 2.5, "output_per_mtok": 15.0,
                   "cached_input_read_per_mtok": 0.25}],
        "modes": {"batch": {"input_per_mtok": 0.625, "output_per_mtok": 5.0},
                  "priority": {"input_per_mtok": 2.25, "output_per_mtok": 18.0}}}),
    ("gpt-image-1.5", {"litellm_provider": "openai", "mode": "image_generation", "output_cost_per_image": 0.04},
     {"per_image": 0.04, "currency": "USD"}),
])
def test_what_a_rows_prices_say(key, row, price):
    record = one(key, row)
    assert record.fields["prices"][record.platform] == price
    assert pricing.problem(price) is None


@pytest.mark.parametrize("body, pattern", [
    ([GPT_4O], "expected a JSON object of rows"),
    ({"gpt-4o": "cheap"}, "expected an object"),
])
def test_a_drifted_map_is_a_source_error(body, pattern):
    with pytest.raises(SourceError, match=pattern) as info:
        litellm.parse([Page(body)])
    assert "price-map" in str(info.value)


# ---------------------------------------------------------------- the merge

@pytest.mark.parametrize("by_source, served", [
    # the best source's entry, whole; the map's batch beside it, with its own source and day
    ({"public-catalog": {"official": {"input_per_mtok": 3.0, "currency": "USD", "effective_from": "2026-12-01",
                                      "modes": {"fast": {"input_per_mtok": 6.0}}}},
      "price-map": {"official": {"input_per_mtok": 2.9, "currency": "USD", "effective_from": "2026-12-03",
                                 "modes": {"batch": {"input_per_mtok": 1.5}, "fast": {"input_per_mtok": 9.0}}}}},
     {"input_per_mtok": 3.0, "currency": "USD", "effective_from": "2026-12-03", "source": "public-catalog",
      "modes": {"batch": {"input_per_mtok": 1.5, "source": "price-map"},
                "fast": {"input_per_mtok": 6.0, "source": "public-catalog"}}}),
    # a mode in another currency is no mode of this price
    ({"curation": {"official": {"input_per_mtok": 3.0, "currency": "EUR", "effective_from": "2026-12-01"}},
      "price-map": {"official": {"input_per_mtok": 2.9, "currency": "USD", "effective_from": "2026-12-03",
                                 "modes": {"batch": {"input_per_mtok": 1.5}}}}},
     {"input_per_mtok": 3.0, "currency": "EUR", "effective_from": "2026-12-01", "source": "curation"}),
    # the map alone: its own entry, whole
    ({"price-map": {"official": {"input_per_mtok": 2.9, "currency": "USD", "effective_from": "2026-12-03",
                                 "modes": {"batch": {"input_per_mtok": 1.5}}}}},
     {"input_per_mtok": 2.9, "currency": "USD", "effective_from": "2026-12-03", "source": "price-map",
      "modes": {"batch": {"input_per_mtok": 1.5, "source": "price-map"}}}),
])
def test_each_mode_is_whole_from_its_best_source(by_source, served):
    assert entries_by_key("prices", by_source) == {"official": served}


def test_a_mode_from_another_source_with_the_same_prices_is_the_same_price():
    old = {"input_per_mtok": 3.0, "currency": "USD", "modes": {"batch": {"input_per_mtok": 1.5}}}
    assert pricing.same(old, {**old, "modes": {"batch": {"input_per_mtok": 1.5, "source": "price-map"}}})
    assert not pricing.same(old, {**old, "modes": {"batch": {"input_per_mtok": 1.4, "source": "price-map"}}})


# ---------------------------------------------------------------- in the registry

# models.dev's price of Sonnet 4.5 on Anthropic's API, with no batch service (tests/test_public_catalog.py's row)
MODELS_DEV = {"anthropic": {"id": "anthropic", "env": ["ANTHROPIC_API_KEY"], "npm": "@ai-sdk/anthropic",
                            "name": "Anthropic", "doc": "https://docs.anthropic.com/en/docs/about-claude/models",
                            "models": {SONNET: {"id": SONNET, "name": "Claude Sonnet 4.5",
                                                "cost": {"input": 3, "output": 15, "cache_read": 0.3,
                                                         "cache_write": 3.75}}}}}
MAP = {SONNET: SONNET_ROW, "anthropic.claude-sonnet-4-5-20250929-v1:0": BEDROCK_SONNET,
       "vertex_ai/claude-sonnet-4-5@20250929": {**SONNET_ROW, "litellm_provider": "vertex_ai-anthropic_models"}}


@pytest.fixture
def registry(tmp_path, monkeypatch):
    """The fixture registry after models.dev's row, and a run of the price map with the given body."""
    db, seeds = tmp_path / "registry.db", tmp_path / "seeds"
    build_db(db, DATA / "curation")

    def run(source: str, body: dict, day: str):
        monkeypatch.setenv("REGISTRY_TODAY", day)
        (seeds / source).mkdir(parents=True, exist_ok=True)
        (seeds / source / "page-001.json").write_text(json.dumps(body), encoding="utf-8")
        result = run_source(str(db), source, offline=True, seeds_dir=str(seeds))
        assert result.status == "completed", result.error
        return result
    run("public-catalog", MODELS_DEV, "2026-12-01")
    yield run, create_app({"TESTING": True, "DATABASE": str(db)}).test_client(), db
    close_thread_connections()


def test_the_maps_batch_price_is_served_beside_models_devs_and_its_own_where_models_dev_has_none(registry):
    run, client, db = registry
    result = run("price-map", MAP, "2026-12-02")
    prices = {p["platform"]: p for p in client.get(f"/api/v1/models/{SONNET}").get_json()["prices"]}
    official = prices["official"]
    assert (official["input_per_mtok"], official["source"], official["effective_from"]) == (
        3.0, "public-catalog", "2026-12-02")
    assert official["modes"] == {"batch": {"input_per_mtok": 1.5, "output_per_mtok": 7.5,
                                           "cached_input_read_per_mtok": 0.15, "cached_input_write_per_mtok": 1.875,
                                           "source": "price-map"}}
    # Bedrock: models.dev said nothing there, the map's own price is served
    assert (prices["cloud-a"]["input_per_mtok"], prices["cloud-a"]["source"]) == (3.0, "price-map")
    assert prices["cloud-a"]["modes"]["batch"]["output_per_mtok"] == 7.5
    # the fixture knows no Vertex id of Sonnet 4.5: the map's is listed, never attached
    assert "cloud-b" not in prices
    details = json.loads(connect_rw(str(db)).execute(
        "SELECT details FROM ingestion_runs WHERE id = ?", (result.run_id,)).fetchone()[0])
    assert details["unknown_ids"] == ["cloud-b/claude-sonnet-4-5@20250929"]
    page = client.get(f"/models/{SONNET}.md").get_data(as_text=True)
    assert ("Provider API: $3 in / $15 out per 1M tokens; batch mode: $1.5 in / $7.5 out per 1M tokens"
            " (source: price-map), since 2026-12-02 (source: public-catalog; 2 prices)") in page


def test_a_rerun_writes_nothing_and_a_new_batch_price_is_a_change(registry):
    run, client, db = registry
    run("price-map", MAP, "2026-12-02")
    conn = connect_rw(str(db))
    changes = conn.execute("SELECT count(*) FROM changes").fetchone()[0]
    assert run("price-map", MAP, "2026-12-03").updated == 0
    assert conn.execute("SELECT count(*) FROM changes").fetchone()[0] == changes
    cheaper = json.loads(json.dumps(MAP))
    cheaper[SONNET]["input_cost_per_token_batches"] = 1.2e-06
    run("price-map", cheaper, "2026-12-04")
    (change,) = client.get(f"/api/v1/changes?model={SONNET}&kind=field_changed").get_json()["changes"][:1]
    assert change["field"] == "prices.official"
    assert change["new"]["modes"]["batch"]["input_per_mtok"] == 1.2
    said = (f"{SONNET}: on Provider API, batch price changed from $1.5 in / $7.5 out per 1M tokens to $1.2 in / $7.5"
            " out per 1M tokens")
    assert change["title"] == said
    assert said in [i["title"] for i in client.get("/api/v1/feeds/changes.json").get_json()["items"]]
    official = [p for p in client.get(f"/api/v1/models/{SONNET}/prices").get_json()["prices"]
                if p["platform"] == "official"]
    assert [(p["modes"].get("batch", {}).get("input_per_mtok"), p["effective_from"], p["effective_to"])
            for p in official] == [(None, "2026-12-01", "2026-12-02"), (1.5, "2026-12-02", "2026-12-04"),
                                   (1.2, "2026-12-04", None)]


def test_a_price_replaced_the_day_it_took_effect_is_no_period_of_the_history(registry):
    run, client, _ = registry
    run("price-map", MAP, "2026-12-01")   # the day models.dev's price came: one price, with the map's batch mode
    official = [p for p in client.get(f"/api/v1/models/{SONNET}/prices").get_json()["prices"]
                if p["platform"] == "official"]
    assert [(p["modes"]["batch"]["input_per_mtok"], p["effective_from"], p["effective_to"]) for p in official] == [
        (1.5, "2026-12-01", None)]
    changes = client.get(f"/api/v1/changes?model={SONNET}&kind=field_changed").get_json()["changes"]
    assert [c["field"] for c in changes].count("prices.official") == 2   # the change history keeps both


@pytest.mark.parametrize("override, fetched", [
    (None, "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json"),
    # a pinned release's copy: the variable names the document's whole URL
    ("https://raw.githubusercontent.com/BerriAI/litellm/v1.80.0/model_prices_and_context_window.json",
     "https://raw.githubusercontent.com/BerriAI/litellm/v1.80.0/model_prices_and_context_window.json"),
])
def test_a_live_run_reads_the_map_where_it_is_told(tmp_path, monkeypatch, override, fetched):
    import responses

    from registry.ingest.http import make_session
    if override:
        monkeypatch.setenv("REGISTRY_PRICE_MAP_URL", override)
    monkeypatch.setenv("REGISTRY_TODAY", "2026-12-01")
    db = tmp_path / "registry.db"
    build_db(db, DATA / "curation")
    with responses.RequestsMock() as mocked:
        mocked.get(fetched, json=MAP)
        result = run_source(str(db), "price-map", session=make_session(backoff=0))
    assert result.status == "completed", result.error
    client = create_app({"TESTING": True, "DATABASE": str(db)}).test_client()
    prices = {p["platform"]: p for p in client.get(f"/api/v1/models/{SONNET}").get_json()["prices"]}
    assert prices["official"]["modes"]["batch"] == {"input_per_mtok": 1.5, "output_per_mtok": 7.5,
                                                    "cached_input_read_per_mtok": 0.15,
                                                    "cached_input_write_per_mtok": 1.875, "source": "price-map"}
    close_thread_connections()


@pytest.mark.parametrize("key, value", [
    ("input_cost_per_token_batches", "free"),      # no number: the row's price is refused, with why
    ("output_cost_per_token", 5.0),                # $5,000,000 per 1M tokens: a typo, refused
    ("input_cost_per_token", [3e-06]),
])
def test_a_hostile_rows_price_is_refused_with_why_and_the_other_rows_land(registry, key, value):
    run, client, db = registry
    hostile = json.loads(json.dumps(MAP))
    hostile[SONNET][key] = value
    result = run("price-map", hostile, "2026-12-02")
    details = json.loads(connect_rw(str(db)).execute(
        "SELECT details FROM ingestion_runs WHERE id = ?", (result.run_id,)).fetchone()[0])
    assert "prices.official" in " ".join(details["refused"])
    prices = {p["platform"]: p for p in client.get(f"/api/v1/models/{SONNET}").get_json()["prices"]}
    assert prices["official"]["modes"] == {} and prices["official"]["source"] == "public-catalog"
    assert prices["cloud-a"]["source"] == "price-map"


@pytest.mark.parametrize("path", [f"/compare.md?models={SONNET},claude-sonnet-4-20250514",
                                  f"/compare?models={SONNET},claude-sonnet-4-20250514"])
def test_compare_puts_each_platforms_batch_price_beside_its_price(registry, path):
    run, client, _ = registry
    run("price-map", MAP, "2026-12-02")
    page = client.get(path).get_data(as_text=True)
    assert "$3 in / $15 out per 1M tokens; batch mode: $1.5 in / $7.5 out per 1M tokens" in page


BASE = {"input_per_mtok": 3.0, "output_per_mtok": 15.0, "currency": "USD"}
BATCH = {"batch": {"input_per_mtok": 1.5, "output_per_mtok": 7.5, "source": "price-map"}}


@pytest.mark.parametrize("old, new, said", [
    (None, {**BASE, "modes": BATCH}, "priced on Provider API at $3 in / $15 out per 1M tokens"),
    ({**BASE, "modes": BATCH}, {**BASE, "input_per_mtok": 2.5, "modes": BATCH},
     "price on Provider API changed from $3 in / $15 out per 1M tokens to $2.5 in / $15 out per 1M tokens"),
    # the price stands: the service that moved says so
    (BASE, {**BASE, "modes": BATCH}, "on Provider API, batch priced at $1.5 in / $7.5 out per 1M tokens"),
    ({**BASE, "modes": BATCH}, {**BASE, "modes": {"batch": {**BATCH["batch"], "input_per_mtok": 1.2}}},
     "on Provider API, batch price changed from $1.5 in / $7.5 out per 1M tokens to $1.2 in / $7.5 out per 1M"
     " tokens"),
    ({**BASE, "modes": BATCH}, BASE, "on Provider API, batch no longer priced (was $1.5 in / $7.5 out per 1M tokens)"),
    (BASE, {**BASE, "cached_input_read_per_mtok": 0.3},
     "cached input or long-prompt prices on Provider API changed ($3 in / $15 out per 1M tokens)"),
])
def test_a_price_changes_title_says_what_moved(old, new, said):
    from registry import wording
    change = {"kind": "field_changed", "model_slug": SONNET, "field": "prices.official", "old": old, "new": new}
    assert wording.title(change) == f"{SONNET}: {said}"

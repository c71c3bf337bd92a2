"""The public catalog (models.dev's api.json, registry/ingest/sources/modelsdev.py,
docs/data-flow.md#the-public-catalog): each row's price on its own platform and a provider's rows' capabilities,
landing only on the model that holds the row's id on that platform, with the last word after the listings and
the platforms' own catalogs."""
import json

import pytest

from helpers import DATA, build_db
from registry import create_app
from registry.db import connect_rw
from registry.ingest.records import Page, SourceError
from registry.ingest.runner import run_source
from registry.ingest.sources import modelsdev
from registry.web.connection import close_thread_connections

SONNET = "claude-sonnet-4-5-20250929"
# models.dev's real rows for Claude Sonnet 4.5 (anomalyco/models.dev f3fc6922, built by its own generator)
ROW = {"id": SONNET, "name": "Claude Sonnet 4.5", "family": "claude-sonnet", "attachment": True, "reasoning": True,
       "reasoning_options": [{"type": "effort", "values": ["low", "medium", "high"]},
                             {"type": "budget_tokens", "min": 1024}],
       "tool_call": True, "temperature": True, "knowledge": "2025-07-31", "release_date": "2025-09-29",
       "last_updated": "2025-09-29", "modalities": {"input": ["text", "image", "pdf"], "output": ["text"]},
       "open_weights": False, "limit": {"context": 200000, "output": 64000},
       "cost": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75,
                "tiers": [{"input": 6, "output": 22.5, "cache_read": 0.6, "cache_write": 7.5,
                           "tier": {"type": "context", "size": 200000}}],
                "context_over_200k": {"input": 6, "output": 22.5, "cache_read": 0.6, "cache_write": 7.5}}}


def catalog(provider: str, rows: dict) -> dict:
    return {provider: {"id": provider, "env": ["X_API_KEY"], "npm": "@ai-sdk/x", "name": provider.title(),
                       "doc": "https://example.com/models", "models": rows}}


def one(body: dict):
    (record,) = [r for r in modelsdev.parse([Page(body)]) if not r.skip]
    return record


PRICE = {"input_per_mtok": 3.0, "output_per_mtok": 15.0, "cached_input_read_per_mtok": 0.3,
         "cached_input_write_per_mtok": 3.75, "currency": "USD",
         "tiers": [{"above_input_tokens": 200000, "input_per_mtok": 6.0, "output_per_mtok": 22.5,
                    "cached_input_read_per_mtok": 0.6, "cached_input_write_per_mtok": 7.5}]}


def test_a_providers_row_gives_its_price_on_the_providers_api_and_the_models_capabilities():
    record = one(catalog("anthropic", {SONNET: ROW}))
    assert (record.model_id, record.provider, record.platform, record.aliases) == (SONNET, "anthropic", "official", [])
    assert record.fields == {"prices": {"official": PRICE}, "tool_calling": True, "reasoning": True,
                             "knowledge_cutoff": "2025-07-31", "reasoning_efforts": ["low", "medium", "high"],
                             "input_modalities": ["text", "image", "pdf"], "output_modalities": ["text"]}


@pytest.mark.parametrize("platform_catalog, model_id, platform", [
    ("amazon-bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", "cloud-a"),
    ("google-vertex-anthropic", "claude-sonnet-4-5@20250929", "cloud-b"),
    ("openrouter", "anthropic/claude-sonnet-4.5", "gateway"),
])
def test_a_platforms_row_gives_only_its_price_on_that_platform(platform_catalog, model_id, platform):
    record = one(catalog(platform_catalog, {model_id: {**ROW, "id": model_id}}))
    assert (record.provider, record.platform, record.fields) == (None, platform, {"prices": {platform: PRICE}})


@pytest.mark.parametrize("body, skip", [
    (catalog("openrouter", {"meta-llama/llama-3.3-70b-instruct:free": {**ROW, "cost": {"input": 0, "output": 0}}}),
     "a variant of a gateway id"),
    (catalog("togetherai", {"moonshotai/Kimi-K2-Instruct": ROW}), "a catalog the registry does not read"),
    ({**catalog("google-vertex", {"claude-sonnet-4-5@20250929": ROW}),
      **catalog("google-vertex-anthropic", {"claude-sonnet-4-5@20250929": ROW})}, "another catalog of its platform"),
])
def test_rows_the_registry_does_not_read_are_counted_with_why(body, skip):
    skipped = [r.skip for r in modelsdev.parse([Page(body)]) if r.skip]
    assert len(skipped) == 1 and skip in skipped[0]


@pytest.mark.parametrize("cost, price", [
    (None, None),
    ({"input": 0.5, "output": 1.5, "reasoning": 2}, {"input_per_mtok": 0.5, "output_per_mtok": 1.5, "currency": "USD"}),
    # a tier of another kind than the prompt's length has no price the registry keeps
    ({"input": 1, "output": 2, "tiers": [{"input": 3, "tier": {"type": "time-of-day", "size": 1}}]},
     {"input_per_mtok": 1.0, "output_per_mtok": 2.0, "currency": "USD"}),
    ({"input": 1, "output": 2, "input_audio": 4}, {"input_per_mtok": 1.0, "output_per_mtok": 2.0,
                                                   "input_audio_per_mtok": 4.0, "currency": "USD"}),
])
def test_what_a_rows_cost_says(cost, price):
    row = {key: value for key, value in ROW.items() if key != "cost"} | ({"cost": cost} if cost else {})
    assert one(catalog("openrouter", {"x/y": row})).fields.get("prices", {}).get("gateway") == price


@pytest.mark.parametrize("body, pattern", [
    ([ROW], "expected a JSON object of catalogs"),
    ({"anthropic": {"id": "anthropic", "models": [ROW]}}, "'models' object"),
    ({"anthropic": "everything"}, "'models' object"),
    (catalog("anthropic", {SONNET: "claude"}), "expected an object"),
    (catalog("anthropic", {SONNET: {**ROW, "cost": [3, 15]}}), "expected an object"),
    (catalog("anthropic", {SONNET: {**ROW, "tool_call": "yes"}}), "tool_call"),
    (catalog("anthropic", {SONNET: {**ROW, "knowledge": 2025}}), "knowledge"),
    (catalog("anthropic", {SONNET: {**ROW, "modalities": {"input": "text"}}}), "input"),
])
def test_a_drifted_catalog_is_a_source_error(body, pattern):
    with pytest.raises(SourceError, match=pattern) as info:
        modelsdev.parse([Page(body)])
    assert "public-catalog" in str(info.value)


# models.dev's real row for Claude Opus 4.8's fast mode (experimental.modes, f3fc6922)
OPUS_FAST = {"fast": {"cost": {"input": 10, "output": 50, "cache_read": 1, "cache_write": 12.5},
                      "provider": {"body": {"speed": "fast"}, "headers": {"anthropic-beta": "fast-mode-2026-02-01"}}}}


@pytest.mark.parametrize("experimental, modes", [
    ({"modes": OPUS_FAST}, {"fast": {"input_per_mtok": 10.0, "output_per_mtok": 50.0,
                                     "cached_input_read_per_mtok": 1.0, "cached_input_write_per_mtok": 12.5}}),
    # experimental in models.dev's schema: a mode of another shape is passed over, not a fault of the run
    ({"modes": {"fast": {"speed": "2x"}, "slow": "cheap"}}, None),
    ({"modes": ["fast"]}, None),
    ("fast", None),
])
def test_a_rows_faster_modes_are_priced_beside_it(experimental, modes):
    price = one(catalog("anthropic", {SONNET: {**ROW, "experimental": experimental}})).fields["prices"]["official"]
    assert price.get("modes") == modes and price["input_per_mtok"] == 3.0


# ---------------------------------------------------------------- in the registry

OPENROUTER = json.loads((DATA / "upstream" / "openrouter-models.json").read_text(encoding="utf-8"))


@pytest.fixture
def registry(tmp_path, monkeypatch):
    """The fixture registry after OpenRouter's catalog, and a run of the public catalog with the given body."""
    db, seeds = tmp_path / "registry.db", tmp_path / "seeds"
    build_db(db, DATA / "curation")
    monkeypatch.setenv("REGISTRY_TODAY", "2026-12-01")
    for source, body in (("openrouter-catalog", OPENROUTER),):
        (seeds / source).mkdir(parents=True)
        (seeds / source / "page-001.json").write_text(json.dumps(body), encoding="utf-8")
        assert run_source(str(db), source, offline=True, seeds_dir=str(seeds)).status == "completed"

    def run(body: dict, day: str = "2026-12-01"):
        monkeypatch.setenv("REGISTRY_TODAY", day)
        (seeds / "public-catalog").mkdir(exist_ok=True)
        (seeds / "public-catalog" / "page-001.json").write_text(json.dumps(body), encoding="utf-8")
        result = run_source(str(db), "public-catalog", offline=True, seeds_dir=str(seeds))
        assert result.status == "completed", result.error
        return result
    yield run, create_app({"TESTING": True, "DATABASE": str(db)}).test_client(), db
    close_thread_connections()


BODY = {**catalog("anthropic", {SONNET: ROW}),
        **catalog("google-vertex-anthropic", {"claude-sonnet-4-5@20250929": ROW}),
        **catalog("openrouter", {"anthropic/claude-sonnet-4.5": {**ROW, "cost": {"input": 30, "output": 150}}})}


def test_a_row_lands_only_where_the_registry_knows_its_id_on_its_platform(registry):
    run, client, db = registry
    result = run(BODY)
    body = client.get(f"/api/v1/models/{SONNET}").get_json()
    by_platform = {p["platform"]: (p["input_per_mtok"], p["source"]) for p in body["prices"]}
    # the provider's API from the catalog; OpenRouter's own catalog first on OpenRouter, whatever the public one says
    assert by_platform["official"] == (3.0, "public-catalog")
    assert by_platform["gateway"][1] == "openrouter-catalog"
    # the fixture knows no Vertex id of Sonnet 4.5: the catalog's is listed, never attached
    assert "cloud-b" not in by_platform
    details = json.loads(connect_rw(str(db)).execute(
        "SELECT details FROM ingestion_runs WHERE id = ?", (result.run_id,)).fetchone()[0])
    assert details["unknown_ids"] == ["cloud-b/claude-sonnet-4-5@20250929"]
    assert body["prices"][0]["tiers"] == [{"above_input_tokens": 200000, "input_per_mtok": 6.0,
                                           "output_per_mtok": 22.5, "cached_input_read_per_mtok": 0.6,
                                           "cached_input_write_per_mtok": 7.5}]
    capabilities, provenance = body["capabilities"], body["metadata"]["provenance"]
    assert (capabilities["knowledge_cutoff"], provenance["knowledge_cutoff"]) == ("2025-07-31", "public-catalog")
    assert capabilities["reasoning_efforts"] == ["low", "medium", "high"]
    page = client.get(f"/models/{SONNET}.md").get_data(as_text=True)
    assert ("- Provider API: $3 in / $15 out per 1M tokens; above 200,000 input tokens: $6 in / $22.5 out per 1M"
            " tokens, since 2026-12-01 (source: public-catalog; 1 price)") in page
    assert "- Knowledge cutoff: 2025-07-31\n" in page and "- Reasoning efforts: low, medium, high\n" in page


def test_a_platforms_row_never_writes_the_models_own_facts(registry):
    run, client, _ = registry
    run(catalog("openrouter", {"anthropic/claude-sonnet-4.5": {**ROW, "knowledge": "1999-01"}}))
    assert client.get(f"/api/v1/models/{SONNET}").get_json()["capabilities"]["knowledge_cutoff"] is None


def test_a_rerun_that_changes_nothing_writes_nothing_and_a_new_price_is_a_change(registry):
    run, client, db = registry
    run(BODY)
    conn = connect_rw(str(db))
    changes = conn.execute("SELECT count(*) FROM changes").fetchone()[0]
    assert run(BODY, "2026-12-02").updated == 0
    assert conn.execute("SELECT count(*) FROM changes").fetchone()[0] == changes
    cheaper = json.loads(json.dumps(BODY))
    cheaper["anthropic"]["models"][SONNET]["cost"]["input"] = 2.5
    run(cheaper, "2026-12-03")
    official = [p for p in client.get(f"/api/v1/models/{SONNET}/prices").get_json()["prices"]
                if p["platform"] == "official"]
    assert [(p["input_per_mtok"], p["effective_from"], p["effective_to"]) for p in official] == [
        (3.0, "2026-12-01", "2026-12-03"), (2.5, "2026-12-03", None)]


@pytest.mark.parametrize("query, expected", [
    ("min_knowledge_cutoff=2025-07", True),
    ("min_knowledge_cutoff=2025-07-31", True),
    ("min_knowledge_cutoff=2025-08", False),
    ("reasoning_efforts=low,high", True),
    ("reasoning_efforts=max", False),
    ("structured_output=true", False),       # the row does not say: unknown matches neither
    ("structured_output=false", False),
])
def test_the_new_capabilities_filter_models(registry, query, expected):
    run, client, _ = registry
    run(BODY)
    slugs = {m["slug"] for m in client.get(f"/api/v1/models?per_page=200&{query}").get_json()["models"]}
    assert (SONNET in slugs) is expected


def test_on_the_shipped_registry_every_id_a_snapshot_prices_is_priced_on_its_platform(tmp_path):
    """Issue 46's done-when: a price for every model on every platform whose snapshot lists one for its id."""
    import sqlite3

    from helpers import ROOT, shipped_ingested_app
    from registry.ingest.snapshots import load_pages
    from registry.ingest.sources import load
    shipped_ingested_app(tmp_path / "registry.db", "2026-12-06")
    priced = {(platform, r.model_id) for source in ("openrouter-catalog", "vendor-f-api", "public-catalog", "price-map")
              for r in load(source).parse(load_pages(ROOT / "seeds", source)) if not r.skip
              for platform in r.fields.get("prices", {})}
    conn = sqlite3.connect(tmp_path / "registry.db")
    served = {(source, alias): json.loads(metadata or "{}").get("prices", {}).get(source)
              for alias, source, metadata in conn.execute(
                  "SELECT a.alias, a.source, m.metadata FROM aliases a JOIN models m ON m.id = a.model_id")}
    known = priced & set(served)
    assert len(known) > 400
    assert [key for key in sorted(known) if served[key] is None] == []


def test_a_hostile_rows_bad_values_are_refused_with_why_and_the_rest_lands(registry):
    run, client, db = registry
    hostile = {**ROW, "knowledge": "9999-01", "reasoning_options": [{"type": "effort", "values": ["<script>"]}],
               "cost": {"input": 3, "output": 15, "tiers": [{"input": 6, "tier": {"type": "context", "size": "big"}}]}}
    result = run(catalog("anthropic", {SONNET: hostile}))
    details = json.loads(connect_rw(str(db)).execute(
        "SELECT details FROM ingestion_runs WHERE id = ?", (result.run_id,)).fetchone()[0])
    refused = " ".join(details["refused"])
    assert "knowledge_cutoff" in refused and "reasoning_efforts" in refused and "prices.official" in refused
    body = client.get(f"/api/v1/models/{SONNET}").get_json()
    assert body["capabilities"]["knowledge_cutoff"] is None and body["capabilities"]["reasoning_efforts"] is None
    assert "official" not in {p["platform"] for p in body["prices"]}
    assert body["capabilities"]["tool_calling"] is True      # what the row states well still lands


@pytest.mark.parametrize("model_id, platform, slug", [
    ("claude-sonnet-4-5@20250929", "cloud-b", "claude-sonnet-4-5-20250929"),   # its id there, exactly
    # Vertex AI serves Gemini under Google's own id (a schedule of its own there, no Vertex id of its own)
    ("gemini-2.5-pro", "cloud-b", "gemini-2.5-pro"),
    ("claude-sonnet-4-5-20250929", "cloud-b", None),   # Vertex has ids of its own for it: only those
    ("gpt-4o", "cloud-b", None),                        # not served on Vertex AI
    ("gemini-2.5-pro", "cloud-a", None),
])
def test_a_catalogs_row_lands_on_the_model_its_platform_serves_under_that_id(tmp_path, model_id, platform, slug):
    import sqlite3

    from helpers import shipped_ingested_app
    from registry.ingest.matcher import Matcher
    shipped_ingested_app(tmp_path / "registry.db", "2026-12-06")
    assert Matcher(sqlite3.connect(tmp_path / "registry.db")).on_platform(model_id, platform) == slug

"""Prices (issue 46, registry/pricing.py, docs/api.md#prices): a platform's price of a model from its own catalog,
the day the registry first saw it, its history read back from the changes, every writer of changes telling a
price change, a re-run that changes nothing writing nothing, and a tenfold jump held for a curator."""
import json

import feedparser
import pytest

from helpers import DATA, build_db
from registry import create_app, pricing
from registry.db import connect_rw
from registry.ingest.runner import run_source
from registry.notify.events import Endpoint, change_events
from registry.web.connection import close_thread_connections

SONNET = "claude-sonnet-4-5-20250929"
UPSTREAM = json.loads((DATA / "upstream" / "openrouter-models.json").read_text(encoding="utf-8"))


def _catalog(seeds, prompt: str, completion: str) -> None:
    """The OpenRouter snapshot, with Claude Sonnet 4.5's price per token as given."""
    page = json.loads(json.dumps(UPSTREAM))
    for item in page["data"]:
        if item["id"] == "anthropic/claude-sonnet-4.5":
            item["pricing"] = {"prompt": prompt, "completion": completion}
    # a second priced model for the lists: Claude 3.5 Sonnet at $1.5 / $7.5 (made up for the test: OpenRouter
    # lists it no longer)
    page["data"].append({"id": "anthropic/claude-3.5-sonnet",
                         "pricing": {"prompt": "0.0000015", "completion": "0.0000075"}})
    page["data"].append({"id": "meta-llama/llama-3.1-8b-instruct",
                         "pricing": {"prompt": "0.00000005", "completion": "0.00000008"}})
    (seeds / "openrouter-catalog").mkdir(parents=True, exist_ok=True)
    (seeds / "openrouter-catalog" / "page-001.json").write_text(json.dumps(page), encoding="utf-8")


@pytest.fixture
def registry(tmp_path, monkeypatch):
    """A registry of the fixture curation, and a run of the OpenRouter catalog at a price on a day."""
    db = tmp_path / "registry.db"
    build_db(db, DATA / "curation")
    seeds = tmp_path / "seeds"

    def run(day: str, prompt: str, completion: str):
        monkeypatch.setenv("REGISTRY_TODAY", day)
        _catalog(seeds, prompt, completion)
        result = run_source(str(db), "openrouter-catalog", offline=True, seeds_dir=str(seeds))
        assert result.status == "completed", result.error
        return result
    app = create_app({"TESTING": True, "DATABASE": str(db)})
    yield run, app.test_client(), db
    close_thread_connections()


def _prices(client) -> list:
    return client.get(f"/api/v1/models/{SONNET}/prices").get_json()["prices"]


def test_a_price_is_served_with_its_platform_day_and_source_and_a_rerun_writes_nothing(registry):
    run, client, db = registry
    run("2026-11-22", "0.000003", "0.000015")
    (price,) = _prices(client)
    assert price == {"platform": "gateway", "currency": "USD", "input_per_mtok": 3.0, "output_per_mtok": 15.0,
                     "cached_input_read_per_mtok": None, "cached_input_write_per_mtok": None,
                     "input_audio_per_mtok": None, "output_audio_per_mtok": None, "per_request": None,
                     "per_image": None, "tiers": [], "modes": {}, "effective_from": "2026-11-22", "effective_to": None,
                     "source": "openrouter-catalog"}
    assert client.get(f"/api/v1/models/{SONNET}").get_json()["prices"] == [price]
    conn = connect_rw(str(db))
    changes = conn.execute("SELECT count(*) FROM changes").fetchone()[0]
    again = run("2026-11-23", "0.000003", "0.000015")
    assert (again.updated, conn.execute("SELECT count(*) FROM changes").fetchone()[0]) == (0, changes)
    assert _prices(client) == [price]     # the day it was first seen stays


def test_a_price_change_is_a_change_every_writer_tells(registry):
    run, client, db = registry
    run("2026-11-22", "0.000003", "0.000015")
    run("2026-12-01", "0.0000025", "0.000012")
    old, new = _prices(client)
    assert (old["input_per_mtok"], old["effective_from"], old["effective_to"]) == (3.0, "2026-11-22", "2026-12-01")
    assert (new["input_per_mtok"], new["effective_from"], new["effective_to"]) == (2.5, "2026-12-01", None)
    said = (f"{SONNET}: price on OpenRouter changed from $3 in / $15 out per 1M tokens to $2.5 in / $12 out per 1M"
            " tokens")
    changes = client.get(f"/api/v1/changes?model={SONNET}").get_json()["changes"]
    assert [c["title"] for c in changes if c["field"] == "prices.gateway"][0] == said
    assert said in [e.title for e in feedparser.parse(client.get("/api/v1/feeds/changes.atom").data).entries]
    assert said in [i["title"] for i in client.get("/api/v1/feeds/changes.json").get_json()["items"]]
    watching = Endpoint({"id": 1, "change_cursor": 0, "models": json.dumps([{"slug": SONNET, "identifier":
                                                                           "anthropic/claude-sonnet-4.5"}]),
                         "providers": "[]", "kinds": "[]", "days_before": "[7]"})
    events = change_events(connect_rw(str(db)), watching)[0]
    assert said in [payload["data"]["title"] for _, _, payload in events]


@pytest.mark.parametrize("prompt, completion, why", [
    ("0.00003", "0.000015", "input_per_mtok moves from 3.0 to 30.0"),    # tenfold
    ("0", "0.000015", "input_per_mtok falls from 3.0 to 0"),              # to zero
])
def test_a_jump_is_held_for_a_curator_not_served(registry, prompt, completion, why, capsys):
    run, client, db = registry
    run("2026-11-22", "0.000003", "0.000015")
    held = run("2026-12-01", prompt, completion)
    assert any(why in line for line in held.details["held_prices"]), held.details
    (price,) = _prices(client)
    assert (price["input_per_mtok"], price["effective_from"]) == (3.0, "2026-11-22")
    from registry.curation import drift
    assert any(why in line for line in drift.held(connect_rw(str(db))))


@pytest.mark.parametrize("old, new, held", [
    ({"input_per_mtok": 3.0}, {"input_per_mtok": 2.0}, False),
    ({"input_per_mtok": 3.0}, {"input_per_mtok": 29.0}, False),
    ({"input_per_mtok": 3.0}, {"input_per_mtok": 30.0}, True),
    ({"input_per_mtok": 3.0}, {"input_per_mtok": 0.3}, True),
    ({"input_per_mtok": 3.0}, {"input_per_mtok": 0.0}, True),
    ({"input_per_mtok": 0.0}, {"input_per_mtok": 5.0}, False),     # free before: no ratio to judge by
    ({"output_per_mtok": 15.0}, {"input_per_mtok": 2.0}, False),   # nothing to compare
])
def test_what_a_jump_is(old, new, held):
    assert bool(pricing.held(old, new)) is held


@pytest.mark.parametrize("entry, problem", [
    ({"input_per_mtok": 3.0, "currency": "USD"}, None),
    ({"input_per_mtok": -1, "currency": "USD"}, "must be a number"),
    ({"input_per_mtok": "3", "currency": "USD"}, "must be a number"),
    ({"input_per_mtok": 10**9, "currency": "USD"}, "must be a number"),
    ({"input_per_mtok": 3.0, "currency": "dollars"}, "currency"),
    ({"currency": "USD"}, "states no price"),
    ({"input_per_mtok": 3.0, "currency": "USD", "per_token": 1}, "not one of"),
    ({"input_per_mtok": 3.0, "currency": "USD", "effective_from": "yesterday"}, "effective_from"),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": [{"above_input_tokens": 200000, "input_per_mtok": 6}]}, None),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": []}, "tiers must be a list of 1 to"),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": [{"input_per_mtok": 6}]}, "above_input_tokens must be"),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": [{"above_input_tokens": 1, "input_per_mtok": 6},
                                                          {"above_input_tokens": 1, "input_per_mtok": 7}]}, "distinct"),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": [{"above_input_tokens": 9, "batch": 1}]}, "each tier must"),
    ({"input_per_mtok": 3.0, "currency": "USD", "tiers": [{"above_input_tokens": 9}]}, "states no price"),
    ({"input_per_mtok": 3.0, "currency": "USD", "modes": {"fast": {"input_per_mtok": 30}}}, None),
    ({"input_per_mtok": 3.0, "currency": "USD", "modes": {"Fast Mode!": {"input_per_mtok": 30}}}, "lowercase word"),
    ({"input_per_mtok": 3.0, "currency": "USD", "modes": {"fast": {"speed": 2}}}, "must hold some of"),
    ({"input_per_mtok": 3.0, "currency": "USD", "modes": {"fast": {"input_per_mtok": -1}}}, "must be a number"),
    ({"input_per_mtok": 3.0, "currency": "USD", "modes": {}}, "modes must map 1 to"),
])
def test_what_a_price_is(entry, problem):
    found = pricing.problem(entry)
    assert (found is None) if problem is None else (problem in found)


@pytest.mark.parametrize("listed, price", [
    # xAI's listing: 1/100 US cents per 1M tokens (grok-4-0709: $3 in, $15 out, $0.75 cached)
    ({"prompt_text_token_price": 30000, "completion_text_token_price": 150000,
      "cached_prompt_text_token_price": 7500}, {"input_per_mtok": 3.0, "output_per_mtok": 15.0,
                                                "cached_input_read_per_mtok": 0.75, "currency": "USD"}),
    ({"prompt_text_token_price": 2000, "completion_text_token_price": 5000},
     {"input_per_mtok": 0.2, "output_per_mtok": 0.5, "currency": "USD"}),
    ({}, None),
])
def test_xais_listing_prices_its_own_api(listed, price):
    from registry.ingest.records import Page
    from registry.ingest.sources import xai
    (record,) = xai.parse([Page({"models": [{"id": "grok-4-0709", **listed}]})])
    assert record.fields.get("prices") == ({"official": price} if price else None)


@pytest.mark.parametrize("query, slugs", [
    # the lowest price on any platform, per 1M tokens; a model no platform prices is left out of a price filter
    ("max_input_price=5", ["llama-3.1-8b-instruct", "claude-3-5-sonnet-20241022", SONNET]),
    ("max_input_price=3", ["llama-3.1-8b-instruct", "claude-3-5-sonnet-20241022", SONNET]),
    ("max_input_price=2.99", ["llama-3.1-8b-instruct", "claude-3-5-sonnet-20241022"]),
    ("max_input_price=1", ["llama-3.1-8b-instruct"]),
    ("max_output_price=14", ["llama-3.1-8b-instruct", "claude-3-5-sonnet-20241022"]),
])
def test_models_filter_by_price(registry, query, slugs):
    run, client, _db = registry
    run("2026-11-22", "0.000003", "0.000015")   # Sonnet 4.5: $3 / $15; Sonnet 3.5 as the snapshot lists it
    found = client.get(f"/api/v1/models?{query}&sort=input_price").get_json()["models"]
    assert [m["slug"] for m in found] == slugs


def test_models_sort_by_price_cheapest_first_unpriced_last(registry):
    run, client, _db = registry
    run("2026-11-22", "0.000003", "0.000015")
    listed = [m["slug"] for m in client.get("/api/v1/models?sort=input_price&per_page=200").get_json()["models"]]
    priced = [s for s in listed if client.get(f"/api/v1/models/{s}/prices").get_json()["prices"]]
    assert listed[:len(priced)] == priced and len(priced) >= 2
    lowest = [min(p["input_per_mtok"] for p in client.get(f"/api/v1/models/{s}/prices").get_json()["prices"])
              for s in priced]
    assert lowest == sorted(lowest)


@pytest.mark.parametrize("q, first", [
    ("cheap", "llama-3.1-8b-instruct"),              # $0.05 before Sonnet 4.5's $3: the cheapest working first
    ("cheapest model", "llama-3.1-8b-instruct"),
    ("claude sonnet under $2", "claude-3-5-sonnet-20241022"),   # the one Sonnet at $2 or less (OpenRouter: $1.5)
])
def test_search_reads_price_words(registry, q, first):
    run, client, _db = registry
    run("2026-11-22", "0.000003", "0.000015")
    results = client.get("/api/v1/search", query_string={"q": q}).get_json()["results"]
    assert results[0]["slug"] == first
    if "under" in q:
        assert SONNET not in [r["slug"] for r in results]


@pytest.mark.parametrize("now, kept, held", [
    (100_000, 200_000, True),     # shrinks: held, the window stated before still served
    (400_000, 400_000, False),    # grows: taken
    (200_000, 200_000, False),    # the same
])
def test_a_shrinking_context_window_is_held_for_a_curator(tmp_path, now, kept, held):
    from registry.ingest.match import records_to_facts
    from registry.ingest.records import Record
    build_db(tmp_path / "r.db", DATA / "curation")
    conn = connect_rw(str(tmp_path / "r.db"))
    conn.execute("INSERT INTO facts (source, model_slug, field, value) VALUES ('vendor-b-api', ?, "
                 "'input_context_window', '200000')", (SONNET,))
    record = Record(SONNET, "anthropic", {"input_context_window": now}, [(SONNET, "official")])
    facts, _aliases, details = records_to_facts(conn, "vendor-b-api", [record])
    stored = {field: json.loads(value) for _source, _slug, field, value in facts}
    assert stored["input_context_window"] == kept
    assert bool(details.get("held_windows")) is held

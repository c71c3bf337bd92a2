"""The whole pipeline with no network: shipped curation, then every source from seeds/."""
import json
from pathlib import Path

import pytest

from helpers import shipped_app
from registry.fields import AUTOMATED_SOURCES
from registry.db import connect_rw
from registry.web.connection import close_thread_connections

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    db = tmp_path_factory.mktemp("offline") / "registry.db"
    app = shipped_app(db, "2026-11-21")
    first = app.test_cli_runner().invoke(args=["ingest", "--offline"])
    second = app.test_cli_runner().invoke(args=["ingest", "--offline"])
    yield app, connect_rw(str(db)), first, second
    close_thread_connections()


def runs(conn, nth_cycle):
    rows = conn.execute("SELECT source, status, models_added, models_updated, error_message FROM ingestion_runs"
                        " WHERE source != 'curation' ORDER BY id").fetchall()
    n = len(AUTOMATED_SOURCES)
    return {r[0]: tuple(r[1:]) for r in rows[n * (nth_cycle - 1): n * nth_cycle]}


def test_every_source_completes_offline(cycle):
    _, conn, first, _ = cycle
    assert first.exit_code == 0, first.output
    first_runs = runs(conn, 1)
    assert len(first_runs) == len(AUTOMATED_SOURCES)
    assert all(r[0] == "completed" for r in first_runs.values()), first_runs
    assert sum(r[1] for r in first_runs.values()) > 0       # the seeds carry models curation lacks


def test_second_cycle_changes_nothing(cycle):
    _, conn, _, second = cycle
    assert second.exit_code == 0, second.output
    assert all(r[:3] == ("completed", 0, 0) for r in runs(conn, 2).values()), runs(conn, 2)


@pytest.mark.parametrize("slug,field,expected", [
    ("claude-3-opus-20240229", "sunset_date", "2026-01-05"),    # curated dates stand
    ("claude-3-opus-20240229", "status", "sunset"),
    # OpenAI scheduled its shutdown (2027-01-14, openai SDK 3.32.0+)
    ("gpt-4o", "status", "deprecated"),
])
def test_facts_land_where_they_belong(cycle, slug, field, expected):
    app, _, _, _ = cycle
    body = app.test_client().get(f"/api/v1/models/{slug}").get_json()
    assert body[field] == expected


def test_platform_rows_do_not_touch_a_models_own_lifecycle(cycle):
    # The feed has an AWS Bedrock row for claude-3-5-sonnet-20240620 with its own shutdown date (2026-07-30).
    _, conn, _, _ = cycle
    facts = conn.execute("SELECT field, value FROM facts WHERE source = 'deprecation-feed'"
                         " AND model_slug = 'claude-3-5-sonnet-20240620'").fetchall()
    assert ("sunset_date", json.dumps("2026-07-30")) not in [tuple(f) for f in facts]


def test_new_models_are_resolvable_and_placed(cycle):
    app, conn, _, _ = cycle
    new = conn.execute("SELECT m.slug, f.slug FROM models m JOIN families f ON f.id = m.family_id"
                       " WHERE m.slug NOT IN (SELECT model_slug FROM facts WHERE source = 'curation')").fetchall()
    assert new
    client = app.test_client()
    for slug, _family in new:
        alias = conn.execute("SELECT alias FROM aliases a JOIN models m ON m.id = a.model_id WHERE m.slug = ?"
                             " ORDER BY a.source, a.position LIMIT 1", (slug,)).fetchone()
        assert alias, slug
        assert client.get("/api/v1/resolve", query_string={"q": alias[0]}).get_json()["matched_model"]["slug"] == slug


@pytest.fixture(scope="module", params=["2026-11-21", "2026-11-26"])
def shipped_on(request, cycle, tmp_path_factory):
    """A copy of the shipped registry with its lifecycles decided for a day (the cycle's, and 2026-11-26)."""
    import os
    import shutil

    from registry.merge import runs
    _, conn, _, _ = cycle
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path_factory.mktemp("on") / "registry.db"
    shutil.copy(conn.execute("PRAGMA database_list").fetchone()[2], copy)
    before, os.environ["REGISTRY_TODAY"] = os.environ.get("REGISTRY_TODAY"), request.param
    mine = connect_rw(str(copy))
    runs.refresh_if_stale(mine, request.param)
    yield request.param, mine, copy
    mine.close()
    os.environ["REGISTRY_TODAY"] = before


def test_shipped_registry_passes_the_audit(shipped_on):
    """Every invariant of docs/lifecycle.md#the-audit holds on the registry `make run` builds."""
    from registry.audit import audit
    from registry.audit.answers import INVARIANTS
    from registry.curation.reader import read_curation
    _, conn, _ = shipped_on
    findings = audit(conn, read_curation(ROOT / "curation"), ROOT / "curation")
    assert set(INVARIANTS) <= set(findings)
    assert {kind: items for kind, items in findings.items() if items} == {}


def test_the_audit_and_drift_commands_exit_0_on_the_shipped_registry(shipped_on):
    from registry import create_app
    _, _, copy = shipped_on
    app = create_app({"TESTING": True, "DATABASE": str(copy), "SEEDS_DIR": str(ROOT / "seeds"),
                      "CURATION_DIR": str(ROOT / "curation")})
    result = app.test_cli_runner().invoke(args=["audit"])
    assert result.exit_code == 0, result.output
    assert "0 finding(s)." in result.output
    drift = app.test_cli_runner().invoke(args=["curate", "--drift"])
    assert drift.exit_code == 0, drift.output
    assert "Curated values a source contradicts (0)" in drift.output


def test_every_feed_record_is_accounted_for(cycle):
    """Each record of the whole feed lands on a model or is counted with its reason, none dropped."""
    _, conn, _, _ = cycle
    details = json.loads(conn.execute("SELECT details FROM ingestion_runs WHERE source = 'deprecation-feed'"
                                      " ORDER BY id LIMIT 1").fetchone()[0])
    feed = json.loads((ROOT / "seeds" / "deprecation-feed" / "page-001.json").read_text())
    assert details["records"] == len(feed) == sum(details["outcomes"].values())
    # Azure and Groq ids are not aliases the registry keeps: counted as platform rows. Bedrock and
    # Vertex rows land on the model whose cloud id they name, as that cloud's schedule.
    other_platforms = sum(1 for r in feed if r["provider"] in ("Azure", "Groq"))
    assert sum(n for why, n in details["outcomes"].items() if why.startswith("platform row:")) == other_platforms
    # every provider row names a model of the registry (or is not a model id at all)
    assert details["outcomes"].get("unknown id", 0) == 0, details.get("unknown_ids")
    assert details["outcomes"]["landed on a known model"] > 200


@pytest.mark.parametrize("q, status, sunset", [
    # the feed's AWS Bedrock row: Bedrock retires this id on its own day
    ("anthropic.claude-3-5-sonnet-20240620-v1:0", "sunset", "2026-07-30"),
    ("claude-3-5-sonnet-20240620", "sunset", "2025-10-28"),                  # Anthropic's own API: its own day
    # the feed's Google Vertex row names the publisher model `claude-3-haiku`, whose one version this is
    ("claude-3-haiku@20240307", "sunset", "2026-08-23"),
])
def test_a_clouds_own_schedule_answers_for_its_ids(cycle, q, status, sunset):
    app, _, _, _ = cycle
    body = app.test_client().get("/api/v1/resolve", query_string={"q": q}).get_json()
    assert body["matched_model"]["status"] == status
    schedule = body["platform_lifecycle"]
    assert schedule["sunset_date"] == sunset
    if q.startswith("anthropic.") or "@" in q:   # the cloud's own days, with their source (curation states
        # Bedrock's and Vertex's days with their pages; the feed's rows say the same)
        assert schedule["platform"] == ("cloud-b" if "@" in q else "cloud-a") and schedule["own_schedule"] is True
        assert schedule["sources"]["sunset_date"] == "curation"
    else:   # the provider's own API: the model's own days
        assert (schedule["platform"], schedule["own_schedule"]) == ("official", False)
        detail = app.test_client().get(f"/api/v1/models/{body['matched_model']['slug']}").get_json()
        assert detail["sunset_date"] == sunset
        assert detail["metadata"]["platforms"]["cloud-a"]["source"] == "curation"
        platforms = {p["platform"]: p for p in detail["platforms"]}
        assert platforms["cloud-a"]["sunset_date"] == "2026-07-30" and platforms["official"]["sunset_date"] == sunset


def test_no_closed_family_holds_published_weights(cycle):
    # A model the hub lists, or whose page is its weights' Hugging Face repository, is open weights; its
    # family (whose is_open_source every model inherits) must say so (issue 29).
    _, conn, _, _ = cycle
    closed = conn.execute(
        "SELECT f.slug, m.slug FROM models m JOIN families f ON f.id = m.family_id WHERE f.is_open_source = 0"
        " AND (m.canonical_url LIKE 'https://huggingface.co/%'"
        " OR m.slug IN (SELECT model_slug FROM facts WHERE source = 'model-hub'))").fetchall()
    assert [tuple(r) for r in closed] == []


@pytest.mark.parametrize("slug, open_weights", [
    ("embeddinggemma-300m", True),      # only the hub lists it: the line derived for it is open weights
    ("codestral-2405", True),           # Codestral 22B's card publishes weights (MNPL); later Codestrals do not
    ("codestral-2508", False),
    ("voxtral-mini-2507", True),        # Voxtral Mini 3B (Apache 2.0)
    ("voxtral-mini-2602", False),
    ("mistral-medium-2505", False),     # API-only until Mistral Medium 3.5
    ("mistral-medium-3-5", True),
    ("mistral-large-2402", False),      # Mistral Large 1 was API-only; 2 and later publish weights
    ("mistral-large-2411", True),
    ("mistral-small-2402", False),
    ("ministral-3b-2410", False),
    ("ministral-3b-2512", True),
    ("devstral-medium-2507", False),
    ("devstral-2512", True),
])
def test_open_weights_as_the_model_cards_say(cycle, slug, open_weights):
    app, _, _, _ = cycle
    assert app.test_client().get(f"/api/v1/models/{slug}").get_json()["is_open_source"] is open_weights

import itertools
import sqlite3
from datetime import date

import pytest

import fakes
from registry.fields import AUTOMATED_SOURCES
from registry.ingest.runner import run_source
from registry.merge.priority import pick

VISIBLE = ("SELECT m.slug, f.slug, m.display_name, m.status, m.release_date, m.deprecation_date, m.sunset_date,"
           " m.parameter_count, m.input_context_window, m.output_context_window, m.canonical_url,"
           " (SELECT slug FROM models s WHERE s.id = m.successor_id), m.metadata"
           " FROM models m JOIN families f ON f.id = m.family_id ORDER BY m.slug")


@pytest.fixture
def three_sources(monkeypatch):
    fakes.install(monkeypatch, {
        "vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", fakes.VENDOR_B),
        "deprecation-feed": fakes.fake_module("deprecation-feed", None, fakes.FEED),
        "model-hub": fakes.fake_module("model-hub", None, fakes.HUB),
    })


def run(app, source):
    return run_source(app.config["DATABASE"], source)


def test_vendor_run_updates_matches_and_places(app, rw, three_sources):
    result = run(app, "vendor-b-api")
    assert (result.status, result.added, result.updated) == ("completed", 2, 2)
    rows = {r[0]: r for r in rw.execute(VISIBLE)}
    assert rows["claude-sonnet-4-5-20250929"][2] == "Claude Sonnet 4.5"      # curation beats the vendor
    assert rows["claude-sonnet-4-5-20250929"][8] == 200000                   # curated window stands
    assert '"capabilities": {"batch": true}' in rows["claude-sonnet-4-5-20250929"][12]  # extras in metadata
    assert rows["claude-sonnet-5-20260901"][1] == "claude-sonnet"            # placed by the family's glob
    assert rows["claude-sonnet-5-20260901"][3] == "latest"                   # lifecycle recomputed
    assert rows["claude-fable-1"][1] == "claude-fable"     # a family of its own, derived from its id
    assert rows["claude-sonnet-4-20250514"][3] == "deprecated"               # vendor flag
    assert rw.execute("SELECT count(*) FROM models WHERE slug LIKE 'claude-sonnet-4-5%'").fetchone()[0] == 1


def test_rerun_with_unchanged_data_changes_nothing(app, rw, three_sources):
    for source in ("vendor-b-api", "deprecation-feed", "model-hub"):
        run(app, source)
    before = rw.execute("SELECT slug, updated_at FROM models ORDER BY slug").fetchall()
    for source in ("vendor-b-api", "deprecation-feed", "model-hub"):
        result = run(app, source)
        assert (result.status, result.added, result.updated) == ("completed", 0, 0), source
    assert rw.execute("SELECT slug, updated_at FROM models ORDER BY slug").fetchall() == before


# registry_state as the last merge left it, changed this way before an unchanged re-run; whether it merges again.
RERUN_STATES = [
    ("same code, statuses decided today", {}, False),
    ("another release merged last", {"merged_by": 0}, True),
    ("statuses decided for yesterday", {"status_day": -1}, True),
]


@pytest.mark.parametrize("case, state, merges", RERUN_STATES, ids=[c[0] for c in RERUN_STATES])
def test_an_unchanged_run_merges_again_only_for_new_code_or_a_new_day(app, rw, three_sources, case, state, merges):
    from registry.lifecycle import today
    run(app, "vendor-b-api")
    for key, value in state.items():
        value = date.fromisoformat(today()).toordinal() + value if key == "status_day" else value
        rw.execute("UPDATE registry_state SET value = ? WHERE key = ?", (value, key))
    # A row the merge would write back: it shows whether the merge ran.
    rw.execute("UPDATE models SET display_name = 'stale' WHERE slug = 'claude-fable-1'")
    generation = rw.execute("SELECT value FROM registry_state WHERE key = 'generation'").fetchone()[0]
    result = run(app, "vendor-b-api")
    assert (result.status, result.added) == ("completed", 0)
    merged = rw.execute("SELECT display_name FROM models WHERE slug = 'claude-fable-1'").fetchone()[0] != "stale"
    assert merged == merges
    # No merge, no new data generation: readers' caches stay warm.
    assert (rw.execute("SELECT value FROM registry_state WHERE key = 'generation'").fetchone()[0] != generation) \
        == merges
    assert rw.execute("SELECT status FROM ingestion_runs WHERE id = ?", (result.run_id,)).fetchone()[0] == "completed"


def test_a_run_whose_facts_moved_merges_though_the_registry_is_current(app, rw, monkeypatch, three_sources):
    run(app, "vendor-b-api")
    fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module(
        "vendor-b-api", "anthropic", [r for r in fakes.VENDOR_B if r.model_id != "claude-fable-1"])})
    result = run(app, "vendor-b-api")
    assert result.status == "completed"
    assert "removed" in rw.execute("SELECT metadata FROM models WHERE slug = 'claude-fable-1'").fetchone()[0]


@pytest.mark.parametrize("order", list(itertools.permutations(["vendor-b-api", "deprecation-feed", "model-hub"])))
def test_any_order_of_sources_gives_the_same_registry(tmp_path, curation_dir, monkeypatch, three_sources, order):
    from helpers import build_db
    reference = tmp_path / "reference.db"
    build_db(reference, curation_dir)
    for source in ("vendor-b-api", "deprecation-feed", "model-hub"):
        run_source(str(reference), source)
    other = tmp_path / "other.db"
    build_db(other, curation_dir)
    for source in order:
        run_source(str(other), source)
    a = sqlite3.connect(reference).execute(VISIBLE).fetchall()
    b = sqlite3.connect(other).execute(VISIBLE).fetchall()
    assert a == b


def test_feed_supplements_but_never_overwrites_provider_data(app, rw, three_sources):
    run(app, "vendor-b-api")
    run(app, "deprecation-feed")
    rows = {r[0]: r for r in rw.execute(VISIBLE)}
    sonnet4 = rows["claude-sonnet-4-20250514"]
    assert sonnet4[5] == "2026-06-01"          # the vendor's deprecation date stands
    assert sonnet4[6] == "2026-12-14"          # the feed supplies the sunset date
    assert sonnet4[11] == "claude-sonnet-4-5-20250929"
    assert sonnet4[2] == "Claude Sonnet 4"     # feed names are ignored
    assert rows["llama-3.1-70b-instruct"][6] == "2099-01-01"
    assert "gpt-9000" not in rows


def test_hub_adds_open_models_and_curation_still_wins(app, rw, three_sources):
    result = run(app, "model-hub")
    assert result.added == 1
    rows = {r[0]: r for r in rw.execute(VISIBLE)}
    assert rows["llama-3.1-1b-instruct"][1] == "llama-3-1-instruct"
    assert rows["llama-3.1-1b-instruct"][7] == 1235814400
    assert rows["llama-3.1-8b-instruct"][7] == 8030261248          # curated count wins over the hub
    assert '"tags": ["llama"]' in rows["llama-3.1-8b-instruct"][12]  # hub extras land in metadata
    assert '"parameter_count": "curation"' in rows["llama-3.1-8b-instruct"][12]


@pytest.mark.parametrize("field,by_source,expected", [
    ("parameter_count", {"vendor-a-api": 1, "model-hub": 2}, (2, "model-hub")),
    ("parameter_count", {"curation": 3, "model-hub": 2}, (3, "curation")),
    ("canonical_url", {"vendor-d-api": "a", "model-hub": "b"}, ("b", "model-hub")),
    ("release_date", {"model-hub": "2024-01-01", "vendor-b-api": "2024-02-02"}, ("2024-02-02", "vendor-b-api")),
    ("release_date", {"deprecation-feed": "2024-01-01"}, None),
    ("deprecation_date", {"deprecation-feed": "2025-01-01", "vendor-d-api": "2025-02-02"},
     ("2025-02-02", "vendor-d-api")),
    ("sunset_date", {"deprecation-feed": "2025-01-01"}, ("2025-01-01", "deprecation-feed")),
    ("sunset_date", {"curation": None, "deprecation-feed": "2025-01-01"}, (None, "curation")),
    ("display_name", {"vendor-b-api": None, "model-hub": "x"}, ("x", "model-hub")),
    ("display_name", {}, None),
])
def test_priority_table(field, by_source, expected):
    assert pick(field, by_source) == expected


def test_one_failing_source_does_not_stop_the_others(app, rw, monkeypatch, runner):
    fakes.install(monkeypatch, {
        "vendor-a-api": fakes.fake_module("vendor-a-api", "openai", error="HTTP 503 from upstream"),
        **{s: fakes.fake_module(s, None, []) for s in AUTOMATED_SOURCES if s not in ("vendor-a-api", "model-hub")},
        "model-hub": fakes.fake_module("model-hub", None, fakes.HUB),
    })
    before = rw.execute("SELECT count(*) FROM models").fetchone()[0]
    result = runner.invoke(args=["ingest"])
    assert result.exit_code == 1
    assert "vendor-a-api: failed: HTTP 503 from upstream" in result.output
    runs = {r["source"]: r for r in rw.execute("SELECT * FROM ingestion_runs WHERE source != 'curation'")}
    assert len(runs) == len(AUTOMATED_SOURCES)
    assert runs["vendor-a-api"]["status"] == "failed"
    assert runs["vendor-a-api"]["error_message"] == "HTTP 503 from upstream"
    assert runs["vendor-a-api"]["completed_at"] is not None
    assert all(r["status"] == "completed" for s, r in runs.items() if s != "vendor-a-api")
    assert runs["model-hub"]["models_added"] == 1
    assert rw.execute("SELECT count(*) FROM models").fetchone()[0] == before + 1


def test_failure_mid_write_leaves_no_partial_facts(app, rw, monkeypatch):
    from registry.merge import runs
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})

    def broken(conn):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(runs, "recompute", broken)
    result = run(app, "model-hub")
    assert result.status == "failed" and "disk on fire" in result.error
    assert rw.execute("SELECT count(*) FROM facts WHERE source = 'model-hub'").fetchone()[0] == 0


def test_missing_key_fails_the_run_clearly(app, rw, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = run(app, "vendor-a-api")
    assert result.status == "failed"
    assert "OPENAI_API_KEY is not set" in result.error


def test_cli_ingest_says_one_line_per_source_under_cron(runner, monkeypatch):
    """Without a terminal (cron), no progress, but one summary line per source, so the log shows each run."""
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})
    result = runner.invoke(args=["ingest", "--source", "model-hub"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "model-hub: completed: 1 added, 2 updated (run 2); records: 2 landed on a known model, 1 new model"]


def test_cli_rejects_unknown_source(runner):
    result = runner.invoke(args=["ingest", "--source", "vendor-z-api"])
    assert result.exit_code == 2
    assert "vendor-z-api" in result.output


def test_report_lists_what_curators_should_look_at(app, runner, three_sources):
    run(app, "vendor-b-api")
    result = runner.invoke(args=["curate", "--report"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Models without a release date (1):\n  llama-3.1-405b-instruct" in out
    assert "claude-fable: claude-fable-1" in out
    assert ("claude-sonnet-4-5-20250929.display_name: curation 'Claude Sonnet 4.5', "
            "vendor-b-api 'Claude Sonnet 4.5 (vendor)'") in out


@pytest.mark.parametrize("collecting, error", [(True, None), (True, "HTTP 503 from upstream"), (False, None)])
def test_a_run_pauses_the_cyclic_collector_and_leaves_it_as_it_found_it(app, monkeypatch, collecting, error):
    """A run's millions of acyclic objects are not walked by the collector (docs/running.md#ingest-runs); after
    the run, completed or failed, the process collects as before."""
    import gc
    seen = []
    module = fakes.fake_module("vendor-b-api", "anthropic", fakes.VENDOR_B, error=error)
    parse = module.parse
    module.parse = lambda pages: (seen.append(gc.isenabled()), parse(pages))[1]
    fakes.install(monkeypatch, {"vendor-b-api": module})
    (gc.enable if collecting else gc.disable)()
    try:
        result = run_source(app.config["DATABASE"], "vendor-b-api")
        assert (result.status, seen, gc.isenabled()) == ("failed" if error else "completed", [False], collecting)
    finally:
        gc.enable()

"""Change history: what runs and the daily recompute record (registry/merge/changes.py), and the
query the pages read (changes.recent_changes)."""
import pytest

import fakes
from registry.queries import catalog, changes
from registry.ingest.runner import run_source
from registry.merge import runs

SONNET_5 = fakes.SONNET_5
SECOND = fakes.VENDOR_B_NEXT
EXPECTED_SECOND = {
    # (kind, model, field, old, new, source)
    ("model_added", "claude-sonnet-5-1-20261101", None, None, None, "vendor-b-api"),
    ("model_removed", "claude-fable-1", None, None, None, "vendor-b-api"),
    ("field_changed", SONNET_5, "output_context_window", 128000, 256000, "vendor-b-api"),
    ("alias_removed", SONNET_5, "alias", "claude-sonnet-5", None, "vendor-b-api"),
    ("alias_added", SONNET_5, "alias", None, "claude-sonnet-5-0", "vendor-b-api"),
    ("status_changed", SONNET_5, "status", "latest", "active", "vendor-b-api"),
    ("latest_changed", "claude-sonnet-5-1-20261101", "latest", SONNET_5, "claude-sonnet-5-1-20261101", "vendor-b-api"),
    ("shutdown_scheduled", "claude-sonnet-4-20250514", "sunset_date", None, "2027-01-14", "vendor-b-api"),
}


def vendor_b(monkeypatch, records):
    fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", records)})


def recorded(rw, after_id=0) -> set:
    return {(c["kind"], c["model_slug"], c["field"], c["old"], c["new"], c["source"])
            for c in changes.list_changes(rw, {}, 1000) if c["id"] > after_id}


def last_id(rw) -> int:
    return rw.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0]


def test_two_runs_record_exactly_what_changed_and_a_third_nothing(app, rw, monkeypatch):
    first_build = recorded(rw)
    # The first build (curation) records every model it adds: the feed starts at the first run.
    assert {k for k, *_ in first_build} == {"model_added"}
    assert len(first_build) == rw.execute("SELECT count(*) FROM models").fetchone()[0]

    vendor_b(monkeypatch, fakes.VENDOR_B)
    assert run_source(app.config["DATABASE"], "vendor-b-api").status == "completed"
    mark = last_id(rw)
    vendor_b(monkeypatch, SECOND)
    assert run_source(app.config["DATABASE"], "vendor-b-api").status == "completed"
    assert recorded(rw, mark) == EXPECTED_SECOND

    mark = last_id(rw)
    assert run_source(app.config["DATABASE"], "vendor-b-api").status == "completed"
    assert recorded(rw, mark) == set()


@pytest.mark.parametrize("kind, slug, title", [
    ("shutdown_scheduled", "claude-sonnet-4-20250514",
     # Sonnet 5 and 5.1 state no model_type: not a sound upgrade (docs/api-decisions.md#upgrade).
     "claude-sonnet-4-20250514: shutdown scheduled for 2027-01-14; move to claude-sonnet-4-5-20250929"),
    ("field_changed", SONNET_5, f"{SONNET_5}: output context window changed from 128,000 to 256,000"),
    ("latest_changed", "claude-sonnet-5-1-20261101",
     f"claude-sonnet: latest is now claude-sonnet-5-1-20261101 (was {SONNET_5})"),
    ("model_removed", "claude-fable-1", "claude-fable-1: no longer listed by any source"),
    ("alias_added", SONNET_5, f"{SONNET_5}: new identifier claude-sonnet-5-0"),
])
def test_titles_read_as_a_person_writes_them(app, rw, monkeypatch, kind, slug, title):
    vendor_b(monkeypatch, fakes.VENDOR_B)
    run_source(app.config["DATABASE"], "vendor-b-api")
    vendor_b(monkeypatch, SECOND)
    run_source(app.config["DATABASE"], "vendor-b-api")
    titles = [c["title"] for c in changes.list_changes(rw, {"kinds": [kind], "models": [slug]}, 10)]
    assert titles == [title]


def test_a_status_that_changes_because_a_date_passed_is_recorded_that_day(app, rw, monkeypatch):
    # Claude 3.5 Sonnet's curated shutdown day is 2099-10-22: deprecated until then, sunset on it.
    monkeypatch.setenv("REGISTRY_TODAY", "2099-10-22")
    mark = last_id(rw)
    assert runs.refresh_if_stale(rw)
    recorded = [c for c in changes.list_changes(rw, {}, 100) if c["id"] > mark]
    sunset = [c for c in recorded if c["model_slug"] == "claude-3-5-sonnet-20241022"]
    assert [(c["kind"], c["old"], c["new"], c["source"], c["run_id"]) for c in sunset] == [
        ("status_changed", "deprecated", "sunset", "curation", None)]
    assert not runs.refresh_if_stale(rw)           # the same day again: nothing more
    assert last_id(rw) == max(c["id"] for c in recorded)


@pytest.mark.parametrize("scope", ["model_id", "family_id", "provider_id", None])
def test_recent_changes_for_the_pages(app, rw, monkeypatch, scope):
    vendor_b(monkeypatch, fakes.VENDOR_B)
    run_source(app.config["DATABASE"], "vendor-b-api")
    vendor_b(monkeypatch, SECOND)
    run_source(app.config["DATABASE"], "vendor-b-api")
    model = catalog.model_by_slug(rw, SONNET_5)
    ids = {"model_id": model["id"], "family_id": model["family_id"],
           "provider_id": rw.execute("SELECT id FROM providers WHERE slug = 'anthropic'").fetchone()[0]}
    found = changes.recent_changes(rw, **({scope: ids[scope]} if scope else {}), limit=3)
    assert len(found) == 3
    assert [c["id"] for c in found] == sorted((c["id"] for c in found), reverse=True)
    for change in found:
        assert {"id", "occurred_at", "kind", "model_slug", "field", "old", "new", "source", "title"} <= set(change)
        assert change["occurred_at"].endswith("Z")
    if scope == "model_id":
        assert {c["model_slug"] for c in found} == {SONNET_5}
    if scope == "family_id":
        assert {c["family_slug"] for c in found} == {"claude-sonnet"}
    assert changes.recent_changes(rw, model_id=10**9) == []

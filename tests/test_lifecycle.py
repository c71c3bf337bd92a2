import threading

import pytest

from helpers import TODAY
from registry import db, lifecycle as rules
from registry.merge import lifecycle, runs
from registry.db import transaction, writable

STATUSES = [
    ("claude-3-sonnet-20240229", "sunset"),       # sunset_date passed
    ("claude-3-5-sonnet-20241022", "deprecated"),  # deprecation passed, sunset in the future
    ("claude-sonnet-4-20250514", "active"),        # superseded in its family
    ("claude-sonnet-4-5-20250929", "latest"),      # newest working release
    ("claude-3-haiku-20240307", "sunset"),
    ("claude-instant-1-2", "sunset"),
    ("llama-3.1-8b-instruct", "latest"),           # same day as 70b: slug breaks the tie
    ("llama-3.1-70b-instruct", "active"),
    ("llama-3.1-405b-instruct", "active"),         # curated pin
]


@pytest.mark.parametrize("model, flags, expected", [
    ({"sunset_date": "2026-01-01", "deprecation_date": None}, {}, "sunset"),
    ({"sunset_date": None, "deprecation_date": None}, {"retired": True}, "sunset"),
    ({"sunset_date": "2027-01-14", "deprecation_date": "2026-10-14"}, {}, "deprecated"),
    ({"sunset_date": None, "deprecation_date": None}, {"deprecated": True}, "deprecated"),
    # a shutdown is scheduled and no deprecation day is known: deprecated from now
    ({"sunset_date": "2027-01-14", "deprecation_date": None}, {}, "deprecated"),
    # a known deprecation day in the future waits for its day, even with a shutdown scheduled
    ({"sunset_date": "2027-06-01", "deprecation_date": "2027-01-01"}, {}, None),
    ({"sunset_date": None, "deprecation_date": None}, {}, None),
])
def test_derive(model, flags, expected):
    assert rules.derive(model, flags, "2026-11-22") == expected


@pytest.mark.parametrize("slug,status", STATUSES)
def test_derived_status(client, slug, status):
    assert client.get(f"/api/v1/models/{slug}").get_json()["status"] == status


def test_one_latest_per_family_unless_all_retired(rw):
    rows = rw.execute(
        "SELECT f.slug, sum(m.status = 'latest'), sum(m.status IN ('active', 'latest'))"
        " FROM families f JOIN models m ON m.family_id = f.id GROUP BY f.slug").fetchall()
    for family, latest, working in rows:
        assert latest == (1 if working else 0), family


@pytest.mark.parametrize("on,expected", [
    ("2025-01-20", {"claude-3-sonnet-20240229": "active", "claude-3-haiku-20240307": "latest"}),
    ("2025-01-21", {"claude-3-sonnet-20240229": "deprecated"}),
    ("2025-07-21", {"claude-3-sonnet-20240229": "sunset"}),
    ("2099-10-22", {"claude-3-5-sonnet-20241022": "sunset"}),
])
def test_status_moves_with_the_date(rw, on, expected):
    with transaction(rw):
        lifecycle.recompute(rw, on)
    status = dict(rw.execute("SELECT slug, status FROM models").fetchall())
    for slug, value in expected.items():
        assert status[slug] == value


def test_provider_flags_deprecate_and_retire(rw):
    with transaction(rw):
        rw.execute("INSERT INTO facts VALUES ('vendor-b-api', 'claude-sonnet-4-5-20250929', 'deprecated', 'true')")
        rw.execute("INSERT INTO facts VALUES ('vendor-b-api', 'claude-sonnet-4-20250514', 'retired', 'true')")
        lifecycle.recompute(rw, "2026-11-21")
    status = dict(rw.execute("SELECT slug, status FROM models").fetchall())
    assert status["claude-sonnet-4-5-20250929"] == "deprecated"
    assert status["claude-sonnet-4-20250514"] == "sunset"
    # the family has no working model left, so no latest
    assert "latest" not in {status[s] for s in status if s.startswith("claude-") and "sonnet" in s}


def test_curated_pin_wins_over_dates(rw):
    with transaction(rw):
        rw.execute("INSERT INTO facts VALUES ('curation', 'claude-3-sonnet-20240229', 'status', '\"latest\"')")
        lifecycle.recompute(rw, "2026-11-21")
    status = dict(rw.execute("SELECT slug, status FROM models").fetchall())
    assert status["claude-3-sonnet-20240229"] == "latest"
    assert status["claude-sonnet-4-5-20250929"] == "active"


def test_status_is_true_on_the_day_it_is_read(app, client, monkeypatch):
    """No run between two days: the first request of the new day finds the statuses stale and
    recomputes them (claude-3-5-sonnet's fixture shutdown is 2099-10-22, claude-3-sonnet's 2025-07-21)."""
    from registry.db import connect_rw
    conn = connect_rw(app.config["DATABASE"])
    try:
        with transaction(conn):
            lifecycle.recompute(conn, "2025-07-20")
    finally:
        conn.close()
    from registry.web import lifecycle_clock
    lifecycle_clock._checked.clear()
    monkeypatch.setenv("REGISTRY_TODAY", "2025-07-20")
    assert client.get("/api/v1/models/claude-3-sonnet-20240229").get_json()["status"] == "deprecated"
    monkeypatch.setenv("REGISTRY_TODAY", "2025-07-21")
    body = client.get("/api/v1/models/claude-3-sonnet-20240229").get_json()
    assert body["status"] == "sunset"
    hits = client.get("/api/v1/models?status=sunset&per_page=200").get_json()["models"]
    assert "claude-3-sonnet-20240229" in {m["slug"] for m in hits}


def _history(conn) -> list:
    return [tuple(r) for r in conn.execute("SELECT kind, model_slug, old, new, run_id FROM changes ORDER BY id")]


SUNSET_DAY = "2099-10-22"   # claude-3-5-sonnet-20241022's curated shutdown: the fixture's next lifecycle day


@pytest.mark.parametrize("day, recomputed, new_generation, recorded", [
    (TODAY, False, False, []),                 # the day the statuses were decided for: nothing to do
    ("2099-10-21", True, False, []),           # days later, none of them a lifecycle day: only the mark moves
    (SUNSET_DAY, True, True,                   # a shutdown day came: the status moves, through the write tail
     [("status_changed", "claude-3-5-sonnet-20241022", '"deprecated"', '"sunset"', None)]),
])
def test_the_days_recompute_writes_through_the_run_tail(rw, day, recomputed, new_generation, recorded):
    generation, history = db.generation(rw), _history(rw)
    assert runs.refresh_if_stale(rw, day) is recomputed
    assert (db.generation(rw) > generation) is new_generation   # caches rebuild only when answers differ
    assert _history(rw)[len(history):] == recorded
    assert lifecycle.computed_for(rw) == max(day, TODAY)
    assert runs.refresh_if_stale(rw, day) is False               # the same day again: nothing more


def test_two_processes_starting_a_new_day_at_once_recompute_it_once(app):
    """Each worker's first request of a day may try; the day is read again under the write lock."""
    start = threading.Barrier(2)
    results = []

    def worker():
        with writable(app.config["DATABASE"]) as conn:
            start.wait()
            results.append(runs.refresh_if_stale(conn, SUNSET_DAY))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, True]
    with writable(app.config["DATABASE"]) as conn:
        moved = [c for c in _history(conn) if c[1] == "claude-3-5-sonnet-20241022" and c[0] == "status_changed"]
    assert moved == [("status_changed", "claude-3-5-sonnet-20241022", '"deprecated"', '"sunset"', None)]

"""Issue 15: curation runs take a lock and fail stale runs (item 5); a run row whose failure cannot be
written says so (item 4); an unexpected error is one line, its traceback only with --verbose ("Also")."""
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import fakes
from registry.merge.locks import SourceLock
from registry.ingest.runner import run_source
from registry.merge import runs

ROOT = Path(__file__).resolve().parents[1]

# A real `curate` through the CLI whose write stops (a marker file says when) until it is killed.
CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from registry.curation import apply
    from registry.cli import main

    marker = Path(sys.argv[1])
    real = apply._write_facts

    def slow(conn, cur):
        real(conn, cur)
        marker.touch()
        time.sleep(600)
    apply._write_facts = slow
    sys.argv = ["registry", "curate"]
    main()
""")


def curation_runs(db):
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT status, error_message FROM ingestion_runs WHERE source = 'curation'"
                            " ORDER BY id").fetchall()
    finally:
        conn.close()


@pytest.fixture
def killed_curate(app, tmp_path):
    """A curate killed with -9 in the middle of its write; yields its database."""
    db = app.config["DATABASE"]
    marker = tmp_path / "writing"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REGISTRY_DB": db,
           "REGISTRY_CURATION_DIR": app.config["CURATION_DIR"]}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(marker)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 120
        while not marker.exists():
            assert child.poll() is None, child.stderr.read().decode()
            assert time.time() < deadline
            time.sleep(0.02)
        yield db, child
    finally:
        child.kill()
        child.wait()


@pytest.mark.slow
def test_curate_while_another_runs_is_refused(killed_curate, runner):
    db, _child = killed_curate
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 1
    assert result.output.strip() == "curation: failed: curation is already being applied (run 2); nothing applied"
    assert curation_runs(db)[-1] == ("running", None)


@pytest.mark.slow
def test_killed_curate_is_marked_failed_by_the_next(killed_curate, runner):
    db, child = killed_curate
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert curation_runs(db)[-1] == ("running", None)
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 0, result.output
    assert curation_runs(db)[1:] == [("failed", runs.INTERRUPTED), ("completed", None)]


def test_a_run_whose_failure_cannot_be_written_says_so(app, rw, monkeypatch):
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})

    def full(*args):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(runs, "recompute", full)
    monkeypatch.setattr(runs, "fail_run", full)
    result = run_source(app.config["DATABASE"], "model-hub")
    db = app.config["DATABASE"]
    assert result.status == "failed"
    assert result.error == (f"disk full writing {db}; nothing could be written, so run {result.run_id} stays"
                            " 'running' until the next run of model-hub marks it failed")
    assert result.trace is None
    monkeypatch.undo()
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})
    assert run_source(db, "model-hub").status == "completed"
    rows = rw.execute("SELECT status, error_message FROM ingestion_runs WHERE source = 'model-hub' ORDER BY id")
    assert [tuple(r) for r in rows] == [("failed", runs.INTERRUPTED), ("completed", None)]


def test_the_lock_is_per_source_and_curation_has_one(app):
    db = app.config["DATABASE"]
    held = SourceLock(db, "curation")
    assert held.acquire()
    try:
        assert not SourceLock(db, "curation").acquire()
        assert SourceLock(db, "model-hub").acquire() is True
    finally:
        held.release()


def _broken_parse(pages):
    return {}["missing"]


# `registry ingest` as cron runs it, in its own process, with a source whose parse has a bug.
BUGGY = textwrap.dedent("""
    import sys, types
    from registry.ingest import runner, sources
    from registry.cli import main

    def parse(pages):
        return {}["missing"]
    sources.load = lambda name: types.SimpleNamespace(SOURCE=name, PROVIDER=None, KEY_ENV=None,
                                                      KEY_REQUIRED=False, BASE_URL="", parse=parse)
    runner.fetch_pages = lambda *a, **k: []
    sys.argv = ["registry", "ingest", *sys.argv[1:]]
    main()
""")


@pytest.mark.slow
@pytest.mark.parametrize("args, traceback_shown", [
    (["--source", "model-hub"], False),
    (["--source", "model-hub", "--verbose"], True),
])
def test_an_unexpected_error_is_one_line_unless_verbose(app, rw, args, traceback_shown):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REGISTRY_DB": app.config["DATABASE"]}
    done = subprocess.run([sys.executable, "-c", BUGGY, *args], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[-1] == "model-hub: failed: KeyError: 'missing'"
    assert ("Traceback (most recent call last)" in done.stderr) is traceback_shown
    assert len(lines) == 1 or traceback_shown, done.stderr
    row = rw.execute("SELECT status, error_message FROM ingestion_runs WHERE source = 'model-hub'").fetchone()
    assert tuple(row) == ("failed", "KeyError: 'missing'")


def _broken_parse(pages):
    return {}["missing"]


def test_the_admin_trigger_logs_the_traceback(app, rw, monkeypatch, caplog):
    module = fakes.fake_module("model-hub", None)
    module.parse = _broken_parse
    fakes.install(monkeypatch, {"model-hub": module})
    app.config["ADMIN_API_KEYS"] = ["k"]
    app.config["INGEST_MEMORY_MB"] = 0   # in this process, where the fake source is installed
    response = app.test_client().post("/api/v1/admin/ingest/model-hub", headers={"Authorization": "Bearer k"})
    assert response.status_code == 202
    run_id = response.get_json()["ingestion_run"]["id"]
    deadline = time.time() + 60
    while rw.execute("SELECT status FROM ingestion_runs WHERE id = ?", (run_id,)).fetchone()[0] == "running":
        assert time.time() < deadline
        time.sleep(0.05)
    deadline = time.time() + 10     # the log line follows the row's commit
    while "Traceback" not in caplog.text and time.time() < deadline:
        time.sleep(0.05)
    assert f"model-hub run {run_id} failed: KeyError: 'missing'" in caplog.text
    assert "Traceback (most recent call last)" in caplog.text


@pytest.mark.parametrize("url, says", [
    ("http://registry-upstream.invalid/v1/models", "cannot reach registry-upstream.invalid after retries: its name"
                                                   " does not resolve (no network, or no DNS)"),
    ("http://127.0.0.1:9/v1/models", "cannot connect after retries: Connection refused"),
])
def test_an_unreachable_upstream_is_said_once_in_words(url, says, caplog):
    """Issue 44: no network printed three urllib3 retry warnings of ~400 characters per source, then the chain."""
    import logging

    from registry.ingest.http import get_json, make_session
    from registry.ingest.records import SourceError
    caplog.set_level(logging.INFO)
    with pytest.raises(SourceError) as failed:
        get_json(make_session(retries=2, backoff=0), url)
    assert str(failed.value) == f"GET {url}: {says}"
    assert [r for r in caplog.records if r.name.startswith("urllib3")] == []

"""A kill -9 in the middle of a run leaves the database intact, and the next run succeeds."""
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
from registry.ingest.runner import run_source

# The child runs a real ingest of a big hub listing through the real runner; it touches
# a marker file when parsing ends, i.e. when the write transaction is about to start.
CHILD = textwrap.dedent("""
    import sys, types
    from pathlib import Path
    from registry.ingest import runner, sources
    from registry.ingest.records import Record

    db, marker = sys.argv[1], Path(sys.argv[2])

    def parse(pages):
        records = [Record(f"Llama-9-{i}B-Instruct", "meta",
                          {"parameter_count": i * 10**9, "release_date": "2026-01-01", "tags": ["x"] * 5},
                          [(f"Llama-9-{i}B-Instruct", "official")]) for i in range(1, 30001)]
        marker.touch()
        return records

    module = types.SimpleNamespace(SOURCE="model-hub", PROVIDER=None, KEY_ENV=None, KEY_REQUIRED=False,
                                   BASE_URL="", fetch=lambda *a: [], parse=parse)
    sources.load = lambda name: module
    runner.fetch_pages = lambda *a, **k: []
    print(runner.run_source(db, "model-hub"))
""")


@pytest.mark.parametrize("delay", [0.0, 0.3, 1.0])
def test_kill_mid_run_then_recover(app, tmp_path, monkeypatch, delay):
    db = app.config["DATABASE"]
    marker = tmp_path / "parsed"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, db, str(marker)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while not marker.exists():
        assert child.poll() is None, child.stderr.read().decode()
        assert time.time() < deadline
        time.sleep(0.01)
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait()

    conn = sqlite3.connect(db, isolation_level=None)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("INSERT INTO search_fts(search_fts) VALUES ('integrity-check')")
    models = conn.execute("SELECT count(*) FROM models").fetchone()[0]
    assert models in (9, 9 + 30000)         # all of the run or none of it
    stuck = conn.execute("SELECT status FROM ingestion_runs WHERE source = 'model-hub'").fetchall()
    assert stuck in ([("running",)], [("completed",)])

    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})
    result = run_source(db, "model-hub")
    assert result.status == "completed"
    runs = conn.execute("SELECT status, error_message FROM ingestion_runs WHERE source = 'model-hub'"
                        " ORDER BY id").fetchall()
    if stuck == [("running",)]:
        assert runs[0][0] == "failed" and "interrupted" in runs[0][1]
    assert runs[-1] == ("completed", None)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("INSERT INTO search_fts(search_fts) VALUES ('integrity-check')")

"""Issue 15, item 4: a full, read-only or not-writable disk gives one clear line per failure naming
the cause and the path, exit 1, every source still tried, no run left 'running' unless the message
says nothing could be written, a JSON 503 from the admin trigger, and the data untouched."""
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from disks import no_new_files, refusing, tmpfs
from servers import Server, registry_command, server_env
from helpers import DATA, assert_error, build_db
from registry import create_app
from registry.web.connection import close_thread_connections
from registry.fields import AUTOMATED_SOURCES

ROOT = Path(__file__).resolve().parents[1]
KEY = "disk-test-key"
# kind of refusal, tmpfs room beyond the db (KB), what every line must say (the path is appended)
CASES = [
    ("full", 64, "disk full writing {db}"),           # run rows fit, a source's facts do not
    ("full", 16, "disk full writing {db}"),           # not even the -wal and -shm files fit
    ("read-only", 0, "read-only file system writing {db}"),
    ("not-writable", 0, "directory {dir} not writable: cannot create"),
]
LINE = re.compile(r"^(schema|[a-z-]+): failed: (.+)$")


@pytest.fixture
def built_db(tmp_path):
    path = tmp_path / "built" / "registry.db"
    path.parent.mkdir()
    build_db(path, DATA / "curation")
    return path


def snapshot(db: Path) -> dict:
    """The data a run could change (everything but the run rows), read without writing anything."""
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
                for table in ("models", "aliases", "facts", "families", "providers", "registry_state")}
    finally:
        conn.close()


def runs(db: Path, live: bool = False) -> list:
    """The run rows; live: read through the WAL a running server keeps, else without writing anything."""
    conn = sqlite3.connect(f"file:{db}?{'mode=ro' if live else 'immutable=1'}", uri=True)
    try:
        return conn.execute("SELECT source, status, error_message FROM ingestion_runs"
                            " WHERE source != 'curation' ORDER BY id").fetchall()
    finally:
        conn.close()


def cli(*args, db: Path):
    env = {**os.environ, "REGISTRY_DB": str(db), "REGISTRY_SEEDS_DIR": str(ROOT / "seeds"),
           "REGISTRY_CURATION_DIR": str(DATA / "curation"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "flask", "--app", "registry", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def cli_on_refusing_disk(tmp_path, built_db, kind, room_kb, *args):
    """The CLI run on a copy of built_db on a refusing disk: (fs, db, result, rows before, rows after, runs)."""
    with refusing(kind, tmp_path / "fs", {"registry.db": built_db}, room_kb) as fs:
        db = fs / "registry.db"
        before = snapshot(db)
        done = cli(*args, db=db)
        return fs, db, done, before, snapshot(db), runs(db)


@pytest.mark.slow
@pytest.mark.parametrize("kind, room_kb, cause", CASES)
def test_ingest_on_a_refusing_disk(tmp_path, built_db, kind, room_kb, cause):
    fs, db, done, before, after, after_runs = cli_on_refusing_disk(tmp_path, built_db, kind, room_kb,
                                                                   "ingest", "--offline")
    expected = cause.format(db=db, dir=fs)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert all(LINE.match(line) for line in lines), lines
    named = [LINE.match(line).group(1) for line in lines if not line.startswith("schema:")]
    recorded = {source: (status, message) for source, status, message in after_runs}
    completed = [s for s in AUTOMATED_SOURCES if recorded.get(s, ("",))[0] == "completed"]
    assert sorted(named + completed) == sorted(AUTOMATED_SOURCES)   # every source tried, once
    assert named and all(expected in line for line in lines), lines
    for line in lines:
        source, message = LINE.match(line).groups()
        if source == "schema":
            continue
        if "no run recorded" in message:
            assert source not in recorded
        elif "stays 'running'" in message:
            assert recorded[source][0] == "running"
        else:
            assert recorded[source] == ("failed", message)
    if not completed:
        assert after == before


@pytest.mark.slow
@pytest.mark.parametrize("kind, room_kb, cause", [case for case in CASES if case[:2] != ("full", 64)])
def test_curate_on_a_refusing_disk(tmp_path, built_db, kind, room_kb, cause):
    # even with nothing to change, its run row has to be written
    fs, db, done, before, after, _ = cli_on_refusing_disk(tmp_path, built_db, kind, room_kb, "curate")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert cause.format(db=db, dir=fs) in done.stderr
    assert after == before


@pytest.mark.slow
def test_curation_with_nothing_to_change_needs_room_only_for_its_run_rows(tmp_path, built_db):
    # Unchanged facts are not written again (merge/facts.py): where the run rows fit, the run completes.
    _, _, done, before, after, _ = cli_on_refusing_disk(tmp_path, built_db, "full", 64, "curate")
    assert done.returncode == 0, done.stderr
    assert {k: v for k, v in after.items() if k != "registry_state"} == {
        k: v for k, v in before.items() if k != "registry_state"}   # the run's data generation aside


@pytest.mark.slow
@pytest.mark.parametrize("kind, room_kb, cause", [case for case in CASES if case[0] != "full"])
def test_admin_trigger_answers_503_with_the_reason(tmp_path, built_db, kind, room_kb, cause):
    with refusing(kind, tmp_path / "fs", {"registry.db": built_db}, room_kb) as fs:
        app = create_app({"TESTING": True, "DATABASE": str(fs / "registry.db"), "ADMIN_API_KEYS": [KEY],
                          "OFFLINE": True, "SEEDS_DIR": str(ROOT / "seeds")})
        try:
            response = app.test_client().post("/api/v1/admin/ingest/vendor-a-api",
                                              headers={"Authorization": f"Bearer {KEY}"})
        finally:
            close_thread_connections()
    body = assert_error(response, 503, "service_unavailable", "vendor-a-api.lock")
    assert cause.format(db=fs / "registry.db", dir=fs).split(" writing ")[0] in body["error"]["message"]
    assert "X-RateLimit-Limit" in response.headers


@pytest.mark.slow
def test_a_refused_lock_file_still_records_a_failed_run(tmp_path, built_db):
    # The db and its -wal/-shm exist and stay writable (a server holds them open), but no new file
    # can be made beside them: the run cannot make its lock file, and a failed run row says so.
    db = tmp_path / "live" / "registry.db"
    db.parent.mkdir()
    db.write_bytes(built_db.read_bytes())
    holder = sqlite3.connect(db)
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("SELECT count(*) FROM models").fetchone()
    try:
        with no_new_files(db.parent):
            done = cli("ingest", "--offline", "--source", "vendor-a-api", db=db)
    finally:
        holder.close()
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    message = done.stderr.split(": failed: ", 1)[1].strip()
    assert message == f"directory {db.parent} not writable: cannot create {db}.vendor-a-api.lock"
    assert runs(db) == [("vendor-a-api", "failed", message)]


@pytest.mark.slow
@pytest.mark.parametrize("kind, room_kb", [("not-writable", 0), ("full", 96)])
def test_admin_trigger_on_a_real_server(tmp_path, built_db, kind, room_kb):
    # A real `registry serve` whose disk starts refusing while it runs: the trigger answers a JSON 503
    # when the run cannot start; a run that started and then met a full disk ends failed saying so.
    with tmpfs(tmp_path / "fs", os.path.getsize(built_db) // 1024 + room_kb + (4096 if kind != "full" else 0)) as fs:
        db = fs / "registry.db"
        db.write_bytes(built_db.read_bytes())
        server = Server(registry_command(), server_env(db, ADMIN_API_KEY=KEY, REGISTRY_OFFLINE=1,
                                                       REGISTRY_SEEDS_DIR=ROOT / "seeds"), tmp_path / "serve.log")
        try:
            server.wait_ready()
            post = lambda: requests.post(f"{server.url}/api/v1/admin/ingest/model-hub",  # noqa: E731
                                         headers={"Authorization": f"Bearer {KEY}"}, timeout=30)
            if kind == "not-writable":
                with no_new_files(fs):
                    response = post()
                assert response.status_code == 503, response.text
                assert response.headers["Content-Type"] == "application/json"
                assert "X-RateLimit-Remaining" in response.headers
                message = response.json()["error"]["message"]
                assert response.json()["error"]["code"] == "service_unavailable"
                assert message == (f"Cannot start a run of model-hub: directory {fs} not writable:"
                                   f" cannot create {db}.model-hub.lock.")
                expected = ("failed", message.removeprefix("Cannot start a run of model-hub: ").rstrip("."))
            else:
                response = post()
                assert response.status_code == 202, response.text
                expected = ("failed", f"disk full writing {db}")
            deadline = time.monotonic() + 60
            while (row := runs(db, live=True)[-1:]) and row[0][1] == "running":
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.1)
            assert runs(db, live=True) == [("model-hub", *expected)]
            assert server.get("/api/v1/providers").status_code == 200    # still serving
        finally:
            server.stop()


def test_a_refused_snapshot_write_names_the_snapshot_file_and_leaves_the_old_one(tmp_path, monkeypatch):
    # `ingest --record` writes each page through a temporary file beside it: the message names the page.
    import errno
    from registry.ingest.records import Page
    from registry.ingest.snapshots import save_pages
    from registry.storage import StorageError
    page = tmp_path / "vendor-b-api" / "page-001.json"
    save_pages(str(tmp_path), "vendor-b-api", [Page({"data": []})])
    before = page.read_bytes()

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", src)
    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(StorageError, match=re.escape(f"disk full writing {page}")):
        save_pages(str(tmp_path), "vendor-b-api", [Page({"data": [{"id": "x"}]})])
    assert page.read_bytes() == before
    assert sorted(p.name for p in page.parent.iterdir()) == ["page-001.json"]

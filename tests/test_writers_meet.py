"""Two writers meet (issue 44): a cron-style `registry ingest` started while another process holds the write lock
waits its turn within REGISTRY_WRITE_WAIT_MS and then says so in words; real processes, a real SQLite lock."""
import subprocess
import sys
import textwrap
import time

from pathlib import Path

import pytest

from servers import registry_command, server_env

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
HOLD = textwrap.dedent("""
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")            # what a run's write transaction holds
    conn.execute("UPDATE registry_state SET value = value WHERE key = 'generation'")
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    conn.execute("COMMIT")
""")


@pytest.fixture(scope="module")
def db_path(module_db):
    return module_db


@pytest.mark.parametrize("hold_seconds, wait_ms, ends, says", [
    (3, 20000, 0, "vendor-b-api: completed"),          # held for a normal run's while: waits, then runs
    (4, 1000, 1, "another writer held the database longer than this one waits (1 s, REGISTRY_WRITE_WAIT_MS)"),
])
def test_a_writer_that_meets_another_waits_its_turn_then_says_so(db_path, hold_seconds, wait_ms, ends, says):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db_path), str(hold_seconds)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        started = time.monotonic()
        env = server_env(db_path, REGISTRY_WRITE_WAIT_MS=wait_ms, REGISTRY_SEEDS_DIR=SEEDS)
        done = subprocess.run([*registry_command(), "ingest", "--offline", "--source", "vendor-b-api"], env=env,
                              capture_output=True, text=True, timeout=120)
    finally:
        holder.wait(timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode == ends and says in output, output
    assert "database is locked" not in output and "Traceback" not in output
    if ends == 0:
        assert time.monotonic() - started >= hold_seconds - 1   # it waited for the other writer

"""Past one machine, as far as one machine can show it: two `serve` processes read one db file while
an ingest writes it; every request during the write succeeds and both serve the new data after."""
import subprocess
import threading
import time

import pytest

from helpers import build_db
from servers import ROOT, Server, registry_command, server_env

NEW_MODEL = "claude-opus-4-5-20251101"    # only vendor-b-api's snapshot knows it, not the fixture curation


@pytest.fixture
def two_servers(tmp_path, curation_dir):
    db_path = tmp_path / "registry.db"
    build_db(db_path, curation_dir)
    env = server_env(db_path)
    servers = [Server(registry_command(), env, tmp_path / f"serve-{i}.log") for i in (1, 2)]
    try:
        for server in servers:
            server.wait_ready()
        yield db_path, env, servers
    finally:
        for server in servers:
            server.stop()


def total(server) -> int:
    response = server.get("/api/v1/models", per_page=1)
    assert response.status_code == 200, response.text
    return response.json()["pagination"]["total"]


def test_two_servers_on_one_db_serve_what_an_ingest_wrote(two_servers):
    db_path, env, servers = two_servers
    before = [total(s) for s in servers]
    assert before[0] == before[1]
    assert all(s.get("/api/v1/resolve", q=NEW_MODEL).status_code == 404 for s in servers)

    # Both keep answering while the ingest holds the write lock (WAL: readers never wait for it).
    statuses, stop = [], threading.Event()

    def keep_asking():
        while not stop.is_set():
            for server in servers:
                statuses.append(server.get("/api/v1/resolve", q="claude-3-5-sonnet-latest").status_code)
            time.sleep(0.01)

    asker = threading.Thread(target=keep_asking)
    asker.start()
    try:
        ingest = subprocess.run([*registry_command(), "ingest", "--offline"], cwd=ROOT, capture_output=True,
                                text=True, timeout=120, env={**env, "REGISTRY_SEEDS_DIR": str(ROOT / "seeds")})
    finally:
        stop.set()
        asker.join()
    assert ingest.returncode == 0, ingest.stderr
    assert statuses and set(statuses) == {200}, statuses

    # Another process's write shows within REGISTRY_DATA_RECHECK_MS (1 s by default) of its commit.
    time.sleep(1.05)
    after = [total(s) for s in servers]
    assert after[0] == after[1] > before[0]
    found = [s.get("/api/v1/resolve", q=NEW_MODEL) for s in servers]
    assert [r.status_code for r in found] == [200, 200]
    assert found[0].json() == found[1].json()
    assert found[0].json()["matched_model"]["slug"] == NEW_MODEL

"""The one-file build: `make dist` makes dist/registry.pyz, which carries the real schema.sql and runs
init-db, curate, ingest and serve on a host with only python3 (built once per session, ~5-60 s)."""
import os
import shutil
import subprocess
import time
import zipfile

import pytest

from helpers import DATA
from servers import ROOT, Server, server_env

pytestmark = pytest.mark.slow    # `make test` runs it; `pytest -m "not slow"` leaves it out


@pytest.fixture(scope="module")
def pyz(tmp_path_factory):
    """Build the file with `make dist` into a temp dir (needs PyPI, or pip's cache, for the dependencies)."""
    target = tmp_path_factory.mktemp("dist") / "registry.pyz"
    started = time.monotonic()
    try:
        build = subprocess.run(["make", "-C", str(ROOT), "dist", f"DIST={target}"], capture_output=True,
                               text=True, timeout=600)
    except FileNotFoundError:
        pytest.fail("`make` is not installed; the one-file build is made by `make dist`")
    if build.returncode != 0:
        pytest.fail("`make dist` failed. It needs PyPI (or pip's cache) to collect the dependencies, "
                    "so a machine without network cannot build the file.\n"
                    + (build.stdout + build.stderr)[-3000:], pytrace=False)
    print(f"make dist: {time.monotonic() - started:.1f} s, {target.stat().st_size / 1e6:.1f} MB")
    return target


@pytest.fixture(scope="module")
def host(tmp_path_factory, pyz):
    """A host directory: the file, curation/ and seeds/ next to it (the defaults), a private SHIV_ROOT."""
    directory = tmp_path_factory.mktemp("host")
    (directory / "curation").symlink_to(ROOT / "curation")
    (directory / "seeds").symlink_to(ROOT / "seeds")
    env = server_env(directory / "registry.db", SHIV_ROOT=directory / ".shiv")
    del env["REGISTRY_DB"]                  # the default, ./registry.db, next to the file
    return directory, env


def run(pyz, host, *args, **extra_env):
    directory, env = host
    return subprocess.run([str(pyz), *args], cwd=directory, env={**env, **extra_env}, capture_output=True,
                          text=True, timeout=120)


def test_the_file_carries_the_real_schema_and_nothing_from_tests(pyz):
    assert os.access(pyz, os.X_OK)
    assert pyz.read_bytes().startswith(b"#!/usr/bin/env python3.")
    with zipfile.ZipFile(pyz) as archive:
        names = archive.namelist()
        assert archive.read("site-packages/registry/schema.sql") == (ROOT / "schema.sql").read_bytes()
    assert "site-packages/registry/serve/server.py" in names
    # the Redis client the multi-host setup needs (RATELIMIT_STORAGE_URI=redis://...), issue 44
    assert "site-packages/redis/__init__.py" in names
    # Every data file of the package ships too (package_data in setup.cfg), not only schema.sql.
    data_files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "registry").rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert [f for f in data_files if f"site-packages/{f}" not in names] == []
    assert not [n for n in names if n.startswith("site-packages/tests/") or "__pycache__" in n]
    assert pyz.stat().st_size < 20_000_000


# Run in order on one host: each command builds on the last (a fresh db, then curated, then ingested).
COMMANDS = [
    (["init-db"], "Initialized the database at ./registry.db"),
    (["curate", "--check"], "models"),
    (["curate"], "Curation applied"),
    # one source: ingest runs from the file (every source's own run is tests/test_offline_cycle.py's)
    (["ingest", "--offline", "--source", "vendor-b-api"], "vendor-b-api: completed"),
    (["init-db"], "Initialized"),           # again: nothing to migrate
]


def test_every_command_runs_from_the_file(pyz, host):
    for args, expected in COMMANDS:
        result = run(pyz, host, *args)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
        assert expected in result.stdout, (args, result.stdout)
        assert "Traceback" not in result.stderr
    assert (host[0] / "registry.db").stat().st_size > 100_000


def test_directories_come_from_the_environment(pyz, host):
    result = run(pyz, host, "curate", "--check", REGISTRY_CURATION_DIR=str(DATA / "curation"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(str(DATA / "curation")) and "2 providers" in result.stdout


def test_the_file_serves(pyz, host):
    directory, env = host
    if not (directory / "registry.db").exists():     # run on its own: curate makes and fills the db
        assert run(pyz, host, "curate").returncode == 0
    server = Server([str(pyz)], env, directory / "serve.log", cwd=directory)
    try:
        server.wait_ready()
        response = server.get("/api/v1/resolve", q="us.anthropic.claude-3-5-sonnet-20241022-v2:0")
        assert response.status_code == 200, response.text
        assert response.json()["matched_model"]["slug"] == "claude-3-5-sonnet-20241022"
    finally:
        server.stop()
    assert '"GET /api/v1/resolve' in server.log()    # the access log goes to stdout (journald under systemd)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed (.ci/run installs it)")
def test_the_file_counts_in_redis(pyz, host, tmp_path):
    """docs/running.md recommends Redis past one process: the file serves with it (issue 44: a 49-line
    traceback, the `redis` prerequisite missing)."""
    import socket

    import redis
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no"], cwd=tmp_path, stdout=subprocess.DEVNULL)
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=2)
    directory, env = host
    if not (directory / "registry.db").exists():
        assert run(pyz, host, "curate").returncode == 0
    server = Server([str(pyz)], {**env, "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{port}"},
                    directory / "serve-redis.log", cwd=directory)
    try:
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.1)
        server.wait_ready()
        assert server.get("/api/v1/providers").status_code == 200
        assert client.keys("*"), "no counter in Redis"
    finally:
        server.stop()
        store.terminate()
        store.wait(timeout=10)
    assert "Traceback" not in server.log() and "unreachable" not in server.log()

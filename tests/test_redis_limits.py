"""Two gunicorn processes sharing counters in a real redis-server enforce one budget.

.ci/run installs redis-server; elsewhere the test skips when it is absent.
"""
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from helpers import DATA, build_db

ROOT = Path(__file__).resolve().parents[1]
REDIS = shutil.which("redis-server")
pytestmark = pytest.mark.skipif(REDIS is None, reason="redis-server is not installed (.ci/run installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(probe, what: str, timeout: float = 20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            result = probe()
            if result:
                return result
        except (OSError, requests.RequestException):
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} did not come up within {timeout}s")


@pytest.fixture
def processes():
    """Start processes and stop (only) them afterwards."""
    started = []

    def start(args, **kwargs):
        proc = subprocess.Popen(args, stdout=kwargs.pop("log"), stderr=subprocess.STDOUT, **kwargs)
        started.append(proc)
        return proc
    yield start
    for proc in started:
        proc.terminate()
    for proc in started:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def redis_url(tmp_path, processes):
    import redis
    port = free_port()
    processes([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
              cwd=tmp_path, log=open(tmp_path / "redis.log", "w"))
    client = redis.Redis(host="127.0.0.1", port=port)
    wait_until(client.ping, "redis-server")
    yield f"redis://127.0.0.1:{port}", client
    client.close()


def start_gunicorn(processes, tmp_path, port, env):
    processes([sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
               "registry:create_app()"],
              cwd=ROOT, env={**env, "PORT": str(port)}, log=open(tmp_path / f"gunicorn-{port}.log", "w"))
    return f"http://127.0.0.1:{port}"


KEY = "redis-admin-key"
KEY_DIGEST = hashlib.sha256(KEY.encode()).hexdigest()


@pytest.mark.parametrize("path,headers,bucket", [
    ("/api/v1/providers", {}, "ip:127.0.0.1/public/"),
    ("/api/v1/admin/ingestion-runs", {"Authorization": f"Bearer {KEY}"}, f"key:{KEY_DIGEST}/admin/"),
])
def test_two_servers_share_one_budget_through_redis(tmp_path, processes, redis_url, path, headers, bucket):
    url, redis_client = redis_url
    db = tmp_path / "registry.db"
    build_db(db, DATA / "curation")
    env = {**os.environ, "HOST": "127.0.0.1", "REGISTRY_DB": str(db), "RATELIMIT_STORAGE_URI": url,
           "RATELIMIT_PUBLIC": "5/minute", "RATELIMIT_ADMIN": "5/minute", "WEB_CONCURRENCY": "1",
           "ADMIN_API_KEY": KEY}
    servers = [start_gunicorn(processes, tmp_path, free_port(), env) for _ in range(2)]
    session = requests.Session()
    session.trust_env = False   # no proxy from the environment between us and 127.0.0.1
    for server in servers:
        wait_until(lambda s=server: session.get(s + "/api/v1/providers", timeout=2).ok, server)
    redis_client.flushall()   # the readiness probes spent budget: start the window afresh

    # Spread over both processes: A, B, A, B, A, then B's answer is the sixth of one shared budget.
    answers = [session.get(servers[n % 2] + path, headers=headers, timeout=5) for n in range(6)]

    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0", "0"]
    assert {a.headers["X-RateLimit-Limit"] for a in answers} == {"5"}
    assert answers[5].json()["error"]["code"] == "rate_limited"
    assert 1 <= int(answers[5].headers["Retry-After"]) <= 60
    keys = [k.decode() for k in redis_client.keys("*")]
    assert keys == [f"LIMITS:LIMITER/registry/{bucket}5/1/minute"]   # one counter; never the raw key

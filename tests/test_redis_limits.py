"""Rate limits in a real redis-server: two gunicorn processes share one budget, and a frozen or
killed Redis neither hangs nor fails a request (docs/api-decisions.md, "Rate-limit storage").

.ci/run installs redis-server; elsewhere the tests skip when it is absent.
"""
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
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
    for proc in started:   # SIGINT: gunicorn's quick shutdown (SIGTERM waits out its clients' kept connections)
        proc.send_signal(signal.SIGINT)
    for proc in started:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class RedisServer:
    """One redis-server on a free port that a test can freeze, thaw, kill and start again."""

    def __init__(self, tmp_path, processes):
        import redis
        self.tmp_path, self.processes, self.port = tmp_path, processes, free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        # A short timeout: the test's own reads must not hang on a frozen server either.
        self.client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)
        self.start()

    def start(self):
        """Start redis-server (again, on the same port) and wait until it answers."""
        self.proc = self.processes(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.tmp_path, log=open(self.tmp_path / "redis.log", "a"))
        wait_until(self.client.ping, "redis-server")

    def signal(self, sig):
        """Send sig (SIGSTOP, SIGCONT, SIGKILL) to this redis-server, and only to it."""
        os.kill(self.proc.pid, sig)
        if sig == signal.SIGKILL:
            self.proc.wait(timeout=10)


@pytest.fixture
def redis_server(tmp_path, processes):
    server = RedisServer(tmp_path, processes)
    yield server
    if server.proc.poll() is None:
        server.signal(signal.SIGCONT)   # a frozen server would not see the fixture's SIGTERM
    server.client.close()


@pytest.fixture
def redis_url(redis_server):
    return redis_server.url, redis_server.client


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


def serve_against(tmp_path, processes, redis_server, **extra):
    """One gunicorn worker counting in redis_server, ready to answer; returns (base URL, session)."""
    db = tmp_path / "registry.db"
    build_db(db, DATA / "curation")
    env = {**os.environ, "HOST": "127.0.0.1", "REGISTRY_DB": str(db), "RATELIMIT_STORAGE_URI": redis_server.url,
           "RATELIMIT_PUBLIC": "100000/minute", "WEB_CONCURRENCY": "1", **extra}
    port = free_port()
    server = start_gunicorn(processes, tmp_path, port, env)
    session = requests.Session()
    session.trust_env = False
    wait_until(lambda: session.get(server + "/api/v1/providers", timeout=2).ok, server)
    return server, session


def redis_count(redis_server) -> int:
    """The public counter of 127.0.0.1 in Redis (0 when the window has none)."""
    return int(redis_server.client.get("LIMITS:LIMITER/registry/ip:127.0.0.1/public/100000/1/minute") or 0)


def assert_json_200(answer):
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("application/json")
    assert answer.json()["providers"]


def gunicorn_log(tmp_path) -> str:
    return "".join(p.read_text() for p in tmp_path.glob("gunicorn-*.log"))


def test_a_frozen_redis_neither_hangs_nor_fails_requests_and_counting_returns(tmp_path, processes, redis_server):
    server, session = serve_against(tmp_path, processes, redis_server)
    before = redis_count(redis_server)
    assert before >= 1   # the readiness probe was counted in Redis

    redis_server.signal(signal.SIGSTOP)
    try:
        # Sequential, then eight at once (the worker's threads): every one answers, none waits on Redis.
        answers = [session.get(server + "/api/v1/providers", timeout=10) for _ in range(5)]
        with requests.Session() as parallel:
            parallel.trust_env = False
            threads, results = [], []
            for _ in range(8):
                thread = threading.Thread(target=lambda: results.append(
                    parallel.get(server + "/api/v1/providers", timeout=10)))
                thread.start()
                threads.append(thread)
            for thread in threads:
                thread.join(timeout=30)
        answers += results
    finally:
        redis_server.signal(signal.SIGCONT)

    assert len(answers) == 13
    for answer in answers:
        assert_json_200(answer)
    assert all("X-RateLimit-Remaining" in a.headers for a in answers[:5])   # counted in-process meanwhile

    # Back: within the fallback's re-check interval (seconds, doubling while Redis stays away) the
    # counters live in Redis again. The commands that timed out reach Redis on SIGCONT, so start
    # from an empty store: any count in it now is a request counted there after the thaw.
    time.sleep(0.5)
    redis_server.client.flushall()
    wait_until(lambda: session.get(server + "/api/v1/providers", timeout=10).ok
               and redis_count(redis_server) > 0, "counting in Redis", timeout=90)
    log = gunicorn_log(tmp_path)
    assert log.count("Rate limit storage unreachable") == 1, log   # logged once for the outage
    assert "Rate limit storage recovered" in log
    assert "Traceback" not in log


KILLS = 2   # each kill under load, a second on the fallback, Redis back: twice shows the fallback comes and goes


def test_killing_redis_during_a_burst_fails_no_request(tmp_path, processes, redis_server):
    server, _ = serve_against(tmp_path, processes, redis_server)
    stop, statuses, failures = threading.Event(), [], []

    def client():
        with requests.Session() as session:
            session.trust_env = False
            while not stop.is_set():
                try:
                    answer = session.get(server + "/api/v1/providers", timeout=10)
                    statuses.append(answer.status_code)
                    if answer.status_code != 200:
                        failures.append(answer.text[:300])
                except requests.RequestException as err:
                    failures.append(repr(err))

    clients = [threading.Thread(target=client) for _ in range(8)]
    for thread in clients:
        thread.start()
    try:
        for _ in range(KILLS):   # kill under load, let it run on the fallback, bring Redis back
            time.sleep(1.0)
            redis_server.signal(signal.SIGKILL)
            time.sleep(1.0)
            redis_server.start()
        time.sleep(1.0)
    finally:
        stop.set()
        for thread in clients:
            thread.join(timeout=30)

    assert len(statuses) > 100   # a real burst reached the server
    assert failures == []
    assert set(statuses) == {200}
    log = gunicorn_log(tmp_path)
    assert 1 <= log.count("Rate limit storage unreachable") <= KILLS, log   # at most once per kill
    assert "Traceback" not in log

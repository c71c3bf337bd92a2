"""The rate-limit store's bounds (registry/web/limit_storage.py): timeouts for Redis, one log per outage,
a budget that still holds in-process while Redis cannot be reached (no redis-server needed here;
tests/test_redis_limits.py freezes and kills a real one), and in-memory counters swept without threads."""
import logging
import socket
import threading
import time

import pytest

from helpers import assert_error
from registry.web import limit_storage
from registry.web.limit_storage import OutageLog, SweptMemoryStorage, storage_options, storage_uri


@pytest.mark.parametrize("uri, timeout_ms, expected", [
    ("memory://", 250, {}),
    ("redis://127.0.0.1:6379", 250, {"socket_timeout": 0.25, "socket_connect_timeout": 0.25}),
    ("rediss://cache.internal:6380/2", 100, {"socket_timeout": 0.1, "socket_connect_timeout": 0.1}),
    ("redis+unix:///run/redis.sock", 500, {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}),
    ("redis+sentinel://a:26379,b:26379/mymaster", 250, {"socket_timeout": 0.25, "socket_connect_timeout": 0.25}),
    ("valkey://127.0.0.1:6379", 1000, {"socket_timeout": 1.0, "socket_connect_timeout": 1.0}),
    ("memcached://127.0.0.1:11211", 250, {}),
])
def test_storage_options_bound_every_redis_call(uri, timeout_ms, expected):
    assert storage_options(uri, timeout_ms) == expected


@pytest.mark.parametrize("uri, opened", [
    ("memory://", "registry+memory://"),
    ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379"),
    ("memcached://127.0.0.1:11211", "memcached://127.0.0.1:11211"),
])
def test_memory_counters_are_the_swept_ones(uri, opened):
    assert storage_uri(uri) == opened


def test_counting_in_memory_starts_no_thread(app, monkeypatch):
    """limits' MemoryStorage started a Timer thread on the first count 10 ms after the last one ran:
    a hundred threads a second under load, each count that started one waiting for it."""
    client = app.test_client()
    client.get("/api/v1/providers")
    time.sleep(0.05)   # the first Timer (started when the storage was made) has run and ended
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread))
    for _ in range(3):
        assert client.get("/api/v1/providers").status_code == 200
        time.sleep(0.02)
    assert started == []


@pytest.mark.parametrize("sweep_seconds, expired_kept", [
    (0.0, False),    # the next count sweeps: the counter of a client that stopped sending is freed
    (60.0, True),    # within a sweep interval it stays until read (and a read resets it, as before)
])
def test_expired_counters_are_swept_by_a_count(monkeypatch, sweep_seconds, expired_kept):
    monkeypatch.setattr(limit_storage, "SWEEP_SECONDS", sweep_seconds)
    storage = SweptMemoryStorage()
    storage.incr("gone", 0.001)
    time.sleep(0.01)
    assert storage.incr("here", 60) == 1
    assert ("gone" in storage.storage) is expired_kept
    assert storage.get("gone") == 0


UNREACHABLE = "Rate limit storage unreachable - falling back to in-memory storage"
RECOVERED = "Rate limit storage recovered"
SWALLOWED = "Failed to rate limit. Swallowing error"


@pytest.mark.parametrize("messages, passed", [
    # Threads racing into one outage: one warning, the losers' swallowed errors are dropped.
    ([UNREACHABLE, UNREACHABLE, SWALLOWED, SWALLOWED, RECOVERED],
     [UNREACHABLE, RECOVERED]),
    # A second outage is a new event and is logged again.
    ([UNREACHABLE, RECOVERED, UNREACHABLE, SWALLOWED, RECOVERED],
     [UNREACHABLE, RECOVERED, UNREACHABLE, RECOVERED]),
    # Outside an outage nothing is hidden: a swallowed error then is a bug worth its traceback.
    ([SWALLOWED, "ratelimit 5 per 1 minute (ip:1.2.3.4) exceeded at endpoint: public"],
     [SWALLOWED, "ratelimit 5 per 1 minute (ip:1.2.3.4) exceeded at endpoint: public"]),
])
def test_an_outage_is_logged_once(messages, passed):
    outage_log = OutageLog(logging.getLogger("flask-limiter"))
    assert [m for m in messages if outage_log.passes(m)] == passed


@pytest.fixture(params=["refuses", "never accepts"])
def unreachable_redis(request):
    """A redis:// URI nothing answers at: a closed port, or a listener whose backlog is full (a
    connect there waits for the SYN to be retried: minutes without a connect timeout)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    held = []
    if request.param == "refuses":
        listener.close()
    else:
        listener.listen(0)
        filler = socket.create_connection(("127.0.0.1", port))   # takes the one backlog slot
        held.append(filler)
    yield f"redis://127.0.0.1:{port}"
    for sock in held:
        sock.close()
    listener.close()


def test_the_budget_holds_in_process_while_redis_cannot_be_reached(app, unreachable_redis):
    from registry import create_app
    config = {**app.config, "RATELIMIT_STORAGE_URI": unreachable_redis, "RATELIMIT_PUBLIC": "3/minute"}
    redis_app = create_app(config)
    answers = []

    def four_requests():
        client = redis_app.test_client()
        answers.extend(client.get("/api/v1/providers") for _ in range(4))

    worker = threading.Thread(target=four_requests, daemon=True)
    worker.start()
    worker.join(timeout=60)   # a generous bound: without a connect timeout this takes minutes
    assert not worker.is_alive(), "a request waited on the unreachable Redis"

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert answers[0].get_json()["providers"]
    assert_error(answers[3], 429, "rate_limited")

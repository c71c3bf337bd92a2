"""The rate-limit store (registry/web/limit_storage.py): timeouts for Redis, one log per outage, a budget that
still holds in-process while Redis cannot be reached (no redis-server needed here; tests/test_redis_limits.py
freezes and kills a real one), and in-memory counters swept without threads."""
import logging
import socket
import threading
import time

import pytest

from helpers import assert_error
from registry.web import limit_storage
from registry.web.limit_storage import (RECOVERED, UNREACHABLE, Counters, MemoryCounters, open_storage,
                                        storage_options)


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
    ("memory://", "MemoryCounters"),
    ("redis://127.0.0.1:6379", "RedisStorage"),
    ("memcached://127.0.0.1:11211", None),   # pymemcache is not installed: refused, saying why
])
def test_memory_counters_are_ours_and_the_rest_limits_own(uri, opened):
    if opened is None:
        with pytest.raises(ValueError, match="RATELIMIT_STORAGE_URI cannot be opened: 'pymemcache'"):
            open_storage(uri, 250)
    else:
        assert type(open_storage(uri, 250)).__name__ == opened


def test_a_store_limits_cannot_open_stops_the_app_at_startup(app):
    from registry import create_app
    with pytest.raises(ValueError, match="RATELIMIT_STORAGE_URI"):
        create_app({**app.config, "RATELIMIT_STORAGE_URI": "nosuchstore://here"})


def test_counting_in_memory_starts_no_thread(app, monkeypatch):
    """limits' MemoryStorage starts a Timer thread on the first count 10 ms after the last one ran:
    a hundred threads a second under load, each count that started one waiting for it."""
    client = app.test_client()
    client.get("/api/v1/providers")
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread))
    for _ in range(3):
        assert client.get("/api/v1/providers").status_code == 200
        time.sleep(0.02)
    assert started == []


# (seconds between sweeps, whether the counter of a client that stopped sending is still held after a count)
@pytest.mark.parametrize("sweep_seconds, expired_kept", [
    (0.0, False),    # the next count sweeps: the ended counter is freed
    (60.0, True),    # within a sweep interval it stays until read (and a read finds it ended)
])
def test_expired_counters_are_swept_by_a_count(monkeypatch, sweep_seconds, expired_kept):
    monkeypatch.setattr(limit_storage, "SWEEP_SECONDS", sweep_seconds)
    storage = MemoryCounters()
    storage.incr("gone", 0.001)
    time.sleep(0.01)
    assert storage.incr("here", 60) == 1
    assert ("gone" in storage.counters) is expired_kept
    assert storage.get("gone") == 0


class Flaky(MemoryCounters):
    """A store that fails while down is set (a Redis away), with the exception type a client library raises."""

    down = False

    @property
    def base_exceptions(self):
        return ConnectionError

    def incr(self, key, expiry, amount=1):
        if self.down:
            raise ConnectionError("store away")
        return super().incr(key, expiry, amount)

    def check(self):
        return not self.down


def test_an_outage_is_counted_in_memory_logged_once_and_ends_when_the_store_answers(monkeypatch, caplog):
    monkeypatch.setattr(limit_storage, "RETRY_SECONDS", (0,))
    store = Flaky()
    counters = Counters(store)
    store.down = True
    with caplog.at_level(logging.WARNING, logger="registry.rate_limits"):
        during = [counters.current() for _ in range(3)]
        fallbacks = {id(counters.failed(s, ConnectionError("away"))) for s in during}
        assert len(fallbacks) == 1 and counters.fallback is not None
        assert counters.current() is counters.fallback     # asked again, still away
        store.down = False
        assert counters.current() is store                 # asked again: back
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [UNREACHABLE, RECOVERED]


def test_an_error_that_is_no_stores_is_raised(app):
    counters = Counters(Flaky())
    assert counters.failed(counters.storage, KeyError("a bug of ours")) is None
    assert counters.fallback is None


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

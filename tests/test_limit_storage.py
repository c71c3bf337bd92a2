"""The rate-limit store's bounds (registry/web/limit_storage.py): timeouts for Redis, one log per outage,
and a budget that still holds in-process while Redis cannot be reached (no redis-server needed here;
tests/test_redis_limits.py freezes and kills a real one)."""
import logging
import socket
import threading

import pytest

from helpers import assert_error
from registry.web.limit_storage import OutageLog, storage_options


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

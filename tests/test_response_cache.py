"""Rendered public answers are reused until the data generation changes, and never bypass the limiter."""
import gc
import tracemalloc

import pytest

from registry import create_app
from registry.queries import catalog
from registry.web.response_cache import MAX_COMMON, ResponseCache, key as cache_key


@pytest.fixture
def counted(monkeypatch):
    """Count how often the model detail is computed from the database."""
    calls = []
    real = catalog.model_detail

    def spy(db, row, *parts):
        calls.append(row["slug"])
        return real(db, row, *parts)
    monkeypatch.setattr(catalog, "model_detail", spy)
    return calls


def test_repeated_get_is_served_from_the_cache(client, counted):
    first = client.get("/api/v1/models/claude-sonnet-4-20250514")
    second = client.get("/api/v1/models/claude-sonnet-4-20250514")
    assert first.get_data() == second.get_data()
    assert counted == ["claude-sonnet-4-20250514"]
    assert second.headers["ETag"] == first.headers["ETag"]


def test_a_write_run_invalidates(client, runner, curation_dir, counted):
    client.get("/api/v1/models/llama-3.1-70b-instruct")
    text = (curation_dir / "meta.yaml").read_text().replace("parameter_label: 70B", "parameter_label: 70.6B")
    (curation_dir / "meta.yaml").write_text(text)
    assert runner.invoke(args=["curate"]).exit_code == 0
    body = client.get("/api/v1/models/llama-3.1-70b-instruct").get_json()
    assert body["parameter_label"] == "70.6B"
    assert len(counted) == 2


def test_cached_answers_still_count_against_the_budget(app, monkeypatch):
    app.config["RATELIMIT_PUBLIC"] = "3/minute"
    client = app.test_client()
    remaining = [client.get("/api/v1/providers").headers.get("X-RateLimit-Remaining") for _ in range(3)]
    assert remaining == ["2", "1", "0"]
    assert client.get("/api/v1/providers").status_code == 429


def test_cached_answer_honours_if_none_match(client):
    etag = client.get("/api/v1/families").headers["ETag"]
    assert client.get("/api/v1/families", headers={"If-None-Match": etag}).status_code == 304
    assert client.get("/api/v1/families").status_code == 200


@pytest.mark.parametrize("url", ["/api/v1/models/nope", "/api/v1/models?per_page=0"])
def test_errors_are_not_kept(client, url, monkeypatch):
    cache = client.application.extensions["registry_response_cache"]
    client.get(url)
    assert cache.entries == {}


def _environ(path="/api/v1/models", query="", **extra):
    from werkzeug.test import EnvironBuilder
    environ = EnvironBuilder(path=path, query_string=query).get_environ()
    return {**environ, **extra}


def _without_host(**extra):
    environ = _environ(**extra)
    environ.pop("HTTP_HOST", None)
    return environ


# (case, a request's environ, another's, whether they share a key): the key is read from the raw environ
# (registry/web/response_cache.py key), and must part every two requests whose bodies can differ.
KEY_CASES = [
    ("same request", _environ(), _environ(), True),
    ("query", _environ(query="per_page=1"), _environ(query="per_page=2"), False),
    ("path", _environ("/api/v1/models/a"), _environ("/api/v1/models/b"), False),
    ("scheme (a trusted proxy's X-Forwarded-Proto)", _environ(), _environ(**{"wsgi.url_scheme": "https"}), False),
    ("host", _environ(HTTP_HOST="a.example"), _environ(HTTP_HOST="b.example"), False),
    ("no Host header: the server's address", _without_host(SERVER_PORT="80"), _without_host(SERVER_PORT="8000"),
     False),
    # an empty Host is answered 400, never kept; an HTTP/1.0 request without one never shares its key
    ("no Host header and an empty one", _without_host(), _environ(HTTP_HOST=""), False),
    ("no Host header and the server's name as Host", _without_host(SERVER_NAME="localhost", SERVER_PORT="80"),
     _environ(HTTP_HOST="localhost:80"), False),
    ("root path", _environ(SCRIPT_NAME="/registry"), _environ(), False),
    ("a page's format", _environ("/models/a", HTTP_ACCEPT="text/html"),
     _environ("/models/a", HTTP_ACCEPT="text/markdown"), False),
    ("an API answer's Accept does not matter", _environ(HTTP_ACCEPT="text/html"),
     _environ(HTTP_ACCEPT="application/json"), True),
]


@pytest.mark.parametrize("case, one, other, shared", KEY_CASES, ids=[c[0] for c in KEY_CASES])
def test_the_key_parts_requests_whose_answers_can_differ(case, one, other, shared):
    assert (cache_key(one, "2026-11-27") == cache_key(other, "2026-11-27")) is shared


def test_a_page_is_keyed_by_the_day_and_an_api_answer_is_not():
    page, answer = _environ("/models/a"), _environ("/api/v1/models/a")
    assert cache_key(page, "2026-11-27") != cache_key(page, "2026-11-28")
    assert cache_key(answer, "2026-11-27") == cache_key(answer, "2026-11-28")


def test_query_string_is_part_of_the_key(client):
    a = client.get("/api/v1/models?per_page=1").get_json()
    b = client.get("/api/v1/models?per_page=2").get_json()
    assert len(a["models"]) == 1 and len(b["models"]) == 2


@pytest.mark.parametrize("kept,asked", [
    ("/api/v1/resolve?q=claude-sonnet-4-20250514", "/api/v1/resolve?q=claude-sonnet-4-20250514%ff"),
    ("/api/v1/search?q=%c3%a9", "/api/v1/search?q=%c3"),
])
def test_a_kept_answer_never_answers_an_undecodable_query(client, kept, asked):
    # The query check runs after the cache lookup (web.install): only a query that passed it is kept.
    assert client.get(kept).status_code == 200 and client.get(kept).status_code == 200
    assert client.get(asked).status_code == 400


def test_zero_bytes_turns_it_off(app, counted):
    off = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "RESPONSE_CACHE_BYTES": 0})
    client = off.test_client()
    client.get("/api/v1/models/claude-sonnet-4-20250514")
    client.get("/api/v1/models/claude-sonnet-4-20250514")
    assert len(counted) == 2


UNIT = ResponseCache(1).cost("a", b"x" * 4, (), "")   # what one 4-byte answer under a one-letter key holds


@pytest.mark.parametrize("puts,max_bytes,kept", [
    ([("a", b"x" * 4), ("b", b"y" * 4)], 2 * UNIT, ["a", "b"]),
    ([("a", b"x" * 4), ("b", b"y" * 4), ("c", b"z" * 4)], 2 * UNIT, ["b", "c"]),   # least recently used goes
    ([("a", b"x" * 9)], 8, []),                                                     # bigger than the bound
    ([("a", b"x" * 4), ("a", b"y" * 6)], 2 * UNIT, ["a"]),                          # replaced, size recounted
    ([("a", b"x" * 4), ("b", b"y" * 4)], 2 * UNIT - 1, ["b"]),                     # the objects count too
])
def test_lru_bound(puts, max_bytes, kept):
    cache = ResponseCache(max_bytes)
    for key, body in puts:
        cache.put(key, 1, body)
    assert list(cache.entries) == kept
    assert cache.size == sum(cache.cost(k, cache.entries[k][1].body, (), "") for k in kept) <= max_bytes


@pytest.mark.parametrize("body_bytes", [300, 2000, 8000])
def test_budget_bounds_the_memory_entries_really_take(body_bytes):
    """The byte budget bounds what the kept answers take in memory (tracemalloc), not only their bodies:
    small JSON answers would otherwise take twice the budget."""
    budget = 4 * 1024 * 1024
    cache = ResponseCache(budget)
    for i in range(MAX_COMMON):   # the table of shared values is full (bounded apart from the budget)
        cache.shared(("Vary", f"v{i}"))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(2 * budget // body_bytes):
            key = ("http", "localhost", "", f"/api/v1/models/model-{i}", b"")
            headers = (("Content-Type", "application/json"), ("Content-Length", str(body_bytes)),
                       ("ETag", f'"{i:040x}"'))
            cache.put(tuple(map(cache.shared, key)), 1, bytes(body_bytes) + str(i).encode(),
                      tuple(map(cache.shared, headers)), etag=f"{i:040x}")
        taken = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert cache.size <= budget
    assert taken <= budget * 1.15   # (and the interpreter's free lists of tuples)


def test_the_bound_holds_what_is_shared_too():
    """Issue 44 hole 6: 4,200 distinct long queries (each key part shared as the server shares them) kept 32.5 MB
    under a 1 MB bound, the shared values uncounted. Everything kept is counted now (tracemalloc)."""
    budget = 1024 * 1024
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        cache = ResponseCache(budget)
        for i in range(4200):
            key = ("http", "localhost", "", "/api/v1/search", f"q={i}-" + "x" * 7000)
            headers = (("Content-Type", "application/json"), ("Content-Length", "40"))
            cache.put(tuple(map(cache.shared, key)), 1, b'{"results": [], "total": 0}' + str(i).encode(),
                      tuple(map(cache.shared, headers)))
        del key, headers
        gc.collect()   # what the loop left for the collector is not held
        taken = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert cache.size <= budget
    assert taken <= budget * 1.15, taken


def test_other_generation_is_a_miss():
    cache = ResponseCache(100)
    cache.put("a", 1, b"old")
    assert cache.get("a", 2) is None and cache.entries == {}


@pytest.mark.parametrize("recheck_ms, seconds_later, sees_the_write", [
    (1000, 0.5, False),   # within the window: the answer it already has
    (1000, 1.0, True),    # the window is over: the database is asked again
    (0, 0.0, True),       # 0: asked on every request
])
def test_another_processs_write_shows_within_the_recheck_window(app, counted, monkeypatch,
                                                                recheck_ms, seconds_later, sees_the_write):
    """Writes of another process (cron's ingest) show within REGISTRY_DATA_RECHECK_MS."""
    from registry.db import connect_rw, transaction
    from registry.web import connection
    clock = [1000.0]
    monkeypatch.setattr(connection.time, "monotonic", lambda: clock[0])
    app.config["DATA_RECHECK_MS"] = recheck_ms
    client = app.test_client()
    client.get("/api/v1/models/claude-sonnet-4-20250514")
    conn = connect_rw(app.config["DATABASE"])
    with transaction(conn):   # as another process would: not through this process's bump_generation
        conn.execute("UPDATE registry_state SET value = value + 1 WHERE key = 'generation'")
    conn.close()
    clock[0] += seconds_later
    client.get("/api/v1/models/claude-sonnet-4-20250514")
    assert len(counted) == (2 if sees_the_write else 1)


def test_a_page_rendered_across_midnight_is_not_kept(client, monkeypatch):
    """Issue 44: a page begun on one day and finished on the next was kept under the new day with the old
    day's countdowns."""
    from registry.web import response_cache
    days = iter(["2026-11-27", "2026-11-28", "2026-11-28", "2026-11-28"])
    monkeypatch.setattr(response_cache, "today", lambda: next(days))
    cache = client.application.extensions["registry_response_cache"]
    assert client.get("/deprecations").status_code == 200
    assert cache.entries == {}

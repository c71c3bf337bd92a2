"""Values kept per data generation (registry/generations.py, used by web/generation_memo.py): the same answers,
computed once per generation."""
import pytest

from registry import create_app
from registry.db import bump_generation, connect_rw, transaction
from registry.web.connection import close_thread_connections, thread_connection
from registry.generations import GenerationCache


@pytest.mark.parametrize("asks, computed", [
    ([(1, "a"), (1, "a")], [(1, "a")]),                          # kept for its generation
    ([(1, "a"), (1, "b"), (1, "a")], [(1, "a"), (1, "b")]),      # one entry per key
    ([(1, "a"), (2, "a"), (2, "a")], [(1, "a"), (2, "a")]),      # a newer generation forgets the old
    ([(2, "a"), (1, "a"), (1, "a"), (2, "a")], [(2, "a"), (1, "a"), (1, "a")]),   # an older one is not kept
])
def test_computed_once_per_generation_and_key(asks, computed):
    memo, calls = GenerationCache(16), []
    for generation, key in asks:
        value = memo.kept(key, generation, lambda g=generation, k=key: calls.append((g, k)) or f"{k}@{g}")
        assert value == f"{key}@{generation}"
    assert calls == computed


@pytest.mark.parametrize("keys, kept", [
    (["a", "b"], ["a", "b"]),
    (["a", "b", "c"], ["b", "c"]),          # the least recently used goes
    (["a", "b", "a", "c"], ["a", "c"]),     # a read makes it recent
])
def test_bounded(keys, kept):
    memo = GenerationCache(max_cost=2)
    for key in keys:
        memo.kept(key, 1, lambda k=key: k)
    assert list(memo.entries) == kept


@pytest.fixture
def uncached(tmp_path, app):
    """The app over its database with the response cache off: every /models answer is computed."""
    app = create_app({**app.config, "RESPONSE_CACHE_BYTES": 0, "DATA_RECHECK_MS": 0})
    yield app
    close_thread_connections()


def count_queries(app) -> list:
    """The count(*) statements the app's connection of this thread runs from now on."""
    seen = []
    thread_connection(app.config["DATABASE"]).set_trace_callback(
        lambda sql: seen.append(sql) if "count(*)" in sql else None)
    return seen


@pytest.mark.parametrize("urls, counts", [
    (["/api/v1/models?provider=meta", "/api/v1/models?provider=meta&page=2"], 1),   # every page, one total
    (["/api/v1/models?provider=meta", "/api/v1/models?provider=openai"], 2),
    (["/api/v1/models?status=deprecated", "/api/v1/models?status=deprecated&per_page=5",
      "/api/v1/models?status=latest"], 2),
])
def test_a_lists_total_is_counted_once_per_generation(uncached, urls, counts):
    client = uncached.test_client()
    seen = count_queries(uncached)
    for url in urls:
        assert client.get(url).status_code == 200
    assert len(seen) == counts


@pytest.mark.parametrize("urls", [
    ["/api/v1/models?provider=anthropic&per_page=1", "/api/v1/models?provider=anthropic&per_page=1&page=2"],
    ["/api/v1/models?status=active&sort=parameter_count&per_page=1", "/api/v1/models?status=latest&per_page=1"
     "&sort=parameter_count"],
])
def test_a_lists_plan_reads_the_number_of_models_once_per_generation(uncached, urls):
    # Whether a page walks the sort index or sorts its matches depends on how many models there are
    # (model_list._few): read once per generation with the counts, not once per request.
    client, seen = uncached.test_client(), []
    thread_connection(uncached.config["DATABASE"]).set_trace_callback(
        lambda sql: seen.append(sql) if "max(id)" in sql else None)
    for url in urls * 2:
        assert client.get(url).status_code == 200
    assert len(seen) == 1


def test_a_write_shows_in_the_total(uncached):
    client = uncached.test_client()
    before = client.get("/api/v1/models?provider=meta").get_json()["pagination"]["total"]
    conn = connect_rw(uncached.config["DATABASE"])
    with transaction(conn):
        conn.execute("DELETE FROM models WHERE id = (SELECT m.id FROM models m JOIN families f ON f.id = m.family_id"
                     " JOIN providers p ON p.id = f.provider_id WHERE p.slug = 'meta' LIMIT 1)")
        bump_generation(conn)
    conn.close()
    after = client.get("/api/v1/models?provider=meta").get_json()["pagination"]["total"]
    assert after == before - 1


def model_reads_by_id(app) -> list:
    """The full-row reads of a model by id (catalog.model_row) the app's connection of this thread runs from now on."""
    seen = []
    thread_connection(app.config["DATABASE"]).set_trace_callback(
        lambda sql: seen.append(sql) if "WHERE m.id = " in sql else None)
    return seen


@pytest.mark.parametrize("identifiers", [
    ["claude-sonnet-4-20250514", "claude-3-sonnet-20240229", "claude-sonnet-4-20250514"],   # one upgrade, shared
    ["claude-3-5-sonnet-20241022", "claude-3-sonnet-20240229", "claude-sonnet-4-5-20250929"],   # and a latest
])
def test_an_upgrade_is_read_once_per_generation(uncached, identifiers):
    client = uncached.test_client()
    first = [client.get(f"/api/v1/resolve?q={q}").get_json() for q in identifiers]
    upgrades = {a["upgrade"]["slug"] for a in first if a["upgrade"]}
    seen = model_reads_by_id(uncached)
    answers = [client.get(f"/api/v1/resolve?q={q}").get_json() for q in identifiers]
    assert answers == first and upgrades == {"claude-sonnet-4-5-20250929"}
    assert seen == []   # every upgrade was read by the first round
    conn = connect_rw(uncached.config["DATABASE"])
    with transaction(conn):
        bump_generation(conn)
    conn.close()
    assert [client.get(f"/api/v1/resolve?q={q}").get_json() for q in identifiers] == answers
    assert len(seen) == len(upgrades)   # a new generation reads each once again


def test_one_build_at_a_time_and_the_others_find_it_kept():
    import threading
    import time
    cache, built = GenerationCache(4), []

    def index():
        with cache.building("db"):
            if cache.get("db", 7) is None:
                built.append(threading.current_thread().name)
                time.sleep(0.05)   # a long build: the other thread waits for it
                cache.put("db", 7, "index@7")
        return cache.get("db", 7)

    results = []
    threads = [threading.Thread(target=lambda: results.append(index())) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert results == ["index@7", "index@7"] and len(built) == 1


@pytest.mark.parametrize("costs, kept", [
    ([("a", 3), ("b", 3)], ["a", "b"]),
    ([("a", 3), ("b", 3), ("c", 3)], ["b", "c"]),   # over the bound of 8: the least recently used goes
    ([("a", 9)], []),                              # one value costing more than the bound is never kept
])
def test_bounded_by_cost(costs, kept):
    cache = GenerationCache(max_cost=8)
    for key, cost in costs:
        cache.put(key, 1, key.upper(), cost)
    assert list(cache.entries) == kept and cache.size == 3 * len(kept)

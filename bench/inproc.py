"""In-process latency: every public read endpoint through the Flask test client, and resolve per stage.

The app is the real one (registry.create_app) with its limiter on (a budget too high to refuse,
so every request is still counted), the ETag hook and the error handlers: what a worker thread
does per request, minus the socket. Queries come from the database under test, so the same code
measures the curated registry and the synthetic ones.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "scripts"):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))

import bench_resolve  # noqa: E402  (scripts/bench_resolve.py: the per-stage query generator)
import bench_search   # noqa: E402  (scripts/bench_search.py: the search query mix)
from registry import create_app
from registry.resolve import cache as resolve_cache  # noqa: E402
from registry.db import connect_ro
from registry.web.connection import close_thread_connections  # noqa: E402

HIGH_BUDGET = "1000000000/minute"
ENDPOINTS = ("providers", "families", "family detail", "models page", "model detail", "upgrade", "history",
             "resolve", "search", "changes", "changes atom", "changes json", "calendar", "model page",
             "family page")
TEAM = 3   # the ids a team watches in a feed or calendar subscription
STAGES = ("exact", "normalized", "substring", "miss")
CONFIDENCE_STAGE = {1.0: "exact", 0.8: "normalized", 0.5: "substring"}


def percentile(values: list, p: float) -> float:
    """Nearest-rank percentile of a list (sorted here)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def summary(ms: list) -> dict:
    return {"n": len(ms), "p50": percentile(ms, 50), "p95": percentile(ms, 95), "p99": percentile(ms, 99),
            "max": max(ms)}


def make_app(db_path: Path):
    """The registry app over db_path, with a public budget no benchmark reaches."""
    return create_app({"DATABASE": str(db_path), "RATELIMIT_PUBLIC": HIGH_BUDGET, "ADMIN_API_KEYS": []})


def _path(endpoint: str, **params) -> str:
    return f"/api/v1/{endpoint}" + ("?" + urlencode(params) if params else "")


def _sample(conn, sql: str, n: int, rnd: random.Random) -> list:
    rows = [r[0] for r in conn.execute(sql)]
    return [rnd.choice(rows) for _ in range(n)] if rows else []


def resolve_queries(conn, index, n: int, rnd: random.Random) -> dict:
    """n queries per resolve stage, each checked to reach that stage (bench_resolve's generators)."""
    rows = resolve_cache.load_rows(conn)
    wanted = {stage: [] for stage in STAGES}
    for _ in range(20):
        batch = bench_resolve.queries(rows, rnd, max(n, 50))
        for qs in batch.values():
            for q in qs:
                if not q.strip() or len(q) > 200:
                    continue
                match = index.match(q)
                stage = CONFIDENCE_STAGE[match.confidence] if match else "miss"   # a typo is a 0.5 match
                if len(wanted[stage]) < n:
                    wanted[stage].append(q)
        if all(len(v) >= n for v in wanted.values()):
            break
    return wanted


def search_queries(conn, n: int, rnd: random.Random) -> list:
    """bench_search's mix (exact ids, names, squashed, prefixes while typing, broad words, misses)."""
    aliases = {}
    for model_id, alias, source in conn.execute("SELECT model_id, alias, source FROM aliases"):
        aliases.setdefault(model_id, []).append((alias, source))
    models = [(None, None, r[1], r[2], r[3], None, None, aliases.get(r[0], []))
              for r in conn.execute("SELECT id, slug, display_name, version FROM models")]
    return [q for _, q in bench_search.query_mix(models, n, rnd)]


def model_page_paths(conn, n: int, rnd: random.Random) -> list:
    """GET /models with the filters clients use: provider, family, status, open_source, sizes, sort, pages."""
    providers = [r[0] for r in conn.execute("SELECT slug FROM providers")]
    families = [r[0] for r in conn.execute("SELECT slug FROM families")]
    total = conn.execute("SELECT count(*) FROM models").fetchone()[0]
    paths = []
    for _ in range(n):
        kind = rnd.randrange(8)
        if kind == 0:
            params = {}
        elif kind == 1:
            params = {"provider": rnd.choice(providers)}
        elif kind == 2:
            params = {"provider": rnd.choice(providers), "status": rnd.choice(["active", "latest", "deprecated"])}
        elif kind == 3:
            params = {"family": rnd.choice(families)}
        elif kind == 4:
            params = {"status": rnd.choice(["latest", "active", "deprecated", "sunset"]), "per_page": 100}
        elif kind == 5:
            params = {"open_source": "true", "sort": "parameter_count"}
        elif kind == 6:
            params = {"min_params": 7_000_000_000, "max_params": 80_000_000_000, "sort": "parameter_count"}
        else:   # a deep page of the whole list
            params = {"page": rnd.randint(1, max(1, total // 50)), "per_page": 50}
        paths.append(_path("models", **params))
    return paths


def endpoint_paths(conn, index, n: int, rnd: random.Random) -> tuple[dict, dict]:
    """({endpoint: [path, ...]}, {resolve stage: [path, ...]})."""
    slug_sql = "SELECT slug FROM models"
    family_sql = "SELECT slug FROM families WHERE EXISTS (SELECT 1 FROM models m WHERE m.family_id = families.id)"
    stages = {stage: [_path("resolve", q=q) for q in qs]
              for stage, qs in resolve_queries(conn, index, n, rnd).items()}
    mixed = [p for stage in STAGES for p in stages[stage]]
    rnd.shuffle(mixed)
    families, slugs = _sample(conn, family_sql, n, rnd), _sample(conn, slug_sql, n, rnd)
    paths = {
        "providers": [_path("providers")] * n,
        "families": [_path("families")] * n,
        "family detail": ["/api/v1/families/" + quote(s) for s in families],
        "models page": model_page_paths(conn, n, rnd),
        "model detail": ["/api/v1/models/" + quote(s) for s in slugs],
        "upgrade": [f"/api/v1/models/{quote(s)}/upgrade" for s in _sample(conn, slug_sql, n, rnd)],
        "history": [f"/api/v1/models/{quote(s)}/history" for s in _sample(conn, slug_sql, n, rnd)],
        "resolve": mixed[:n],
        "search": [_path("search", q=q) for q in search_queries(conn, n, rnd)],
        # The pages for people (registry/pages/) of the same models and families, as a browser asks.
        "model page": ["/models/" + quote(s) for s in slugs],
        "family page": ["/families/" + quote(s) for s in families],
    }
    paths.update(feed_paths(conn, n, rnd))
    return paths, stages


def feed_paths(conn, n: int, rnd: random.Random) -> dict:
    """A team's subscriptions: the change list and both feeds for TEAM ids, the calendar for TEAM ids with dates,
    each id in one of its alias formats (resolved as /resolve does)."""
    aliases = "SELECT a.alias FROM aliases a JOIN models m ON m.id = a.model_id"
    every = _sample(conn, aliases, n * TEAM, rnd)
    dated = _sample(conn, aliases + " WHERE m.sunset_date IS NOT NULL OR m.deprecation_date IS NOT NULL",
                    n * TEAM, rnd)
    teams = [",".join(every[i:i + TEAM]) for i in range(0, len(every), TEAM)]
    dated_teams = [",".join(dated[i:i + TEAM]) for i in range(0, len(dated), TEAM)]
    return {"changes": [_path("changes", model=t.split(",")[0]) for t in teams],
            "changes atom": [_path("feeds/changes.atom", models=t) for t in teams],
            "changes json": [_path("feeds/changes.json", models=t) for t in teams],
            "calendar": [_path("feeds/lifecycle.ics", models=t) for t in dated_teams]}


def whole_calendar(db_path: Path) -> dict:
    """The time to build the calendar of every model (response cache off: computed, not replayed)."""
    app = create_app({"DATABASE": str(db_path), "RATELIMIT_PUBLIC": HIGH_BUDGET, "ADMIN_API_KEYS": [],
                      "RESPONSE_CACHE_BYTES": 0})
    client = app.test_client()
    start = time.perf_counter()
    response = client.get("/api/v1/feeds/lifecycle.ics")
    seconds = time.perf_counter() - start
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    close_thread_connections()
    return {"seconds": seconds, "bytes": len(response.data), "events": response.data.count(b"BEGIN:VEVENT")}


def _time(client, paths: list, ok=(200,)) -> tuple[list, int]:
    timings, bad = [], 0
    for path in paths:
        start = time.perf_counter_ns()
        response = client.get(path)
        timings.append((time.perf_counter_ns() - start) / 1e6)
        if response.status_code not in ok:
            bad += 1
    return timings, bad


def measure(db_path: Path, n: int, seed: int = 11, log=print, only=None) -> dict:
    """Latency summaries per endpoint and per resolve stage over one database (only: these rows)."""
    app = make_app(db_path)
    client = app.test_client()
    rnd = random.Random(seed)
    start = time.perf_counter()
    first = client.get(_path("resolve", q="warm-up"))   # builds this process's alias index
    cold_ms = (time.perf_counter() - start) * 1000
    assert first.status_code in (200, 404), first.get_data(as_text=True)
    conn = connect_ro(str(db_path))
    try:
        index = resolve_cache.alias_index(conn, str(db_path))
        paths, stages = endpoint_paths(conn, index, n, rnd)
    finally:
        conn.close()
    out = {"endpoints": {}, "stages": {}, "errors": {}, "resolve_cold_ms": cold_ms}
    for name, items in list(paths.items()) + [(f"resolve {s}", stages[s]) for s in STAGES]:
        if not items or (only and name not in only):
            continue
        ok = (200, 404) if name.startswith("resolve") else (200,)
        _time(client, items[:max(20, n // 10)], ok)    # warm-up: page cache, statement cache
        timings, bad = _time(client, items, ok)
        target = out["stages"] if name.startswith("resolve ") else out["endpoints"]
        target[name.removeprefix("resolve ")] = summary(timings)
        if bad:
            out["errors"][name] = bad
    close_thread_connections()
    resolve_cache.forget(str(db_path))   # free this size's index before the next
    return out


def measure_floor(n: int) -> dict:
    """The floor app's in-process latency: what any request costs before an endpoint does its work."""
    from floorapp import create_floor_app, paths as floor_paths
    import os
    saved = os.environ.get("RATELIMIT_PUBLIC")
    os.environ["RATELIMIT_PUBLIC"] = HIGH_BUDGET   # the floor reads its budget from the environment
    try:
        client = create_floor_app().test_client()
    finally:
        if saved is None:
            os.environ.pop("RATELIMIT_PUBLIC")
        else:
            os.environ["RATELIMIT_PUBLIC"] = saved
    paths = floor_paths(n)
    _time(client, paths[:max(20, n // 10)])
    timings, _ = _time(client, paths)
    return summary(timings)


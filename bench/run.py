#!/usr/bin/env python3
"""`make bench`: where the service stands at 1k, 10k and 50k models, against issue 9's targets.

    .venv/bin/python bench/run.py            # full run (about 5 minutes on 2 cores;
                                             # the first run also builds the registries)
    .venv/bin/python bench/run.py --quick    # smoke run (1-2 minutes, smaller sizes)

Phases: build (or reuse, from bench/.cache/) the registries; in-process latency per endpoint and
resolve stage at every size; HTTP throughput of the hot endpoints against a floor app under the
shipped gunicorn settings, and the server's peak RSS, on the largest size; ingestion of a hub
snapshot of that many repos and its idempotent re-run; `registry scan` of the project's .venv against
ripgrep (--only-scan runs just that row). Prints the results as markdown and writes
them to bench/results.md (--quick: bench/.cache/results-quick.md, unless --out says otherwise).
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import synth  # noqa: E402  (first: puts scripts/ on sys.path)
import httpload  # noqa: E402
import inproc  # noqa: E402
import ingestbench  # noqa: E402
import scanbench  # noqa: E402
import tables  # noqa: E402
from ingestbench import AUTOMATED_SOURCES  # noqa: E402

# HTTP: fifteen 1-second alternations rather than five of 3 s, in the same time (why: bench/httpload.py).
FULL = {"sizes": [1000, 10_000, 50_000], "requests": 1000, "seconds": 1, "rounds": 15}
# The hot JSON endpoints are held to 0.9x, where the run-to-run spread of a 15-pair median (about
# ±0.04, the floor against itself in a blueprint) decides a verdict: they get twice the pairs.
HOT_ROUNDS = 2
QUICK = {"sizes": [1000, 5000], "requests": 200, "seconds": 1, "rounds": 2}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "?")
    mem = next((int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                if line.startswith("MemTotal")), 0)
    return {"nproc": os.cpu_count(), "cpu": cpu, "mem_gb": mem / 1024 / 1024, "kernel": platform.release(),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
            "gunicorn": metadata.version("gunicorn"), "flask": metadata.version("flask"),
            "flask_limiter": metadata.version("flask-limiter")}


def registries(sizes: list) -> tuple[dict, dict]:
    """({size: db path}, {size: description}) for the curated registry and each synthetic size."""
    paths, info = {}, {}
    path, built = synth.curated_db(log)
    paths["curated"] = path
    made = f"real pipeline (curate + {len(AUTOMATED_SOURCES)} sources offline), {built['build_s']:.1f} s"
    info["curated"] = {**built, "built": made}
    for n in sizes:
        path, built = synth.synthetic_db(n, log=log)
        paths[n] = path
        how = (f"SQL inserts {built['insert_s']:.1f} s + lifecycle {built['lifecycle_s']:.1f} s + "
               f"FTS refresh {built['fts_s']:.1f} s + history {built.get('history_s', 0):.1f} s"
               f" = {built['total_s']:.1f} s")
        info[n] = {**built, "built": how + (" (cached)" if built["cached"] else "")}
    return paths, info


def http_phase(db_path: Path, seconds: float, rounds: int, requests: int, load_kind: str,
               only: list | None = None) -> dict:
    """Throughput of the hot endpoints against the floor app, then the server's memory."""
    import random
    from registry.resolve import cache as resolve_cache
    from registry.db import connect_ro
    from registry.serve.server import settings
    conn = connect_ro(str(db_path))
    try:
        index = resolve_cache.alias_index(conn, str(db_path))
        paths, stages = inproc.endpoint_paths(conn, index, max(requests, 1000), random.Random(23))
    finally:
        conn.close()
    resolve_cache.forget()   # this process's copy is not the server's; free it
    endpoints = {"resolve exact": stages["exact"], "resolve normalized": stages["normalized"],
                 "search": paths["search"], "model detail": paths["model detail"],
                 "models page": paths["models page"], "changes atom": paths["changes atom"],
                 "changes json": paths["changes json"], "calendar": paths["calendar"],
                 "model page": paths["model page"], "family page": paths["family page"]}
    if only:
        endpoints = {name: items for name, items in endpoints.items() if name in only}
    load = httpload.Load(log, load_kind)
    log_dir = Path(tempfile.mkdtemp(prefix="bench-servers-"))
    registry = httpload.start_registry(db_path, log_dir)
    floor = httpload.start_floor(log_dir)
    try:
        registry.wait_ready()
        floor.wait_ready()
        start = time.perf_counter()
        status = registry.status("/api/v1/resolve?q=warm-up")   # the worker builds its alias index
        first_resolve = time.perf_counter() - start
        if status not in (200, 404):
            raise SystemExit(f"resolve answered {status}")
        hot = {name: items for name, items in endpoints.items() if name in tables.HOT}
        rest = {name: items for name, items in endpoints.items() if name not in hot}
        results = {**httpload.compare(load, floor, registry, hot, seconds, rounds * HOT_ROUNDS, log),
                   **httpload.compare(load, floor, registry, rest, seconds, rounds, log)}
        memory, floor_memory = registry.memory(), floor.memory()
        registry.stop()
        # What serving from a blueprint costs, as the registry serves every route (informational).
        log("  (the floor's endpoint in a blueprint)")
        import floorapp
        blueprint_floor = httpload.start_floor(log_dir, blueprint=True)
        try:
            blueprint_floor.wait_ready()
            in_blueprint = httpload.compare(load, floor, blueprint_floor,
                                            {"floor in a blueprint": floorapp.paths()},
                                            seconds, rounds, log)["floor in a blueprint"]
        finally:
            blueprint_floor.stop()
        # The ceiling: a bare WSGI callable on the same server settings, against the same floor. Each
        # endpoint's ratio to it is its ratio to the floor over this one (bench/tables.py).
        log("  (the bare WSGI app)")
        bare = httpload.start_bare(log_dir)
        try:
            bare.wait_ready()
            bare_row = httpload.compare(load, floor, bare, {"bare WSGI app": floorapp.paths()},
                                        seconds, rounds * HOT_ROUNDS, log)["bare WSGI app"]
        finally:
            bare.stop()
        # The same endpoints with the response cache off: every request computed from the database.
        log("  (response cache off)")
        registry = httpload.start_registry(db_path, log_dir, REGISTRY_RESPONSE_CACHE_BYTES=0)
        registry.wait_ready()
        registry.status("/api/v1/resolve?q=warm-up")
        uncached = httpload.compare(load, floor, registry, endpoints, seconds, rounds, log)
    finally:
        registry.stop()
        floor.stop()
        load.close()
    shutil.rmtree(log_dir, ignore_errors=True)
    s = settings({})
    return {"endpoints": results, "uncached": uncached, "in_blueprint": in_blueprint, "bare": bare_row,
            "memory": memory,
            "floor_memory": floor_memory,
            "load": load.name,
            "seconds": seconds, "rounds": rounds, "hot_rounds": rounds * HOT_ROUNDS,
            "first_resolve_s": first_resolve,
            "settings": f"{s['workers']} worker × {s['threads']} threads, {s['worker_class']}"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smoke run: smaller sizes, short load phases")
    ap.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")],
                    help="synthetic registry sizes, comma-separated (default 1000,10000,50000)")
    ap.add_argument("--requests", type=int, help="timed requests per endpoint and size (in-process)")
    ap.add_argument("--seconds", type=int, help="length of each HTTP load run (whole seconds: wrk)")
    ap.add_argument("--rounds", type=int,
                    help=f"floor/endpoint alternations per endpoint ({HOT_ROUNDS}× that for the hot JSON endpoints)")
    ap.add_argument("--load", choices=("auto", "wrk", "python"), default="auto",
                    help="load generator: wrk (installed with apt-get when missing), or the Python fallback")
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--only", type=lambda s: [x.strip() for x in s.split(",")],
                    help="rows to run, HTTP and in-process, comma-separated (e.g. 'model page,family page')")
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--skip-scan", action="store_true")
    ap.add_argument("--only-scan", action="store_true",
                    help="only the scan row: `registry scan .venv` against ripgrep (prints, writes nothing)")
    ap.add_argument("--out", type=Path, help="markdown output (default bench/results.md)")
    args = ap.parse_args()
    if args.only_scan:
        db, _ = synth.curated_db(log)
        print(tables.scan_section(scanbench.measure(db, ROOT / ".venv", log=log)))
        return 0
    preset = QUICK if args.quick else FULL
    sizes = args.sizes or preset["sizes"]
    requests = args.requests or preset["requests"]
    out = args.out or (synth.CACHE / "results-quick.md" if args.quick else HERE / "results.md")
    began = time.perf_counter()
    res = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "quick": args.quick,
           "command": "python bench/run.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:] else ""),
           "machine": machine(), "requests": requests, "largest": max(sizes), "latency": {}, "notes": []}

    log("== registries")
    paths, res["registries"] = registries(sizes)

    log(f"== in-process latency ({requests} requests per endpoint and size)")
    res["floor_latency"] = inproc.measure_floor(requests)
    for size, path in paths.items():
        start = time.perf_counter()
        res["latency"][size] = inproc.measure(path, requests, log=log, only=args.only)
        lat = res["latency"][size]["endpoints"]
        log(f"  {tables._label(size):>8}: " + ", ".join(f"{name} p99 {lat[name]['p99']:.2f} ms" for name in
            ("resolve", "search", "models page", "model page") if name in lat)
            + f" ({time.perf_counter() - start:.0f} s)")

    log(f"== the calendar of every model ({tables._label(max(sizes))} models)")
    res["calendar"] = inproc.whole_calendar(paths[max(sizes)])
    log(f"  {res['calendar']['events']:,} events, {res['calendar']['bytes'] / 1e6:.1f} MB in "
        f"{res['calendar']['seconds']:.1f} s")

    if not args.skip_http:
        log(f"== HTTP throughput against the floor ({tables._label(max(sizes))} models)")
        res["http"] = http_phase(paths[max(sizes)], args.seconds or preset["seconds"],
                                 args.rounds or preset["rounds"], requests, args.load, args.only)
        res["load"] = res["http"]["load"]
        mem = res["http"]["memory"]
        log(f"  server worker VmHWM {mem['worker_hwm_mb']:.0f} MB")

    if not args.skip_ingest:
        log(f"== ingestion of a {max(sizes):,}-repo hub snapshot")
        res["ingest"] = ingestbench.measure(paths["curated"], max(sizes), synth.CACHE, log)
        if res["ingest"]["rerun"]["added"] or res["ingest"]["rerun"]["updated"]:
            res["notes"].append("The re-run wrote models: ingestion is not idempotent.")

    if not args.skip_scan:
        log("== registry scan of the project's .venv against ripgrep")
        res["scan"] = scanbench.measure(paths["curated"], ROOT / ".venv", log=log)

    res["elapsed_s"] = time.perf_counter() - began
    text = tables.render(res)
    print(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    log(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
        f"({res['elapsed_s'] / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Throughput over HTTP: the registry under the shipped gunicorn settings against the floor app.

Both servers run side by side on 127.0.0.1 (free ports), each with registry.serve.server.settings()
and only HOST, PORT, REGISTRY_DB and a public budget too high to refuse set in the environment.
The load alternates between them (floor, endpoint, floor, ..., endpoint, floor) so both see the same
machine state; each endpoint run is divided by the mean of the floor runs just before and just after
it, and the median of those ratios is reported (a slow drift of a shared machine's speed between
rounds, ±20% here, cancels within a pair instead of landing on one side). Short runs, many of them:
the shorter a pair, the less drift lands inside it. Measured here, the floor against a second floor
repeated three times gave ratios 0.99-1.06 with five 3-second pairs and 0.996-1.005 with fifteen
1-second pairs (the same load time); `resolve exact` 0.88-0.92 and 0.887-0.894. Runs tens of minutes
apart still differ by more than that (`resolve exact` 0.85-0.92 on one afternoon): the ratio itself,
not only the speed, moves with the machine's state, and on a busy evening the floor against itself
in a blueprint read 0.95-1.03 in fifteen-pair runs: the hot JSON endpoints, whose target of 0.9x
sits closest, get twice the pairs (bench/run.py HOT_ROUNDS). Load: wrk (installed with apt-get when missing
and possible), else a Python keep-alive load generator.
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from servers import Server  # noqa: E402  (the one server harness, shared with the tests)
HIGH_BUDGET = "1000000000/minute"
CONNECTIONS = 16
THREADS = 2


def server_env(**extra) -> dict:
    """The environment of a benchmark server: the shipped defaults, except what is given here."""
    drop = ("REGISTRY_", "RATELIMIT_", "WEB_CONCURRENCY", "GUNICORN_", "HOST", "PORT")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(RATELIMIT_PUBLIC=HIGH_BUDGET)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def registry_command() -> list:
    """`registry serve` from the running venv (the shipped command), else gunicorn with gunicorn.conf.py."""
    script = Path(sys.executable).parent / "registry"
    if script.exists():
        return [str(script), "serve"]
    return [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "registry:create_app()"]


def start_registry(db_path: Path, log_dir: Path, **env) -> Server:
    """The registry as shipped, on a free port."""
    return Server(registry_command(), server_env(REGISTRY_DB=db_path, **env), log_dir / "registry.log", cwd=ROOT,
                  argv=(), keep_access_log=False)


def start_floor(log_dir: Path, blueprint: bool = False) -> Server:
    """The floor app (Flask + the same limiter, one JSON endpoint; in a blueprint if asked), on a free port."""
    from floorapp import PATH
    env = server_env(FLOOR_BLUEPRINT="1") if blueprint else server_env()
    return Server([sys.executable, str(ROOT / "bench" / "floorapp.py")], env,
                  log_dir / ("floor-blueprint.log" if blueprint else "floor.log"), cwd=ROOT,
                  argv=(), ready_path=PATH, keep_access_log=False)


def start_bare(log_dir: Path) -> Server:
    """The bare WSGI app (a fixed JSON body, no framework), on a free port: the server's own ceiling."""
    from floorapp import PATH
    return Server([sys.executable, str(ROOT / "bench" / "bareapp.py")], server_env(), log_dir / "bare.log",
                  cwd=ROOT, argv=(), ready_path=PATH, keep_access_log=False)


# -- load generators -------------------------------------------------------------------------------

def ensure_tool(name: str, log=print) -> str | None:
    """A binary from the Debian package of the same name (wrk, ripgrep's rg); installed with apt-get when
    missing and this user may, else None."""
    binary = {"ripgrep": "rg"}.get(name, name)
    found = shutil.which(binary)
    if found:
        return found
    apt = shutil.which("apt-get")
    if apt and os.geteuid() == 0:
        log(f"{binary} is missing: apt-get install -y {name} ...")
        install = [apt, "install", "-y", "-q", name]
        for command in (install, [apt, "update", "-q"], install):
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            if done.returncode == 0 and shutil.which(binary):
                return shutil.which(binary)
    return None


def ensure_wrk(log=print) -> str | None:
    """The wrk binary (else None: Python load)."""
    found = ensure_tool("wrk", log)
    if found is None:
        log("wrk unavailable: using the Python load generator (lower ceiling; ratios stay comparable)")
    return found


_LUA = """
local paths = {%s}
local n = 0
setup = function(thread) n = n + 1; thread:set("offset", n * 7919) end
init = function(args) i = offset or 0 end
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i %% #paths) + 1])
end
"""


def run_wrk(wrk: str, base_url: str, paths: list, seconds: float, workdir: Path) -> dict:
    script = workdir / "paths.lua"
    script.write_text(_LUA % ",\n".join(json.dumps(p) for p in paths))
    done = subprocess.run([wrk, f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
                           "-s", str(script), base_url], capture_output=True, text=True, timeout=seconds + 60)
    out = done.stdout
    rps = re.search(r"Requests/sec:\s*([\d.]+)", out)
    if done.returncode != 0 or not rps:
        raise SystemExit(f"wrk failed ({done.returncode}):\n{out}\n{done.stderr}")
    total = re.search(r"(\d+) requests in", out)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": float(rps.group(1)), "requests": int(total.group(1)) if total else 0,
            "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0}


def _py_worker(args):
    host, port, paths, seconds, threads, offset = args
    counts = [0] * threads
    bad = [0] * threads
    stop_at = time.monotonic() + seconds

    def loop(t):
        conn = http.client.HTTPConnection(host, port, timeout=10)
        i = offset + t * 7919
        while time.monotonic() < stop_at:
            i += 1
            try:
                conn.request("GET", paths[i % len(paths)])
                response = conn.getresponse()
                response.read()
                counts[t] += 1
                bad[t] += response.status >= 400
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=10)
        conn.close()

    workers = [threading.Thread(target=loop, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts), sum(bad)


def run_python(base_url: str, paths: list, seconds: float) -> dict:
    host, port = base_url.split("//", 1)[1].split(":")
    per = CONNECTIONS // THREADS
    with multiprocessing.get_context("fork").Pool(THREADS) as pool:
        start = time.monotonic()
        results = pool.map(_py_worker, [(host, int(port), paths, seconds, per, k * 1000) for k in range(THREADS)])
        elapsed = time.monotonic() - start
    total = sum(r[0] for r in results)
    return {"rps": total / elapsed, "requests": total, "non2xx": sum(r[1] for r in results), "socket_errors": 0}


class Load:
    """One load generator for the run: wrk or the Python fallback."""

    def __init__(self, log=print, kind: str = "auto"):
        self.wrk = ensure_wrk(log) if kind != "python" else None
        if kind == "wrk" and not self.wrk:
            raise SystemExit("--load wrk: wrk is not available")
        self.name = f"wrk -t{THREADS} -c{CONNECTIONS}" if self.wrk else \
            f"python keep-alive, {THREADS} processes x {CONNECTIONS // THREADS} connections"
        self.workdir = Path(tempfile.mkdtemp(prefix="bench-load-"))

    def run(self, base_url: str, paths: list, seconds: float) -> dict:
        if self.wrk:
            return run_wrk(self.wrk, base_url, paths, seconds, self.workdir)
        return run_python(base_url, paths, seconds)

    def close(self):
        shutil.rmtree(self.workdir, ignore_errors=True)


def touch_every(base_url: str, paths: list) -> None:
    """Request each distinct path once, in order, on one keep-alive connection (the warm-up)."""
    parsed = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    try:
        for path in dict.fromkeys(paths):
            conn.request("GET", path)
            conn.getresponse().read()
    finally:
        conn.close()


def compare(load: Load, floor: Server, registry: Server, endpoints: dict, seconds: float, rounds: int,
            log=print) -> dict:
    """{endpoint: {floor: [rps...], endpoint: [rps...], ratio, non2xx}}: alternating runs, each endpoint run
    over the floor runs around it, the median of those ratios."""
    from floorapp import paths as floor_urls
    floor_paths = floor_urls()
    results = {}
    for name, paths in endpoints.items():
        load.run(floor.url, floor_paths, 1)          # warm-up: connections, caches, statement cache
        load.run(registry.url, paths, 1)
        # Every path once, so the rounds measure the steady state (with the response cache on: its
        # hits) rather than how fast a cold cache fills; one second covered only the first ~200 pages.
        touch_every(registry.url, paths)
        floor_rps, endpoint_rps, bad = [], [], 0
        for i in range(rounds + 1):   # floor, endpoint, ..., endpoint, floor: every endpoint run between two
            f = load.run(floor.url, floor_paths, seconds)
            floor_rps.append(f["rps"])
            bad += f["non2xx"] + f["socket_errors"]
            if i < rounds:
                e = load.run(registry.url, paths, seconds)
                endpoint_rps.append(e["rps"])
                bad += e["non2xx"] + e["socket_errors"]
        paired = [e / ((floor_rps[i] + floor_rps[i + 1]) / 2) for i, e in enumerate(endpoint_rps)]
        results[name] = {"floor": floor_rps, "endpoint": endpoint_rps, "ratio": statistics.median(paired),
                         "paired": paired, "bad": bad}
        log(f"  {name:<20} floor {statistics.median(floor_rps):7.0f} req/s  endpoint "
            f"{statistics.median(endpoint_rps):7.0f} req/s  ratio {results[name]['ratio']:.2f}"
            + (f"  ({bad} bad)" if bad else ""))
    return results

"""The scan row of `make bench`: `registry scan` over a large tree (the project's .venv) against
ripgrep searching the same tree for the registry's literal aliases (rg -F -f), time and peak RSS.

Both run as child processes; peak RSS is the child's ru_maxrss (os.wait4). Each is run `rounds`
times, alternating, and the medians are compared: speed ratio = rg's time / the scan's time.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from httpload import ensure_tool

TARGET = 0.25    # issue 19: the scan at least a quarter of rg's speed


def _run(command: list, env: dict | None = None) -> tuple[float, float, bytes, float]:
    """(wall seconds, peak RSS MB, stdout, CPU seconds: user + system, the workers' included) of one child."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read(), usage.ru_utime + usage.ru_stime


def measure(db_path: Path, tree: Path, rounds: int = 3, log=print) -> dict:
    """Time and memory of `registry scan TREE --vendored` and of `rg -F -f ALIASES TREE`."""
    from registry.queries import catalog
    from registry.db import connect_ro
    conn = connect_ro(str(db_path))
    try:
        aliases = sorted(catalog.alias_strings(conn))
    finally:
        conn.close()
    rg = ensure_tool("ripgrep", log)
    registry = str(Path(sys.executable).parent / "registry")
    env = {**os.environ, "REGISTRY_DB": str(db_path)}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as patterns:
        patterns.write("\n".join(aliases) + "\n")
    try:
        scans, greps = [], []
        for _ in range(rounds):
            scans.append(_run([registry, "scan", str(tree), "--vendored", "--format", "json"], env))
            if rg:
                greps.append(_run([rg, "-F", "-f", patterns.name, "-c", "--no-messages", str(tree)]))
        files = len(subprocess.run([rg, "--files", str(tree)], capture_output=True).stdout.splitlines()) if rg else None
    finally:
        os.unlink(patterns.name)
    body = json.loads(scans[-1][2])
    res = {"tree": str(tree), "aliases": len(aliases), "files_scanned": body["files_scanned"],
           "findings": len(body["findings"]), "scan_s": statistics.median(r[0] for r in scans),
           "scan_cpu_s": statistics.median(r[3] for r in scans),
           "scan_rss_mb": max(r[1] for r in scans), "rounds": rounds, "rg": None}
    if rg:
        version = subprocess.run([rg, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        res["rg"] = {"version": version, "files": files, "s": statistics.median(r[0] for r in greps),
                     "cpu_s": statistics.median(r[3] for r in greps), "rss_mb": max(r[1] for r in greps),
                     "matching_files": len(greps[-1][2].splitlines())}
        res["ratio"] = res["rg"]["s"] / res["scan_s"]
    log(f"  scan {res['scan_s']:.2f} s, CPU {res['scan_cpu_s']:.2f} s ({res['files_scanned']:,} files, "
        f"{res['scan_rss_mb']:.0f} MB); "
        + (f"rg {res['rg']['s']:.2f} s, CPU {res['rg']['cpu_s']:.2f} s ({res['rg']['rss_mb']:.0f} MB); "
           f"speed {res['ratio']:.2f}× rg's"
           if rg else "rg unavailable"))
    return res

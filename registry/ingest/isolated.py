"""A begun run done in a child process with bounded memory, so an upstream that floods it cannot take the web
server down with it (the admin trigger's runs; docs/threat-model.md#upstreams, issue 44).

The child is a fresh interpreter (`python -c ...`, on this process's import path, so the one-file build works
too; not a fork of a threaded web worker, which could inherit a lock another thread held, nor multiprocessing,
which would run the server's own main module again). It limits its address space to REGISTRY_INGEST_MEMORY_MB
(resource.RLIMIT_AS), does the run as `registry ingest` would and prints its RunResult as JSON. An allocation past
the bound is a MemoryError that fails the run in words (merge/runs.py describe); a child that dies without a
word (killed) has its run marked failed here, and the caller then releases the source's lock.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict

from ..db import writable
from ..merge.runs import describe, fail_if_running

MEGABYTE = 1024 * 1024
CHILD = "from registry.ingest.isolated import child_main; child_main()"


def child_main() -> None:
    """The child's side: the job from stdin, its RunResult as JSON on stdout."""
    import resource

    from .runner import RunOptions, RunResult, collector_paused, execute
    job = json.loads(sys.stdin.read())
    limit = job["memory_mb"] * MEGABYTE
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    options = RunOptions(offline=job["offline"], seeds_dir=job["seeds_dir"], record_to=job["record_to"])
    try:   # a MemoryError inside the run fails it with its words; outside it, here
        with collector_paused():
            result = execute(job["db_path"], job["source"], job["run_id"], options)
    except MemoryError as exc:
        result = RunResult(job["source"], job["run_id"], "failed", error=describe(exc))
    sys.stdout.write(json.dumps(asdict(result)))


def run_isolated(db_path: str, source: str, run_id: int, options, memory_mb: int):
    """Do the begun run run_id in a child process of at most memory_mb MB; its RunResult."""
    from .runner import RunResult
    job = {"db_path": db_path, "source": source, "run_id": run_id, "offline": options.offline,
           "seeds_dir": options.seeds_dir, "record_to": options.record_to, "memory_mb": memory_mb}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    child = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(job), capture_output=True, text=True,
                           env=env)
    try:
        result = RunResult(**json.loads(child.stdout))
    except (ValueError, TypeError):   # it ended without an answer: killed (the OOM killer, an operator), or worse
        why = f"killed by signal {-child.returncode}" if child.returncode < 0 else f"exit code {child.returncode}"
        last = child.stderr.strip().splitlines()[-1:] if child.stderr.strip() else []
        message = f"the run's process ended before the run did ({why}{': ' + last[0][:300] if last else ''})"
        result = RunResult(source, run_id, "failed", error=message + "; nothing of it was written",
                           trace=child.stderr[-5000:] or None)
    if result.status == "failed":   # however it ended, its row says so (a MemoryError may have beaten the run's own)
        with writable(db_path) as conn:
            fail_if_running(conn, run_id, result.error or "failed")
    return result

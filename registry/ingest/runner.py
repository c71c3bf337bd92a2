"""Run one source: lock, run record, fetch or load pages, parse, store facts and merge in one transaction."""
import gc
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass

from ..config import source_key, source_url
from ..curation import drift
from ..lifecycle import today
from ..db import writable
from ..merge.facts import replace_facts
from ..merge.runs import RunError, describe, recorded_run, start_run_or_refuse
from ..storage import StorageError
from . import sources
from .match import records_to_facts
from .http import make_session
from .isolated import run_isolated
from ..merge.locks import hold
from .records import SourceError


@dataclass
class RunResult:
    """How one source's run ended."""

    source: str
    run_id: int | None
    status: str                  # completed, failed, or conflict (another run holds the lock)
    added: int = 0
    updated: int = 0
    error: str | None = None
    details: dict | None = None
    trace: str | None = None     # the traceback of an unexpected error (--verbose, the server's log)


def base_url(module) -> str:
    """The source's base URL: REGISTRY_<SOURCE>_URL overrides the default."""
    return source_url(module.SOURCE, module.BASE_URL)


def begin(db_path: str, source: str):
    """Take the source's lock and record a running run; return (lock, run_id) or None when busy.

    Raises StorageError (registry/storage.py) when the disk refuses the lock file or the run row;
    the message says whether a failed run could still be recorded.
    """
    provider = sources.load(source).PROVIDER
    held = hold(db_path, source, provider)
    if held is None:
        return None
    lock, conn = held
    try:
        return lock, start_run_or_refuse(conn, source, provider, db_path)
    except BaseException:
        lock.release()
        raise
    finally:
        conn.close()


def fetch_pages(module, offline: bool, seeds_dir: str, session=None) -> list:
    """The source's pages: from the seeds snapshot offline, else from the upstream."""
    from .snapshots import load_pages
    if offline:
        return load_pages(seeds_dir, module.SOURCE)
    key = source_key(module.KEY_ENV)
    if module.KEY_REQUIRED and not key:
        raise SourceError(f"{module.KEY_ENV} is not set: {module.SOURCE} needs an API key")
    return module.fetch(session or make_session(), base_url(module), key or None)


@dataclass(frozen=True)
class RunOptions:
    """How a run gets its pages: from the seeds snapshot (offline) or the upstream (through session,
    or a new bounded one), and where to save what was fetched as the source's snapshot, if anywhere."""

    offline: bool = False
    seeds_dir: str = "./seeds"
    session: object = None
    record_to: str | None = None


def execute(db_path: str, source: str, run_id: int, options: RunOptions = RunOptions()) -> RunResult:
    """Do the work of a recorded run; the facts, merge and run completion land in one transaction."""
    try:
        with writable(db_path) as conn:
            return _recorded(conn, source, run_id, options)
    except StorageError as exc:
        # Only opening the db gets here (a run's own faults end in _recorded). Nothing can be written,
        # so the run row stays 'running' until the next run under the lock.
        message = (f"{exc}; nothing could be written, so run {run_id} stays 'running' until the next"
                   f" run of {source} marks it failed")
        return RunResult(source, run_id, "failed", error=message)


def _recorded(conn, source: str, run_id: int, options: RunOptions) -> RunResult:
    """Fetch, parse and apply one source's records as its recorded run; its faults end only that run."""
    module = sources.load(source)
    try:
        with recorded_run(conn, source, run_id) as run:
            pages = fetch_pages(module, options.offline, options.seeds_dir, options.session)
            if options.record_to:
                from .snapshots import save_pages
                save_pages(options.record_to, source, pages)
            records = module.parse(pages)

            def write(conn):
                facts, aliases, run.details = records_to_facts(conn, source, records)
                contradicted = drift.compare(drift.curated_values(conn), drift.by_model(facts), source, today())
                if contradicted:   # what this source says against curation (docs/curating.md#drift)
                    run.details["contradicts_curation"] = [d.line() for d in contradicted]
                replace_facts(conn, source, facts, aliases)
            run.apply(write)
        return RunResult(source, run_id, "completed", run.added, run.updated, details=run.details)
    except Exception as exc:  # one source's fault ends only its own run (recorded_run marked it failed)
        expected = isinstance(exc, (RunError, StorageError))   # SourceError is a RunError
        return RunResult(source, run_id, "failed", error=describe(exc),
                         trace=None if expected else traceback.format_exc())


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector paused for a run in a process of its own (`flask ingest`, an isolated
    child), and resumed after it: a run builds millions of objects that form no cycles (records, facts, rows), and
    each full collection walks them all to free nothing (docs/running.md#ingest-runs). Reference counting still frees
    everything. Never in a server's process: the collector is the whole process's."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def run_source(db_path: str, source: str, *, offline: bool = False, seeds_dir: str = "./seeds",
               session=None, record_to: str | None = None) -> RunResult:
    """Run one source start to finish under its lock (the keywords are RunOptions'), in the caller's process: the
    command line's, or a test's."""
    try:
        started = begin(db_path, source)
    except Exception as exc:   # the lock or the run row refused: this source fails, the others still run
        trace = None if isinstance(exc, StorageError) else traceback.format_exc()
        return RunResult(source, None, "failed", error=describe(exc), trace=trace)
    if started is None:
        return RunResult(source, None, "conflict", error=f"{source} is already running")
    with collector_paused():
        return _finish(db_path, source, started, RunOptions(offline, seeds_dir, session, record_to))


def start_source(db_path: str, source: str, options: RunOptions = RunOptions(), on_end=None,
                 memory_mb: int = 0) -> int | None:
    """Begin a run of source under its lock and do it from a background thread (the admin trigger answers at once):
    its run id, or None when a run of it is going on. on_end(result) is called when it ends. memory_mb: do it in
    a child process of at most that many MB (isolated.py), so a flooding upstream cannot take the caller down;
    0: in this process.

    Raises StorageError when the disk refuses the lock or the run row (nothing started)."""
    started = begin(db_path, source)
    if started is None:
        return None

    def work():
        if memory_mb and options.session is None:
            lock, run_id = started
            try:
                result = run_isolated(db_path, source, run_id, options, memory_mb)
            finally:
                lock.release()
        else:
            result = _finish(db_path, source, started, options)
        if on_end is not None:
            on_end(result)

    threading.Thread(target=work, name=f"ingest-{source}", daemon=True).start()
    return started[1]


def _finish(db_path: str, source: str, started: tuple, options: RunOptions) -> RunResult:
    """Do a begun run (begin's (lock, run id)) and release its lock, whatever happens."""
    lock, run_id = started
    try:
        return execute(db_path, source, run_id, options)
    finally:
        lock.release()

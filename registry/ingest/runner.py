"""Run one source: lock, run record, fetch or load pages, parse, store facts and merge in one transaction."""
from dataclasses import dataclass

from ..config import source_key, source_url
from ..db import connect_rw, transaction
from ..merge.facts import replace_facts
from ..merge.runs import describe, recorded_run, start_run
from . import sources
from .match import records_to_facts
from .http import make_session
from .locks import SourceLock
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


def base_url(module) -> str:
    """The source's base URL: REGISTRY_<SOURCE>_URL overrides the default."""
    return source_url(module.SOURCE, module.BASE_URL)


def mark_interrupted(conn, source: str) -> None:
    """Fail runs of a source left 'running' by a dead process (call only while holding its lock)."""
    with transaction(conn):
        conn.execute(
            "UPDATE ingestion_runs SET status = 'failed', error_message = 'interrupted: the process running it"
            " stopped before it finished', completed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
            " WHERE source = ? AND status = 'running'", (source,))


def begin(db_path: str, source: str):
    """Take the source's lock and record a running run; return (lock, run_id) or None when busy."""
    lock = SourceLock(db_path, source)
    if not lock.acquire():
        return None
    try:
        conn = connect_rw(db_path)
        try:
            mark_interrupted(conn, source)
            run_id = start_run(conn, source, sources.load(source).PROVIDER)
        finally:
            conn.close()
    except BaseException:
        lock.release()
        raise
    return lock, run_id


def fetch_pages(module, offline: bool, seeds_dir: str, session=None) -> list:
    """The source's pages: from the seeds snapshot offline, else from the upstream."""
    from .snapshots import load_pages
    if offline:
        return load_pages(seeds_dir, module.SOURCE)
    key = source_key(module.KEY_ENV)
    if module.KEY_REQUIRED and not key:
        raise SourceError(f"{module.KEY_ENV} is not set: {module.SOURCE} needs an API key")
    return module.fetch(session or make_session(), base_url(module), key or None)


def execute(db_path: str, source: str, run_id: int, offline: bool, seeds_dir: str,
            session=None, record_to: str | None = None) -> RunResult:
    """Do the work of a recorded run; the facts, merge and run completion land in one transaction."""
    module = sources.load(source)
    conn = connect_rw(db_path)
    try:
        with recorded_run(conn, source, run_id) as run:
            pages = fetch_pages(module, offline, seeds_dir, session)
            if record_to:
                from .snapshots import save_pages
                save_pages(record_to, source, pages)
            records = module.parse(pages)

            def write(conn):
                facts, aliases, run.details = records_to_facts(conn, source, records)
                replace_facts(conn, source, facts, aliases)
            run.apply(write)
        return RunResult(source, run_id, "completed", run.added, run.updated, details=run.details)
    except Exception as exc:  # one source's fault ends only its own run (recorded_run marked it failed)
        return RunResult(source, run_id, "failed", error=describe(exc))
    finally:
        conn.close()


def run_source(db_path: str, source: str, offline: bool = False, seeds_dir: str = "./seeds",
               session=None, record_to: str | None = None) -> RunResult:
    """Run one source start to finish under its lock."""
    started = begin(db_path, source)
    if started is None:
        return RunResult(source, None, "conflict", error=f"{source} is already running")
    lock, run_id = started
    try:
        return execute(db_path, source, run_id, offline, seeds_dir, session, record_to)
    finally:
        lock.release()

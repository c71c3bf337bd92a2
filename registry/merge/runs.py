"""The one write path (docs/data-flow.md#one-write-path): every write of registry data ends in recorded_write().

Ingestion, curation and the admin trigger write through recorded_run() and Run.apply(), so each has
a run row that ends completed with its counts or failed with its error; the day's status recompute
(refresh_if_stale) has no run row. Both end in the same tail, recorded_write(): one transaction, the
changes the write made (merge/changes.py), a new data generation. A run whose facts did not change writes only
its run row (docs/data-flow.md#unchanged-runs).
"""
import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass

from ..db import bump_generation, db_file, now_iso, transaction, writable, write_wait_ms
from ..storage import StorageError, classify
from ..lifecycle import today
from . import changes, lifecycle
from .recompute import merged_already, recompute

INTERRUPTED = "interrupted: the process running it stopped before it finished"
NOTHING_WRITTEN = "nothing could be written (no run recorded)"


class RunError(Exception):
    """An expected failure (an upstream fault, a curation that does not fit): its message is the run's."""


def start_run(conn, source: str, provider_slug: str | None = None) -> int:
    """Record a run of source as running (committed at once, so others see it); return its id."""
    with transaction(conn):
        provider = conn.execute("SELECT id FROM providers WHERE slug = ?", (provider_slug,)).fetchone() \
            if provider_slug else None
        cur = conn.execute(
            "INSERT INTO ingestion_runs (source, provider_id, status, pid, started_at)"
            " VALUES (?, ?, 'running', ?, ?)", (source, provider[0] if provider else None, os.getpid(), now_iso()))
        return cur.lastrowid


def start_run_or_refuse(conn, source: str, provider_slug: str | None = None, path: str | None = None) -> int:
    """start_run, with the disk refusing the row re-raised as a StorageError naming cause and path."""
    try:
        return start_run(conn, source, provider_slug)
    except (sqlite3.Error, OSError) as exc:
        error = classify(exc, path or db_file(conn))
        if error is None:
            raise
        raise StorageError(f"{error}; {NOTHING_WRITTEN}") from exc


def running_run_id(db, source: str) -> int | None:
    """The id of the newest running run of a source, or None."""
    row = db.execute("SELECT id FROM ingestion_runs WHERE source = ? AND status = 'running' ORDER BY id DESC LIMIT 1",
                     (source,)).fetchone()
    return row[0] if row else None


def complete_run(conn, run_id: int, added: int, updated: int, details: dict | None = None) -> None:
    """Mark a run completed with its counts and what it did with each upstream record."""
    with transaction(conn):
        conn.execute(
            "UPDATE ingestion_runs SET status = 'completed', models_added = ?, models_updated = ?,"
            " completed_at = ? WHERE id = ?", (added, updated, now_iso(), run_id))
        if details is not None:
            conn.execute("UPDATE ingestion_runs SET details = ? WHERE id = ?",
                         (json.dumps(details, sort_keys=True), run_id))


def fail_run(conn, run_id: int, message: str) -> None:
    """Mark a run failed with an error message."""
    with transaction(conn):
        conn.execute(
            "UPDATE ingestion_runs SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ?",
            (message[:2000], now_iso(), run_id))


def fail_if_running(conn, run_id: int, message: str) -> None:
    """Mark a run failed unless it already ended (a child process that did the run may have ended it)."""
    with transaction(conn):
        conn.execute("UPDATE ingestion_runs SET status = 'failed', error_message = ?, completed_at = ?"
                     " WHERE id = ? AND status = 'running'", (message[:2000], now_iso(), run_id))


def mark_interrupted(conn, source: str) -> None:
    """Fail runs of a source left 'running' by a dead process (call only while holding its lock)."""
    with transaction(conn):
        conn.execute(
            "UPDATE ingestion_runs SET status = 'failed', error_message = ?, completed_at = ?"
            " WHERE source = ? AND status = 'running'", (INTERRUPTED, now_iso(), source))


def describe(exc: BaseException) -> str:
    """The error message a failed run records: an expected failure's own words, else its type too."""
    if isinstance(exc, (RunError, StorageError)):
        return str(exc) or type(exc).__name__
    if isinstance(exc, MemoryError):   # an admin-triggered run past its bound (registry/ingest/isolated.py)
        return "the run needed more memory than it may use (REGISTRY_INGEST_MEMORY_MB); nothing was written"
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return (f"another writer held the database longer than this one waits ({write_wait_ms() // 1000} s,"
                " REGISTRY_WRITE_WAIT_MS); this run wrote nothing: run it again")
    return f"{type(exc).__name__}: {exc}"


@dataclass
class Write:
    """What the block of recorded_write() says of itself: whether readers can see what it wrote."""

    visible: bool = True


@contextmanager
def recorded_write(conn, source: str, run_id: int | None = None):
    """The tail every write ends in: in one transaction (a savepoint inside the caller's), the block's
    writes, the changes they made to what readers see recorded as source's (run_id None: the day's
    recompute), and a new data generation unless the block says readers can see no difference.

    Yields a Write the block may mark invisible; any error rolls the whole of it back.
    """
    with transaction(conn), _recorded_tail(conn, source, run_id) as write:
        yield write


@contextmanager
def _recorded_tail(conn, source: str, run_id: int | None):
    """recorded_write() inside a transaction the caller holds: no SAVEPOINT of its own, which would make SQLite
    journal every statement of a merge against it (a 50k-model merge then takes minutes, not seconds)."""
    write = Write()
    with changes.recording(conn, run_id, source):
        yield write
    if write.visible:
        bump_generation(conn)


class Run:
    """A recorded run in progress; apply() writes its facts and the registry they give."""

    def __init__(self, conn, run_id: int, source: str):
        self.conn, self.id, self.source = conn, run_id, source
        self.added = self.updated = 0
        self.details = None   # what write_facts did with each upstream record, when it says

    def apply(self, write_facts, after_merge=None) -> None:
        """In one transaction: write_facts(conn), the merge with lifecycle and search rows, after_merge(conn) if
        given, the changes it made (merge/changes.py), a new data generation, and the run's completion.

        A run whose facts did not change, over a registry that is already this code's merge of them for today,
        skips the merge: it would write nothing, so only the run row is written (docs/data-flow.md#unchanged-runs).
        """
        with transaction(self.conn):
            before = self.conn.total_changes
            write_facts(self.conn)
            if after_merge is None and self.conn.total_changes == before and merged_already(self.conn):
                complete_run(self.conn, self.id, 0, 0, self.details)
                return
            # The facts tables are no reader's state (changes.snapshot reads models and aliases): recording the
            # changes from here records all of them.
            with _recorded_tail(self.conn, self.source, self.id):
                self.added, self.updated = recompute(self.conn)
                if after_merge is not None:
                    after_merge(self.conn)
                complete_run(self.conn, self.id, self.added, self.updated, self.details)


def _end_failed(conn, run: "Run", source: str, message: str) -> None:
    """Mark the run failed; when even that write is refused, say so in a StorageError."""
    try:
        fail_run(conn, run.id, message)
        return
    except (sqlite3.Error, OSError):
        pass
    try:
        # A refused transaction can leave the WAL grown to fill the disk: truncating it (only
        # committed frames are copied back) often frees enough room for this one small row.
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        fail_run(conn, run.id, message)
        return
    except (sqlite3.Error, OSError) as exc:
        refused = str(classify(exc, db_file(conn)) or exc)
    why = "" if refused in message else f" ({refused})"
    raise StorageError(f"{message}; nothing could be written{why}, so run {run.id} stays"
                       f" 'running' until the next run of {source} marks it failed")


@contextmanager
def recorded_run(conn, source: str, run_id: int | None = None, provider: str | None = None):
    """Yield a Run of source (started here unless run_id names one); any error fails it and is re-raised.

    The disk refusing a write is re-raised as a StorageError naming cause and path (registry/storage.py).
    """
    if run_id is None:
        run_id = start_run_or_refuse(conn, source, provider)
    run = Run(conn, run_id, source)
    try:
        yield run
    except BaseException as exc:
        error = classify(exc, db_file(conn)) or exc
        _end_failed(conn, run, source, describe(error))
        if error is exc:
            raise
        raise error from exc


def record_refusal(db_path: str, source: str, message: str, provider: str | None = None) -> str:
    """Record a failed run of source when its lock file was refused; return the message, saying
    when not even that row could be written."""
    try:
        with writable(db_path) as conn, recorded_run(conn, source, provider=provider):
            raise StorageError(message)
    except StorageError as exc:
        return str(exc) if str(exc).startswith(message) else f"{message}; {NOTHING_WRITTEN}"


def refresh_if_stale(conn, on: str | None = None) -> bool:
    """Recompute every status when the stored ones were computed for an earlier day; True if it did.

    Status is true on the day it is read (docs/lifecycle.md#status): the server calls this on the first
    request of each UTC day (web/lifecycle_clock.py), the audit and the export before they read. The
    day is read again under the write lock, so of two processes starting at once one recomputes and
    the other finds it done.
    """
    on = on or today()
    with transaction(conn):
        done = lifecycle.computed_for(conn)
        if done is not None and done >= on:
            return False
        if done is not None and not lifecycle.days_crossed(conn, done, on):
            # No day of any model or platform schedule lies in (done, on]: every decision stands.
            lifecycle.mark_computed(conn, on)
            return True
        with recorded_write(conn, changes.LIFECYCLE) as write:
            write.visible = lifecycle.recompute_day(conn, on)
    return True

"""One lock per source (and one for curation), so cron, an admin trigger and a second curate never overlap.

An flock on a file beside the database: the kernel releases it when the holder dies
(even on kill -9), so a lock we can take proves any 'running' row of that source is stale.
"""
import fcntl
import os
import sqlite3

from ..db import connect_rw
from .runs import NOTHING_WRITTEN, mark_interrupted, record_refusal
from ..storage import StorageError, classify, writing


class SourceLock:
    """A non-blocking exclusive lock for one source of one database."""

    def __init__(self, db_path: str, source: str):
        self.path = f"{os.path.abspath(db_path)}.{source}.lock"
        self.fd = None

    def acquire(self) -> bool:
        """Take the lock if free; return whether we hold it (StorageError when the file cannot be made)."""
        with writing(self.path):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def release(self) -> None:
        """Give the lock back."""
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def hold(db_path: str, source: str, provider: str | None = None):
    """Take source's lock, open the db and fail the source's stale 'running' rows; return
    (lock, conn), or None while another process holds the lock. The caller closes and releases.

    Raises StorageError naming cause and path when the disk refuses the lock file or the db,
    after recording a failed run where the db still takes one (merge/runs.py record_refusal).
    """
    lock = SourceLock(db_path, source)
    try:
        if not lock.acquire():
            return None
    except StorageError as exc:
        raise StorageError(record_refusal(db_path, source, str(exc), provider)) from exc
    conn = None
    try:
        conn = connect_rw(db_path)
        mark_interrupted(conn, source)
        return lock, conn
    except BaseException as exc:
        if conn is not None:
            conn.close()
        lock.release()
        error = classify(exc, db_path) if isinstance(exc, (sqlite3.Error, OSError)) else None
        if error is None:
            raise
        raise StorageError(f"{error}; {NOTHING_WRITTEN}") from exc

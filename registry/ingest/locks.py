"""One lock per source, so cron and an admin trigger never run the same source at once.

An flock on a file beside the database: the kernel releases it when the holder dies
(even on kill -9), so a lock we can take proves any 'running' row of that source is stale.
"""
import fcntl
import os

from ..storage import writing


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

"""Say why the disk refused a write, and where: disk full, read-only, not writable (docs/data-flow.md).

SQLite reports a refused write as an error code without a file name, and an OSError names the file
but speaks errno; both become one StorageError whose message is the line an operator reads
("disk full writing /srv/registry/registry.db"), on the command line, in the run row and in a 503.
"""
import errno
import os
import sqlite3
from contextlib import contextmanager

# SQLite primary result codes (sqlite3.h) that mean "the file system would not take the write".
SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 3, 8, 10, 13, 14
# Python < 3.11 has no sqlite_errorcode: the same codes by their fixed English messages.
_SQLITE_MESSAGES = {
    "database or disk is full": SQLITE_FULL,
    "attempt to write a readonly database": SQLITE_READONLY,
    "unable to open database file": SQLITE_CANTOPEN,
    "disk I/O error": SQLITE_IOERR,
    "access permission denied": SQLITE_PERM,
}
# What to call each of those codes when looking at the file system shows nothing more telling.
_SQLITE_CAUSES = {SQLITE_PERM: "permission denied", SQLITE_READONLY: "read-only database",
                  SQLITE_IOERR: "disk I/O error", SQLITE_CANTOPEN: "cannot open or create files"}
NO_DIR = "no such directory"
NOT_A_DISK = "a pseudo file system that keeps no files"
_ERRNO_CAUSES = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: NO_DIR,   # creating a file (a lock, the db) in a directory that is not there
}
NOT_WRITABLE_DIR = "directory not writable"
LOW_SPACE_BYTES = 1 << 20   # under this much free space, a refused write is put down to a full disk


class StorageError(Exception):
    """The disk refused a write; the message names the cause and the path."""


def probe(path: str) -> str | None:
    """Why writing path (or creating files beside it) could fail now, or None when nothing shows."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(directory):
        return NO_DIR
    try:
        fs = os.statvfs(directory)
    except OSError:
        return None
    if fs.f_blocks == 0:   # /proc, /sys: a pseudo file system has no blocks at all, it is not full
        return NOT_A_DISK
    if fs.f_flag & os.ST_RDONLY:
        return "read-only file system"
    if fs.f_bavail * fs.f_frsize < LOW_SPACE_BYTES:
        return "disk full"
    # os.access honours chattr +i and the directory's mode, for root too (access(2)).
    if not os.access(directory, os.W_OK):
        return NOT_WRITABLE_DIR
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "permission denied"
    return None


# What an operator changes to write elsewhere: the database's setting, unless the write is of a file named otherwise.
DB_ELSEWHERE = "point REGISTRY_DB elsewhere"


def _message(cause: str, path: str, sqlite: bool, elsewhere: str = DB_ELSEWHERE) -> str:
    directory, name = os.path.split(os.path.abspath(path))
    if cause == NO_DIR:
        return f"the directory {directory} does not exist: create it, or {elsewhere}"
    if cause == NOT_A_DISK:
        return f"{directory} is {cause}: cannot keep {name} there; {elsewhere}"
    if cause != NOT_WRITABLE_DIR:
        return f"{cause} writing {path}"
    if sqlite:   # SQLite needs to create its -wal and -shm files beside the database
        return f"directory {directory} not writable: cannot create {name}-wal and {name}-shm there"
    return f"directory {directory} not writable: cannot create {path}"


def _sqlite_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF
    return _SQLITE_MESSAGES.get(str(exc))


def classify(exc: BaseException, path: str, elsewhere: str = DB_ELSEWHERE, output: bool = False) -> StorageError | None:
    """A StorageError naming cause and path when exc is the disk refusing a write, else None (elsewhere: what
    to change to write somewhere else; output: path is written through a temporary file beside it, whose name
    the message leaves out)."""
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, OSError) and exc.errno in _ERRNO_CAUSES:
        target = path if output else exc.filename or path
        cause = _ERRNO_CAUSES[exc.errno]
        if exc.errno in (errno.EACCES, errno.EPERM, errno.ENOENT):
            cause = probe(target) or cause
        return StorageError(_message(cause, target, sqlite=False, elsewhere=elsewhere))
    if isinstance(exc, sqlite3.Error):
        code = _sqlite_code(exc)
        if code == SQLITE_FULL:   # SQLite says "full" of /proc too: look first
            return StorageError(_message(probe(path) or "disk full", path, sqlite=True))
        if code in _SQLITE_CAUSES:
            # SQLite does not say which file (the db, its -wal or -shm) or why: look.
            cause = probe(path) or _SQLITE_CAUSES[code]
            return StorageError(_message(cause, path, sqlite=True))
    return None


@contextmanager
def writing(path: str, elsewhere: str = DB_ELSEWHERE, output: bool = False):
    """Turn the disk refusing a write inside the block into a StorageError about path (elsewhere and output: as
    classify takes them)."""
    try:
        yield
    except (OSError, sqlite3.Error) as exc:
        error = classify(exc, path, elsewhere, output)
        if error is None:
            raise
        raise error from exc

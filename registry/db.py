"""SQLite connections, pragmas, transactions and schema creation, with no Flask in them (the scanner and
the CLI import this without the web app); web/connection.py holds the per-request connection."""
import itertools
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

import click

from . import migrations
from .sql import transaction, tuples, upsert_sql  # noqa: F401  (the write helpers, imported from here by the writers)
from .config import setting
from .storage import StorageError, writing

BUSY_TIMEOUT_MS = 10_000
WRITER_CACHE_KIB = 64 * 1024   # at most; SQLite takes pages as it needs them


def schema_sql() -> str:
    """Return the text of schema.sql, from the package or the project root."""
    packaged = resources.files("registry").joinpath("schema.sql")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parent.parent / "schema.sql").read_text(encoding="utf-8")


def write_wait_ms() -> int:
    """How long a writer waits for another to finish (REGISTRY_WRITE_WAIT_MS)."""
    return setting("REGISTRY_WRITE_WAIT_MS")


def _configure(conn: sqlite3.Connection) -> sqlite3.Connection:
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def connect_rw(path: str) -> sqlite3.Connection:
    """Open a read-write connection in WAL mode; transactions are explicit (autocommit off)."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    _configure(conn)
    # A writer that meets another waits its turn: a normal run holds the write lock for up to ~30 s (a 50k-model
    # merge), so the readers' 10 s would fail a cron ingest that meets an admin-triggered run (issue 44).
    conn.execute(f"PRAGMA busy_timeout = {write_wait_ms()}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    # A merge rewrites tens of MB in one transaction: with SQLite's default 2 MB page cache it spills pages to
    # the WAL mid-transaction and reads them back (a 50k-model first ingest takes a fifth longer).
    conn.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
    conn.execute("PRAGMA temp_store = MEMORY")
    return conn


@contextmanager
def writable(path: str):
    """A read-write connection to path for the block, closed after it; the disk refusing to open it
    is a StorageError naming cause and path (registry/storage.py). Every writer opens the db this way."""
    with writing(path):
        conn = connect_rw(path)
    try:
        yield conn
    finally:
        conn.close()


def connect_ro(path: str) -> sqlite3.Connection:
    """Open a read-only connection (mode=ro): the web side never writes."""
    uri = "file:" + str(Path(path).resolve()) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    return _configure(conn)


# How a model row meets its family and provider (every model has both: NOT NULL foreign keys), for the
# reads (queries/) and the write path's snapshots (merge/changes.py) alike.
PROVIDER_JOIN = " JOIN providers p ON p.id = f.provider_id"
JOINS = " JOIN families f ON f.id = m.family_id" + PROVIDER_JOIN
FROM_MODELS = " FROM models m" + JOINS


def db_file(conn: sqlite3.Connection) -> str:
    """The path of the file a connection writes (for messages that name it)."""
    try:
        return conn.execute("PRAGMA database_list").fetchone()[2] or "the database"
    except sqlite3.Error:
        return "the database"


def now_iso() -> str:
    """The current UTC time as ISO 8601 (seconds, Z)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def init_db(path: str) -> tuple:
    """Create the latest schema in a new db or migrate an older one; return (old, new) version."""
    with writable(path) as conn:
        return migrations.migrate(conn, schema_sql())


def ensure_schema(path: str) -> tuple:
    """init_db for commands: a db that cannot be migrated is a clean CLI error, not a traceback."""
    try:
        with writing(path):
            return init_db(path)
    except migrations.MigrationError as exc:
        raise click.ClickException(f"{path}: {exc}") from exc
    except StorageError as exc:   # "disk full writing /srv/registry/registry.db", not a traceback
        raise click.ClickException(str(exc)) from exc


_bumps = itertools.count(1)
_last_bump = 0


def bump_generation(conn: sqlite3.Connection) -> None:
    """Mark the data as changed so per-process caches (the resolve index, rendered answers) rebuild."""
    global _last_bump
    conn.execute("UPDATE registry_state SET value = value + 1 WHERE key = 'generation'")
    _last_bump = next(_bumps)


def writes_here() -> int:
    """A number that changes whenever this process marks the data as changed (its own writes are seen
    at once; other processes' within REGISTRY_DATA_RECHECK_MS, web/connection.py)."""
    return _last_bump


# The data generation as a SQL expression: a query that reads it with its own rows sees both in one snapshot.
GENERATION = "(SELECT value FROM registry_state WHERE key = 'generation')"


def generation(conn: sqlite3.Connection) -> int:
    """Return the data generation counter."""
    row = conn.execute("SELECT " + GENERATION).fetchone()
    return row[0] or 0

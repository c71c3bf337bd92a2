"""The web app's database connection: one read-only connection per thread, reused across requests
(flaskr's get_db, Datasette's read-only connections), and the init-db command."""
import sqlite3
import threading
import time

import click
from flask import current_app, g
from flask.cli import with_appcontext

from ..db import connect_ro, ensure_schema, generation, writes_here

_readers = threading.local()
# Each thread's connection keeps its own page cache (SQLite's default is 2 MB): with eight threads that
# was 16 MB of a worker's memory holding pages the operating system caches anyway (docs/running.md#memory).
READ_CACHE_KIB = 512
_generations: dict = {}   # db path -> (generation, monotonic time it was read, writes_here())


def get_db() -> sqlite3.Connection:
    """Return this thread's read-only connection to the app's database (one per thread, reused)."""
    path = current_app.config["DATABASE"]
    conn = thread_connection(path)
    g.db_path = path
    return conn


def thread_connection(path: str) -> sqlite3.Connection:
    """This thread's read-only connection to the database at path (opened on first use)."""
    cache = getattr(_readers, "by_path", None)
    if cache is None:
        cache = _readers.by_path = {}
    conn = cache.get(path)
    if conn is None:
        conn = cache[path] = connect_ro(path)
        conn.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")
        # A statement's temporary b-trees (ORDER BY ... LIMIT, UNION, IN lists) held in memory: one that may go
        # to a file gets a page cache whose first block (~88 KB) is mapped, faulted in and unmapped again for every
        # statement (registry/serve/malloc.py); in memory its pages are taken one by one (docs/running.md#memory).
        conn.execute("PRAGMA temp_store = MEMORY")
    return conn


def close_db(_exc=None) -> None:
    """End any read transaction left open by the request; the connection stays for the thread."""
    path = g.pop("db_path", None)
    conn = getattr(_readers, "by_path", {}).get(path) if path else None
    if conn is not None and conn.in_transaction:
        conn.rollback()


def close_thread_connections() -> None:
    """Close every connection this thread holds (tests, shutdown)."""
    for conn in getattr(_readers, "by_path", {}).values():
        conn.close()
    _readers.by_path = {}


def request_generation() -> int:
    """The data generation as this request first read it: read once per request, and from the database
    at most once per DATA_RECHECK_MS per process (docs/api-decisions.md#caching)."""
    if "generation" not in g:
        g.generation = recent_generation(current_app.config)
    return g.generation


def request_snapshot() -> tuple[str, int]:
    """(database path, data generation) as this request reads them: the key of what is built once per generation
    (the search lexicon, the alias index, kept counts)."""
    return current_app.config["DATABASE"], request_generation()


def recent_generation(config) -> int:
    """The data generation of config's database, read from it at most once per DATA_RECHECK_MS (any thread)."""
    path = config["DATABASE"]
    now = time.monotonic()
    writes = writes_here()   # before the query: a write during it makes the next request ask again
    seen = _generations.get(path)
    if seen is None or now - seen[1] >= config["DATA_RECHECK_MS"] / 1000 or seen[2] != writes:
        # A query releases the GIL: with eight threads, each release on the cached path was a hand-off.
        seen = _generations[path] = (generation(thread_connection(path)), now, writes)
    return seen[0]


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database schema, or migrate an older one forward (idempotent, never drops data)."""
    path = current_app.config["DATABASE"]
    old, new = ensure_schema(path)
    if old and old != new:
        click.echo(f"Migrated the database at {path} from schema version {old} to {new}.")
    else:
        click.echo(f"Initialized the database at {path} (schema version {new}).")


def init_app(app) -> None:
    """Register teardown and the init-db command on the app."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)

"""SQL helpers with no knowledge of the registry: the upsert statement and nested transactions.

The lowest module that touches SQLite: db.py (connections, schema), the migrations and the search documents all
import it, and it imports none of them, so no import runs in a circle (tests/test_layers.py).
"""
import itertools
import sqlite3
from contextlib import contextmanager

_savepoints = itertools.count(1)


def upsert_sql(table: str, columns: tuple, conflict: tuple, updated: tuple) -> str:
    """An INSERT of columns into table that, where a row holds the same conflict key, sets its updated columns
    to the new values. Never INSERT OR REPLACE: a replace deletes the old row without firing delete triggers."""
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            f" ON CONFLICT({', '.join(conflict)}) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in updated)}")


def tuples(conn: sqlite3.Connection) -> sqlite3.Cursor:
    """A cursor of conn that reads plain tuples: on a read of every model, alias or fact, the connection's
    sqlite3.Row per row costs more than the query."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor


@contextmanager
def transaction(conn: sqlite3.Connection):
    """Run a block all-or-nothing: a write transaction (BEGIN IMMEDIATE), or a SAVEPOINT inside one.

    Nesting is what lets a function be atomic on its own and still join its caller's transaction
    (as sqlite-utils' Database.atomic() does), so no function has to document who opens it.
    """
    if conn.in_transaction:
        name = f"nested_{next(_savepoints)}"
        conn.execute(f"SAVEPOINT {name}")
        try:
            yield conn
        except BaseException:
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
            raise
        conn.execute(f"RELEASE {name}")
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        # A COMMIT refused (disk full, busy) can leave the transaction open: end it here, so the
        # connection can still record the failure (merge/runs.py).
        if conn.in_transaction:
            conn.rollback()
        raise

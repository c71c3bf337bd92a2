"""Rows read as JSON text that SQLite writes: a few columns stepped per answer instead of every column of every row.

Python's sqlite3 module lets go of the GIL around each column of each row it reads (CPython's
Modules/_sqlite/cursor.c calls sqlite3_column_type between Py_BEGIN_ALLOW_THREADS and Py_END_ALLOW_THREADS). In a
worker whose threads are all busy, each let-go hands the GIL to another thread and the reader waits to get it
back: a model's answer read as four rows of up to thirty columns cost about a hundred hand-offs, where a whole
request of the bare Flask app costs seventeen (docs/running.md#threads-and-the-gil). Read as one JSON text, the
same rows are two columns of one row.

JSON carries text, integers and NULL exactly, but writes a REAL with 15 significant digits and cannot hold a BLOB;
so each row also says whether a column holds either, and such rows are read plainly instead.

Only for rows that are all returned: SQLite computes a SELECT list before it sorts, so a query that ranks many
candidates to keep a few (ORDER BY ... LIMIT, as search's words query does) would write every candidate's JSON.
"""
import json


class Columns:
    """A table of columns ({name: SQL expression}) and the SQL that reads them, written once (not per request).

    checked: the expressions that may hold a REAL or a BLOB (default: every column's). A column whose expression
    binds a parameter must be left out of them: they are written twice, and the parameters would shift."""

    def __init__(self, table: dict, checked=None):
        self.names = tuple(table)
        self.select = select(table)
        self.object = object_sql(table)
        self.inexact = inexact_sql(table.values() if checked is None else checked)


def select(columns: dict) -> str:
    """The SELECT list of columns ({name: SQL expression}), each under its name."""
    return "SELECT " + ", ".join(expr if expr == name or expr.endswith("." + name) else f"{expr} AS {name}"
                                 for name, expr in columns.items())


def object_sql(columns: dict) -> str:
    """A SQL expression writing a row as a JSON object of columns ({name: SQL expression}), in their order."""
    return "json_object(" + ", ".join(f"'{name}', {expr}" for name, expr in columns.items()) + ")"


def inexact_sql(exprs) -> str:
    """A SQL expression true when one of the expressions' values holds what JSON does not carry exactly."""
    return "(" + " OR ".join(f"typeof({expr}) IN ('real', 'blob')" for expr in exprs) + ")"


def rows_text(db, row_sql: str, checked_sql: str, rest: str, args=()) -> str | None:
    """The JSON text of the array of row_sql's values over `FROM ... [ORDER BY ...]` (rest), in its order; None
    when checked_sql is true for a row (its values are not carried exactly: the caller reads them plainly)."""
    text, inexact = db.execute(f"SELECT group_concat(j, ','), max(x) {_rows(row_sql, checked_sql, rest)}",
                               args).fetchone()
    if inexact:
        return None
    # The brackets added here, in one copy: each `||` in SQLite is a copy of a page's text too, and a page of models
    # is tens of KB, each such block mapped and unmapped in a worker (docs/running.md#memory).
    return "".join(("[", text or "", "]"))


# The JSON array of the rows _rows writes (j), "[]" for none (a part's: a few rows).
_ARRAY = "'[' || coalesce(group_concat(j, ','), '') || ']'"


def _rows(row_sql: str, checked_sql: str, rest: str) -> str:
    # An outer aggregate reads an ordered subquery in its order: SQLite never flattens one into it (the query
    # planner's flattening rule 16, kept for group_concat's sake).
    return f"FROM (SELECT {_unless(checked_sql, row_sql)} AS j, {checked_sql} AS x {rest})"


def every(db, columns: Columns, rest: str, args=()) -> list:
    """Every row of `SELECT columns` + rest (`FROM ... [WHERE ...] [ORDER BY ...]`), as dicts in its order."""
    text = rows_text(db, columns.object, columns.inexact, rest, args)
    if text is None:
        return _plain(db, columns, rest, args)
    return json.loads(text)


def values(db, expr: str, rest: str, args=()) -> list:
    """The value of expr in every row of rest, in its order (a list of ids, say)."""
    text = rows_text(db, f"json_quote({expr})", inexact_sql([expr]), rest, args)
    if text is None:
        return [row[0] for row in db.execute(f"SELECT {expr} {rest}", args)]
    return json.loads(text)


def first(db, columns: Columns, rest: str, args=()) -> dict | None:
    """The first row of `SELECT columns` + rest as a dict, or None."""
    found = first_with(db, columns, rest, args)
    return None if found is None else found[0]


def first_with(db, columns: Columns, rest: str, args=(), parts: dict = None) -> tuple | None:
    """The first row of `SELECT columns` + rest as a dict and the rows of each of its parts, all read in one
    statement; None when there is no row. parts: {name: (Columns, `FROM ... WHERE ... [ORDER BY ...]` naming the
    row's tables and binding nothing)}; a part's rows are a list in its order, or None where one of them holds
    what JSON does not carry exactly (the caller reads that part plainly)."""
    parts = parts or {}
    nested = "".join(f", (SELECT CASE WHEN max(x) THEN NULL ELSE {_ARRAY} END"
                     f" {_rows(part.object, part.inexact, where)})" for part, where in parts.values())
    row = db.execute(f"SELECT {_unless(columns.inexact, columns.object)}, {columns.inexact}{nested} {rest}",
                     args).fetchone()
    if row is None:
        return None
    if row[1]:
        plain = _plain(db, columns, rest, args)
        return (plain[0], {name: None for name in parts}) if plain else None
    return json.loads(row[0]), {name: None if text is None else json.loads(text)
                                for name, text in zip(parts, row[2:], strict=True)}


def _plain(db, columns: Columns, rest: str, args) -> list:
    return [dict(zip(columns.names, row, strict=True)) for row in db.execute(f"{columns.select} {rest}", args)]


def _unless(checked_sql: str, row_sql: str) -> str:
    # json_object refuses a BLOB (an error, not a NULL): a row that holds one is not written at all.
    return f"CASE WHEN {checked_sql} THEN NULL ELSE {row_sql} END"

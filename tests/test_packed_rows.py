"""Rows read as JSON text SQLite writes (registry/queries/packed.py) are the rows the sqlite3 module reads."""
import sqlite3

import pytest

from registry.queries import packed

COLUMNS = packed.Columns({"id": "t.id", "name": "t.name", "size": "t.size", "note": "n.note"})
FROM = "FROM things t LEFT JOIN notes n ON n.thing_id = t.id"


@pytest.fixture()
def db():
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    conn.executescript("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT, size INTEGER);"
                       "CREATE TABLE notes (thing_id INTEGER, note TEXT);")
    yield conn
    conn.close()


def plain(db, rest, args=()):
    return [dict(r) for r in db.execute(f"{COLUMNS.select} {rest}", args)]


@pytest.mark.parametrize("rows", [
    [],
    [(1, "plain", 7)],
    [(1, 'Q "quoted" \\ back\nline\x01\x1f é \u2028 😀 </script>', None)],     # every kind of character
    [(1, "big", 2**62), (2, "negative", -(2**62)), (3, "zero", 0)],                  # integers JSON must carry whole
    [(1, "a", 1), (2, "b", 12345.678901234567)],                                      # a REAL: read plainly, exact
    [(1, "a", 1), (2, b"\x00\xff", 2)],                                               # a BLOB: read plainly
    [(i, f"n{i}", i * 10) for i in range(1, 60)],                                     # many rows, in order
])
def test_rows_read_as_json_are_the_rows_read_plainly(db, rows):
    db.executemany("INSERT INTO things VALUES (?, ?, ?)", rows)
    db.executemany("INSERT INTO notes VALUES (?, ?)", [(r[0], f"note of {r[0]}") for r in rows[::2]])
    for rest in (f"{FROM} ORDER BY t.id DESC", f"{FROM} ORDER BY t.size, t.id", f"{FROM} WHERE t.id > 1 ORDER BY t.id"):
        read = packed.every(db, COLUMNS, rest)
        assert read == plain(db, rest)
        assert [type(v) for r in read for v in r.values()] == [type(v) for r in plain(db, rest) for v in r.values()]
        assert packed.values(db, "t.size", rest) == [r["size"] for r in plain(db, rest)]
    # A column that binds a parameter is left out of the checked ones (they are written twice).
    bound = packed.Columns({"id": "t.id", "large": "coalesce(t.size > ?, 0)"}, checked=["t.id"])
    rest = "FROM things t WHERE t.id >= ? ORDER BY t.id"
    assert packed.every(db, bound, rest, (5, 2)) == [dict(r) for r in db.execute(f"{bound.select} {rest}", (5, 2))]
    for thing_id in (1, 2, 99):
        rest = f"{FROM} WHERE t.id = ?"
        expected = plain(db, rest, (thing_id,))
        assert packed.first(db, COLUMNS, rest, (thing_id,)) == (expected[0] if expected else None)


def test_a_page_is_one_row_of_two_columns(db):
    """What the module is for: the sqlite3 module reads a whole answer as one row's two columns."""
    db.executemany("INSERT INTO things VALUES (?, ?, ?)", [(i, f"n{i}", i) for i in range(1, 51)])
    statements = []
    db.set_trace_callback(statements.append)
    text = packed.rows_text(db, COLUMNS.object, COLUMNS.inexact, f"{FROM} ORDER BY t.id")
    db.set_trace_callback(None)
    assert len(statements) == 1
    cursor = db.execute(statements[0])
    assert len(cursor.description) == 2 and len(cursor.fetchall()) == 1
    assert text.startswith('[{"id":1,"name":"n1","size":1,"note":null}')


@pytest.mark.parametrize("sizes, notes", [
    ([7], ["a", "b", "c"]),                       # a row and its part's rows, in the part's order
    ([7], []),                                    # a part with no rows: []
    ([2.5], ["a"]),                               # the row holds a REAL: read plainly, parts too
    ([7], [b"\x00"]),                             # a part holds a BLOB: that part is left to the caller (None)
    ([], []),                                     # no row: None
])
def test_a_row_and_its_parts_are_one_statement(db, sizes, notes):
    """catalog.model_with: a model's row with its aliases and platform lifecycles, read as one row of JSON texts."""
    db.executemany("INSERT INTO things VALUES (?, ?, ?)", [(i, f"n{i}", size) for i, size in enumerate(sizes, 1)])
    db.executemany("INSERT INTO notes VALUES (1, ?)", [(note,) for note in notes[::-1]])
    parts = {"notes": (packed.Columns({"note": "n.note"}), "FROM notes n WHERE n.thing_id = t.id ORDER BY n.note"),
             "none": (packed.Columns({"note": "n.note"}), "FROM notes n WHERE n.thing_id = -t.id")}
    rest = "FROM things t WHERE t.id = ?"
    statements = []
    db.set_trace_callback(statements.append)
    found = packed.first_with(db, packed.Columns({"id": "t.id", "size": "t.size"}), rest, (1,), parts)
    db.set_trace_callback(None)
    if not sizes:
        assert found is None
        return
    row, rows = found
    assert row == {"id": 1, "size": sizes[0]} and type(row["size"]) is type(sizes[0])
    if isinstance(sizes[0], float):
        assert rows == {"notes": None, "none": None} and len(statements) == 2
    elif any(isinstance(n, bytes) for n in notes):
        assert rows == {"notes": None, "none": []} and len(statements) == 1
    else:
        assert rows == {"notes": [{"note": n} for n in notes], "none": []} and len(statements) == 1

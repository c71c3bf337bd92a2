import sqlite3

import pytest

from registry.db import connect_ro, connect_rw, init_db


def test_init_db_is_idempotent_and_keeps_data(runner, app, rw):
    before = rw.execute("SELECT count(*) FROM models").fetchone()[0]
    assert before > 0
    for _ in range(2):
        result = runner.invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert "Initialized" in result.output
    assert rw.execute("SELECT count(*) FROM models").fetchone()[0] == before


def test_pragmas(tmp_path):
    path = str(tmp_path / "x.db")
    init_db(path)
    conn = connect_rw(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000


def test_web_connection_is_read_only(tmp_path):
    path = str(tmp_path / "x.db")
    init_db(path)
    conn = connect_ro(path)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("INSERT INTO registry_state (key, value) VALUES ('x', 1)")


def test_foreign_keys_enforced(tmp_path):
    path = str(tmp_path / "x.db")
    init_db(path)
    conn = connect_rw(path)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO families (slug, name, provider_id, created_at, updated_at)"
                     " VALUES ('f', 'F', 999, 'x', 'x')")


def test_schema_has_no_insert_or_replace():
    from registry.db import schema_sql
    assert "OR REPLACE" not in schema_sql().upper()

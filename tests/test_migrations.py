"""Schema migrations: a db made with the first released schema (tests/data/schema_v1.sql) and real
data is brought to the latest version by init-db and serve, keeps every row, searches and resolves
like a fresh db; a second run is a no-op; a failing step leaves the file exactly as it was."""
import contextlib
import json
import re
import sqlite3
from unittest import mock

import pytest

from helpers import DATA, build_db
from registry import create_app, db, migrations
from registry.curation import apply
from registry.curation.apply import apply_curation
from registry.curation.reader import read_curation
from registry.db import connect_rw, init_db, schema_sql, transaction
from registry.web.connection import close_thread_connections
from registry.ingest import sources
from registry.ingest.match import records_to_facts
from registry.ingest.runner import run_source
from registry.ingest.snapshots import load_pages
from registry import lifecycle as rules
from registry.merge import changes, lifecycle
from registry.merge import facts as facts_table
from registry.merge.recompute import recompute
from registry import documents
from registry.migrations import MigrationError, Step

SEEDS = DATA.parent.parent / "seeds"
# made by steps after version 1
NEW_TABLES = ("changes", "webhooks", "webhook_deliveries", "webhook_attempts", "platform_lifecycles",
              "model_capabilities")
DERIVED = re.compile(r"^search_")    # rebuilt by the migration, compared as search results instead
QUERIES = [("search", "claude sonnet 4.5"), ("search", "claudesonnet45"), ("search", "llama 3.1 8b"),
           ("search", "cla"), ("search", "us.anthropic.claude-3-5-sonnet-20241022-v2:0"),
           ("resolve", "claude-3-5-sonnet-latest"), ("resolve", "anthropic/claude-3.5-sonnet"),
           ("resolve", "claude-opus-4-5-20251101"), ("models", "")]


def first_release_statuses():
    """The lifecycle as the first release decided it: the model's own status only, in models.status
    (platform lifecycles and family successor lines came with step 9)."""
    def statuses(conn, on=None, signals=None):
        members = {r[0]: rules.Member(id=r[0], slug=r[1], family_id=r[2], release_date=r[3],
                                      deprecation_date=r[4], sunset_date=r[5]) for r in conn.execute(
            "SELECT id, slug, family_id, release_date, deprecation_date, sunset_date FROM models")}
        decided = rules.own_statuses(members, on or rules.today())
        conn.executemany("UPDATE models SET status = ? WHERE id = ?", [(v, k) for k, v in decided.items()])
        return set()
    return mock.patch.object(lifecycle, "recompute", statuses)


@contextlib.contextmanager
def first_release_merge():
    """The merge as the first release wrote it: no capability set (step 10 added it), and search documents of
    five columns (step 12 added their words), written here as that release's writer did."""
    from registry.merge import recompute as merge
    with mock.patch.object(merge, "COMPARED", tuple(c for c in merge.COMPARED if c != "capabilities")), \
            mock.patch.object(merge, "write_capability_rows", lambda *args: None), \
            mock.patch.object(merge, "_write_aliases", first_release_aliases), \
            mock.patch.object(apply, "replace_facts", first_release_replace), \
            mock.patch.object(documents, "refresh", first_release_documents):
        yield


def first_release_replace(conn, source, facts, aliases):
    """A source's facts and alias claims as the first release stored them: a claim keyed by its string alone
    (step 16 keyed it by string and platform)."""
    facts_table._swap(conn, source, "facts", ("model_slug", "field"), ("value",), facts)
    facts_table._swap(conn, source, "alias_facts", ("alias",), ("model_slug", "alias_source", "position"), aliases)


def first_release_aliases(conn, claims, names_by_model, ids, kept, tombstones=frozenset()):
    """The aliases as the first release wrote them: one row per string (step 16 made it one per string and
    platform)."""
    from registry.merge import recompute as merge
    keys = {slug: merge.model_key(names_by_model.get(slug, []), slug) for slug in kept}
    conn.executemany(
        "INSERT INTO aliases (alias, model_id, source, position, normalized) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT(alias) DO UPDATE SET model_id = excluded.model_id, source = excluded.source,"
        " position = excluded.position, normalized = excluded.normalized",
        [(alias, ids[slug], alias_source, position, keys[slug])
         for (alias, alias_source), (slug, position, _) in claims.items() if slug in kept])
    return set()


def first_release_documents(conn, model_ids=None) -> None:
    """The first release's search documents: the names of every model, no words column."""
    conn.execute("DELETE FROM search_docs")
    conn.execute(
        "INSERT INTO search_docs (model_id, display_name, slug, aliases, family, squashed)"
        " SELECT m.id, m.display_name, m.slug, coalesce((SELECT group_concat(alias, char(10)) FROM aliases"
        " WHERE model_id = m.id), ''), f.name, '' FROM models m JOIN families f ON f.id = m.family_id")


def build_v1_db(path, curation_dir, stamp=None):
    """A db as the first release made it: schema v1, the fixture curation and one ingested source."""
    conn = connect_rw(str(path))
    try:
        conn.executescript((DATA / "schema_v1.sql").read_text(encoding="utf-8"))
        if stamp is not None:
            conn.execute(f"PRAGMA user_version = {stamp}")
        cur = read_curation(curation_dir)
        assert not cur.errors
        # The first release kept no change history (schema step 6 added it).
        # Nor successor lines of families and lifecycles per platform (step 9).
        with mock.patch.object(changes, "recording", lambda *args: contextlib.nullcontext()), \
                mock.patch.object(apply, "_link_family_successors", lambda *args: None), first_release_statuses(), \
                first_release_merge():
            apply_curation(conn, cur)
    finally:
        conn.close()
    # One automated source's facts, written as the first release wrote them (its run rows had no
    # details column yet): the real parse, match and merge, without today's run record.
    conn = connect_rw(str(path))
    try:
        module = sources.load("vendor-b-api")
        records = module.parse(load_pages(str(SEEDS), "vendor-b-api"))
        with transaction(conn), first_release_statuses(), first_release_merge():
            facts, aliases, _ = records_to_facts(conn, "vendor-b-api", records)
            first_release_replace(conn, "vendor-b-api", facts, aliases)
            recompute(conn)
    finally:
        conn.close()


def rows(path, like=None) -> dict:
    """Every row of every table but the derived search tables, in a stable order.

    like: an earlier rows() result; only its columns are read (a migration may add columns).
    """
    conn = sqlite3.connect(str(path))
    conn.row_factory = sqlite3.Row
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                            " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        out = {}
        for n in names:
            if DERIVED.match(n):
                continue
            found = conn.execute(f'SELECT * FROM "{n}"').fetchall()
            columns = like[n][0] if like and n in like else (found[0].keys() if found else [])
            out[n] = (list(columns), sorted(repr(tuple(r[c] for c in columns)) for r in found))
        return out
    finally:
        conn.close()


def schema_objects(path) -> dict:
    """sqlite_master as (type, name) -> statement, comments, spacing and IF NOT EXISTS left out."""
    conn = sqlite3.connect(str(path))
    try:
        found = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    finally:
        conn.close()
    norm = {}
    for kind, name, sql in found:
        sql = re.sub(r"--[^\n]*", "", sql)
        sql = re.sub(r"\s+", " ", re.sub(r"(?i)IF NOT EXISTS ", "", sql)).strip()
        norm[(kind, name)] = re.sub(r"\s*([(),])\s*", r"\1", sql)
    return norm


def user_version(path) -> int:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def answers(path, curation_dir) -> list:
    """What the API says to QUERIES over the db at path."""
    app = create_app({"TESTING": True, "DATABASE": str(path), "CURATION_DIR": str(curation_dir),
                      "ADMIN_API_KEYS": []})
    client = app.test_client()
    out = []
    for endpoint, q in QUERIES:
        response = client.get(f"/api/v1/{endpoint}", query_string={"q": q} if q else {"per_page": 200})
        out.append((endpoint, q, response.status_code, response.get_json()))
    close_thread_connections()
    return out


@pytest.fixture
def v1_db(tmp_path, curation_dir):
    path = tmp_path / "v1.db"
    build_v1_db(path, curation_dir)
    return path


@pytest.fixture
def fresh_db(tmp_path, curation_dir):
    """The same data built with the current schema: what a migrated db must look like."""
    path = tmp_path / "fresh.db"
    build_db(path, curation_dir)
    assert run_source(str(path), "vendor-b-api", offline=True, seeds_dir=str(SEEDS)).status == "completed"
    return path


def test_steps_are_numbered_one_after_another():
    assert [s.version for s in migrations.STEPS] == list(range(2, migrations.latest() + 1))
    assert all(s.description for s in migrations.STEPS)


def test_fresh_db_gets_the_latest_schema_and_version(tmp_path):
    path = tmp_path / "new.db"
    assert init_db(str(path)) == (0, migrations.latest())
    assert user_version(path) == migrations.latest()
    assert init_db(str(path)) == (migrations.latest(), migrations.latest())


def test_init_db_migrates_a_v1_db_keeping_every_row(v1_db, fresh_db, curation_dir):
    before = rows(v1_db)
    assert sum(len(r) for _, r in before.values()) > 100 and before["models"][1] and before["facts"][1]
    app = create_app({"TESTING": True, "DATABASE": str(v1_db), "ADMIN_API_KEYS": []})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert f"from schema version 1 to {migrations.latest()}" in result.output
    assert user_version(v1_db) == migrations.latest()
    after = rows(v1_db, like=before)
    generation = after.pop("registry_state"), before.pop("registry_state")
    assert generation[0] != generation[1]              # caches of running servers rebuild
    for added in NEW_TABLES:                           # tables later steps add start empty
        assert after.pop(added)[1] == [], added
    assert after == before
    # The migrated file is the current schema, and answers like a db built with it.
    assert schema_objects(v1_db) == schema_objects(fresh_db), (
        "schema.sql changed without a migration step in registry/migrations.py")
    assert answers(v1_db, curation_dir) == answers(fresh_db, curation_dir)


def test_a_stamped_v1_db_migrates_too(tmp_path, curation_dir):
    path = tmp_path / "v1.db"
    build_v1_db(path, curation_dir, stamp=1)
    assert init_db(str(path)) == (1, migrations.latest())


def test_second_init_db_is_a_no_op_and_takes_no_write_lock(v1_db, monkeypatch):
    init_db(str(v1_db))
    before = rows(v1_db), schema_objects(v1_db)
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 200)    # a write attempt would fail fast, not wait
    writer = connect_rw(str(v1_db))
    writer.execute("BEGIN IMMEDIATE")                  # an ingest holding the write lock
    try:
        assert init_db(str(v1_db)) == (migrations.latest(), migrations.latest())
    finally:
        writer.rollback()
        writer.close()
    assert (rows(v1_db), schema_objects(v1_db)) == before


def _fail_in_python(conn):
    conn.execute("DELETE FROM aliases")
    conn.execute("CREATE TABLE half_done (x)")
    raise RuntimeError("step broke midway")


@pytest.mark.parametrize("apply, error", [
    (_fail_in_python, RuntimeError),
    ("DELETE FROM facts;\nALTER TABLE models ADD COLUMN extra TEXT;\nINSERT INTO no_such_table VALUES (1);",
     MigrationError),   # SQLite's error, said with the step that failed (a clean CLI error)
])
def test_a_failing_step_rolls_back_everything(v1_db, monkeypatch, apply, error):
    before = rows(v1_db), schema_objects(v1_db), user_version(v1_db)
    broken = Step(migrations.latest() + 1, "breaks", apply)
    monkeypatch.setattr(migrations, "STEPS", [*migrations.STEPS, broken])
    with pytest.raises(error):
        init_db(str(v1_db))
    # Still version 1 (unstamped), the v1 search tables, every row: the earlier steps rolled back too.
    assert (rows(v1_db), schema_objects(v1_db), user_version(v1_db)) == before
    monkeypatch.undo()
    assert init_db(str(v1_db)) == (1, migrations.latest())


@pytest.mark.parametrize("prepare, message", [
    ("PRAGMA user_version = 99", "newer than this registry knows"),
    ("CREATE TABLE notes (x)", "not a registry database"),
    # A models table of its own and no version reads as an unversioned first release: its first step fails.
    ("CREATE TABLE models (x); CREATE TABLE notes (x)", "failed: no such column"),
])
def test_files_it_cannot_migrate_are_refused_untouched(tmp_path, prepare, message):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(str(path))
    conn.executescript(prepare)
    conn.close()
    before = schema_objects(path), user_version(path)
    with pytest.raises(MigrationError, match=message):
        init_db(str(path))
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1 and message in result.output
    assert "Traceback" not in result.output
    assert (schema_objects(path), user_version(path)) == before


def test_serve_migrates_before_it_starts(v1_db, monkeypatch):
    started = []
    monkeypatch.setattr("registry.serve.server.serve", lambda: started.append(user_version(v1_db)))
    app = create_app({"TESTING": True, "DATABASE": str(v1_db), "ADMIN_API_KEYS": []})
    result = app.test_cli_runner().invoke(args=["serve"])
    assert result.exit_code == 0, result.output
    assert started == [migrations.latest()]


@pytest.mark.parametrize("args, answered", [
    (["audit"], "finding(s)."),
    (["export", "--format", "ndjson"], '"slug"'),
])
def test_read_commands_migrate_an_older_db_before_reading_it(v1_db, curation_dir, args, answered):
    # The first column the older schema lacks was a traceback: serve migrated, audit and export did not.
    app = create_app({"TESTING": True, "DATABASE": str(v1_db), "CURATION_DIR": str(curation_dir)})
    result = app.test_cli_runner().invoke(args=args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert answered in result.output
    assert user_version(v1_db) == migrations.latest()


@pytest.mark.parametrize("prepare, code, message", [
    ("PRAGMA user_version = 99", 2, "No registry database at"),
    ("CREATE TABLE models (x); PRAGMA user_version = 99", 1, "newer than this registry knows"),
    ("CREATE TABLE models (x); CREATE TABLE notes (x)", 1, "failed: no such column"),
])
def test_audit_refuses_a_db_it_cannot_read_untouched(tmp_path, curation_dir, prepare, code, message):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(str(path))
    conn.executescript(prepare)
    conn.close()
    before = schema_objects(path), user_version(path)
    app = create_app({"TESTING": True, "DATABASE": str(path), "CURATION_DIR": str(curation_dir)})
    result = app.test_cli_runner().invoke(args=["audit"])
    assert result.exit_code == code and message in result.output
    assert "Traceback" not in result.output
    assert (schema_objects(path), user_version(path)) == before


def test_mcp_migrates_before_it_serves(v1_db, monkeypatch):
    started = []
    monkeypatch.setattr("registry.mcp.server.run_stdio", lambda path: started.append(user_version(path)))
    app = create_app({"TESTING": True, "DATABASE": str(v1_db)})
    result = app.test_cli_runner().invoke(args=["mcp"])
    assert result.exit_code == 0, result.output
    assert started == [migrations.latest()]


@pytest.mark.parametrize("command", ["audit", "mcp"])
def test_a_command_over_no_registry_says_so(tmp_path, curation_dir, command):
    path = tmp_path / "none.db"
    app = create_app({"TESTING": True, "DATABASE": str(path), "CURATION_DIR": str(curation_dir)})
    result = app.test_cli_runner().invoke(args=[command])
    assert result.exit_code == 2 and f"No registry database at {path}" in result.output
    assert "Traceback" not in result.output and not path.exists()


def test_split_sql_keeps_trigger_bodies_whole():
    statements = migrations.split_sql(schema_sql())
    triggers = [s for s in statements if "CREATE TRIGGER" in s]
    assert triggers and all(s.rstrip().endswith("END;") for s in triggers)
    assert all(sqlite3.complete_statement(s) for s in statements)


# (kind, field, old, new, upgrade, the title a version before 11 stored, the title read now)
STORED_TITLES = [
    # Worded from its data, as it was when stored.
    ("shutdown_scheduled", "sunset_date", None, "2027-01-14", "claude-sonnet-4-5-20250929",
     "claude-3-haiku-20240307: shutdown scheduled for 2027-01-14; move to claude-sonnet-4-5-20250929",
     "claude-3-haiku-20240307: shutdown scheduled for 2027-01-14; move to claude-sonnet-4-5-20250929"),
    # Words an older version stored differently: the data is worded as registry/wording.py words it now.
    ("status_changed", "status", "deprecated", "sunset", None,
     "claude-3-haiku-20240307 is now sunset", "claude-3-haiku-20240307: now sunset (was deprecated)"),
    # Data that cannot be worded (a field change naming no field): its stored words still show.
    ("field_changed", None, 1, 2, None, "claude-3-haiku-20240307: context changed",
     "claude-3-haiku-20240307: context changed"),
]


@pytest.mark.parametrize("kind, field, old, new, upgrade, stored, read", STORED_TITLES)
def test_changes_stored_with_their_words_read_as_data_after_step_11(tmp_path, curation_dir, kind, field, old, new,
                                                                  upgrade, stored, read):
    path = tmp_path / "v10.db"
    build_db(path, curation_dir)
    conn = connect_rw(str(path))
    try:   # the changes table as versions 6 to 10 made it: a title on every row, NOT NULL
        conn.executescript("DROP TABLE changes;" + migrations._CHANGES_V6 + "PRAGMA user_version = 10;")
        conn.execute("INSERT INTO changes (occurred_at, kind, model_slug, family_slug, provider_slug, field, old,"
                     " new, source, upgrade_slug, title) VALUES ('2026-11-20T00:00:00Z', ?, 'claude-3-haiku-20240307',"
                     " 'claude-haiku', 'anthropic', ?, ?, ?, 'curation', ?, ?)",
                     (kind, field, json.dumps(old), json.dumps(new), upgrade, stored))
    finally:
        conn.close()
    assert init_db(str(path)) == (10, migrations.latest())
    app = create_app({"TESTING": True, "DATABASE": str(path), "ADMIN_API_KEYS": []})
    body = app.test_client().get("/api/v1/changes").get_json()
    close_thread_connections()
    assert [(c["kind"], c["old"], c["new"], c["title"]) for c in body["changes"]] == [(kind, old, new, read)]
    # New rows are stored as data only: a run records its changes with no words.
    assert run_source(str(path), "vendor-b-api", offline=True, seeds_dir=str(SEEDS)).status == "completed"
    conn = sqlite3.connect(str(path))
    try:
        recorded, worded = conn.execute("SELECT count(*), count(title) FROM changes WHERE id > 1").fetchone()
        assert recorded > 0 and worded == 0
    finally:
        conn.close()

"""Schema versions: `PRAGMA user_version` records a db file's schema; numbered steps bring it forward.

Version 1 is the first released schema (tests/data/schema_v1.sql). schema.sql is always the latest
version: a new db gets it whole. An older db runs every pending step (frozen SQL or a function),
all in one transaction: the file ends at the latest version or stays exactly as it was.

The search objects (every table, index and trigger named search_*) hold only data derived from
models and aliases. A step that changes them sets rebuild_search: once the other steps ran, they are
dropped and made as schema.sql has them now, and the documents are rebuilt by the current code.
Changing schema.sql means adding a step here; the test comparing a migrated v1 db with a fresh one
fails until the step exists.
"""
import re
import sqlite3
from dataclasses import dataclass
from typing import Callable, Union

from . import documents

FIRST_VERSION = 1
_SEARCH_DDL = re.compile(r"CREATE\s+(?:VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?search_",
                         re.IGNORECASE)
_COMMENT = re.compile(r"--[^\n]*")


class MigrationError(RuntimeError):
    """The db cannot be brought to this code's schema version (newer, foreign, or inconsistent)."""


_CHANGES_V6 = """
CREATE TABLE IF NOT EXISTS changes (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER REFERENCES ingestion_runs(id),
    occurred_at   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('model_added', 'model_removed', 'field_changed',
                      'status_changed', 'deprecation_announced', 'shutdown_scheduled',
                      'alias_added', 'alias_removed', 'latest_changed')),
    model_slug    TEXT NOT NULL,
    family_slug   TEXT NOT NULL,
    provider_slug TEXT NOT NULL,
    field         TEXT,
    old           TEXT,
    new           TEXT,
    source        TEXT NOT NULL,
    upgrade_slug  TEXT,
    title         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_model ON changes(model_slug, id);
CREATE INDEX IF NOT EXISTS changes_family ON changes(family_slug, id);
CREATE INDEX IF NOT EXISTS changes_provider ON changes(provider_slug, id);
CREATE INDEX IF NOT EXISTS changes_kind ON changes(kind, id);
"""

_WEBHOOKS_V7 = """
CREATE TABLE IF NOT EXISTS webhooks (
    id             INTEGER PRIMARY KEY,
    url            TEXT NOT NULL,
    secret         TEXT NOT NULL,                  -- whsec_...: signs every delivery; shown once
    models         TEXT NOT NULL DEFAULT '[]',     -- JSON [{identifier, slug, alias, alias_source}]
    providers      TEXT NOT NULL DEFAULT '[]',     -- JSON provider slugs; empty: every provider
    kinds          TEXT NOT NULL DEFAULT '[]',     -- JSON change kinds and shutdown_upcoming; empty: all
    days_before    TEXT NOT NULL DEFAULT '[90, 30, 7]',
    change_cursor  INTEGER NOT NULL DEFAULT 0,     -- changes up to this id are already queued
    created_at     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,                -- change-<id>, shutdown-<slug>-<date>-<days>
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,                -- the JSON body, byte for byte what is signed
    status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    tries            INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    created_at       TEXT NOT NULL,
    completed_at     TEXT,
    UNIQUE (webhook_id, event_id)                  -- never one event twice to one endpoint
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
    id            INTEGER PRIMARY KEY,
    delivery_id   INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at  TEXT NOT NULL,
    status_code   INTEGER,
    error         TEXT,
    duration_ms   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts(delivery_id);
"""

_PLATFORMS_V9 = """
ALTER TABLE families ADD COLUMN successor_id INTEGER REFERENCES families(id) ON DELETE SET NULL;
CREATE TABLE IF NOT EXISTS platform_lifecycles (
    model_id          INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    platform          TEXT NOT NULL CHECK (platform IN ('official', 'cloud-a', 'cloud-b', 'gateway', 'hub')),
    status            TEXT NOT NULL CHECK (status IN ('active', 'latest', 'deprecated', 'sunset')),
    deprecation_date  TEXT,
    sunset_date       TEXT,
    successor_id      INTEGER REFERENCES models(id) ON DELETE SET NULL,
    upgrade_id        INTEGER REFERENCES models(id) ON DELETE SET NULL,
    own_schedule      INTEGER NOT NULL DEFAULT 0,   -- 1: the days are the platform's own, not the model's
    sources           TEXT,
    PRIMARY KEY (model_id, platform)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS platform_lifecycles_upgrade ON platform_lifecycles(upgrade_id);
DELETE FROM registry_state WHERE key = 'status_day';
"""

_CAPABILITIES_V10 = """
ALTER TABLE models ADD COLUMN capabilities TEXT;
CREATE TABLE IF NOT EXISTS model_capabilities (
    capability  TEXT NOT NULL,
    value       TEXT NOT NULL,
    model_id    INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    PRIMARY KEY (capability, value, model_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS model_capabilities_model ON model_capabilities(model_id);
CREATE INDEX IF NOT EXISTS models_type_release ON models(model_type, release_date DESC);
"""

# A change is stored as data, worded when read (registry/wording.py): title, NOT NULL until now, may be
# NULL. SQLite cannot drop a NOT NULL, so the table is made again with the same columns and indexes.
_CHANGES_AS_DATA_V11 = """
ALTER TABLE changes RENAME TO changes_v10;
CREATE TABLE changes (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER REFERENCES ingestion_runs(id),
    occurred_at   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('model_added', 'model_removed', 'field_changed',
                      'status_changed', 'deprecation_announced', 'shutdown_scheduled',
                      'alias_added', 'alias_removed', 'latest_changed')),
    model_slug    TEXT NOT NULL,
    family_slug   TEXT NOT NULL,
    provider_slug TEXT NOT NULL,
    field         TEXT,
    old           TEXT,
    new           TEXT,
    source        TEXT NOT NULL,
    upgrade_slug  TEXT,
    title         TEXT
);
INSERT INTO changes (id, run_id, occurred_at, kind, model_slug, family_slug, provider_slug, field, old, new,
                     source, upgrade_slug, title)
    SELECT id, run_id, occurred_at, kind, model_slug, family_slug, provider_slug, field, old, new,
           source, upgrade_slug, title FROM changes_v10;
DROP TABLE changes_v10;
CREATE INDEX IF NOT EXISTS changes_model ON changes(model_slug, id);
CREATE INDEX IF NOT EXISTS changes_family ON changes(family_slug, id);
CREATE INDEX IF NOT EXISTS changes_provider ON changes(provider_slug, id);
CREATE INDEX IF NOT EXISTS changes_kind ON changes(kind, id);
"""


# An alias is a string on one platform (the same Gemini id on the Gemini API and on Vertex AI): aliases are unique on
# (alias, source), and a source's alias claims on (source, alias, alias_source); an alias says whether an automated
# listing names it (listed). SQLite cannot drop a UNIQUE, so both tables are made again with the same rows and ids.
_ALIAS_PER_PLATFORM_V16 = """
ALTER TABLE aliases RENAME TO aliases_v15;
CREATE TABLE aliases (
    id          INTEGER PRIMARY KEY,
    alias       TEXT NOT NULL,
    model_id    INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    source      TEXT NOT NULL CHECK (source IN ('official', 'cloud-a', 'cloud-b', 'gateway')),
    position    INTEGER NOT NULL DEFAULT 0,
    normalized  TEXT NOT NULL,
    listed      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (alias, source)
);
INSERT INTO aliases (id, alias, model_id, source, position, normalized, listed)
    SELECT id, alias, model_id, source, position, normalized,
           EXISTS (SELECT 1 FROM alias_facts f WHERE f.alias = aliases_v15.alias AND f.source != 'curation')
    FROM aliases_v15;
DROP TABLE aliases_v15;
CREATE INDEX IF NOT EXISTS aliases_model ON aliases(model_id, source, position);
ALTER TABLE alias_facts RENAME TO alias_facts_v15;
CREATE TABLE alias_facts (
    source        TEXT NOT NULL,
    alias         TEXT NOT NULL,
    model_slug    TEXT NOT NULL,
    alias_source  TEXT NOT NULL,
    position      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (source, alias, alias_source)
) WITHOUT ROWID;
INSERT INTO alias_facts SELECT source, alias, model_slug, alias_source, position FROM alias_facts_v15;
DROP TABLE alias_facts_v15;
CREATE INDEX IF NOT EXISTS alias_facts_model ON alias_facts(model_slug);
"""

@dataclass(frozen=True)
class Step:
    """One step: brings a db from `version - 1` to `version`."""
    version: int
    description: str
    apply: Union[str, Callable[[sqlite3.Connection], None], None]   # frozen SQL script, a function, or None
    rebuild_search: bool = False   # the search objects are made anew once all steps ran


def _upgrade_basis_v17(conn) -> None:
    """The basis column, unless the table has it (a database whose version was set back by hand, in tests)."""
    if "upgrade_basis" not in {r[1] for r in conn.execute("PRAGMA table_info(platform_lifecycles)")}:
        conn.execute("ALTER TABLE platform_lifecycles ADD COLUMN upgrade_basis TEXT"
                     " CHECK (upgrade_basis IN ('replacement', 'line', 'successor-line', 'platform'))")


STEPS = [
    # Version 2 changed only the search index (plain unicode61 tokenizer, more prefix indexes,
    # documents with undecorated name variants): derived data, so nothing to move by hand.
    Step(2, "search index: new tokenizer and prefixes, rebuilt documents", None, rebuild_search=True),
    Step(3, "index models by family and status (a family's latest in one lookup)",
         "CREATE INDEX IF NOT EXISTS models_family_status ON models(family_id, status);"),
    Step(4, "ingestion runs record what they did with each upstream record (details, JSON)",
         "ALTER TABLE ingestion_runs ADD COLUMN details TEXT;"),
    Step(5, "index models by family and release (a family's models newest first, without a sort)",
         "CREATE INDEX IF NOT EXISTS models_family_release ON models(family_id, release_date, slug);"),
    # History starts at the first run after this step: the state before it was never diffed.
    Step(6, "change history (what each run and the daily lifecycle recompute changed)", _CHANGES_V6),
    Step(7, "webhooks: endpoints, deliveries and their attempts", _WEBHOOKS_V7),
    Step(8, "index models by status and release (a status's models newest first, without a sort)",
         "CREATE INDEX IF NOT EXISTS models_status_release ON models(status, release_date DESC, slug);"),
    # The table is derived data: the next run (or the first request of a day) fills it.
    Step(9, "lifecycle per platform, and the successor line of a family", _PLATFORMS_V9),
    # Derived from facts at merge time: the next run (curation or any source) fills both.
    # Search documents are rebuilt: an Ollama tag (deepseek-r1:14b) no longer loses its size in a squashed name.
    Step(10, "capabilities of each model and their filter rows; models by type; search documents rebuilt",
         _CAPABILITIES_V10, rebuild_search=True),
    # Rows recorded before keep their stored title; every change is worded from its data when read.
    Step(11, "changes stored as data: a change's title is worded when it is read, no longer stored",
         _CHANGES_AS_DATA_V11),
    # Derived data: the documents are rebuilt with their words (and the index optimized once).
    Step(12, "search documents keep the words of their names, as the index reads them", None,
         rebuild_search=True),
    # The old index is a prefix of the new one: every query it served, the new one serves.
    Step(13, "index a family's models of one status by release (a page of a provider's models of one status "
             "without reading their rows)",
         "DROP INDEX IF EXISTS models_family_status;\n"
         "CREATE INDEX IF NOT EXISTS models_family_status_release"
         " ON models(family_id, status, release_date DESC, slug);"),
    # Derived data: made by the rebuild from the documents, with the triggers that write it.
    Step(14, "search: the squashed names in an index of their own", None, rebuild_search=True),
    # The old indexes are prefixes of the new ones: every query they served, the new ones serve.
    Step(15, "the list's sort indexes hold each model's family (the first pages of a big provider's models "
             "without a sort)",
         "DROP INDEX IF EXISTS models_release;\n"
         "CREATE INDEX IF NOT EXISTS models_release ON models(release_date DESC, slug, family_id);\n"
         "DROP INDEX IF EXISTS models_params;\n"
         "CREATE INDEX IF NOT EXISTS models_params ON models(parameter_count DESC, slug, family_id);"),
    Step(16, "an alias is a string on one platform: unique on (alias, source), so one string can be served on two;"
             " whether a listing names it",
         _ALIAS_PER_PLATFORM_V16),
    # Derived data: the next run (or the first request of a day) decides every upgrade again, with its basis.
    Step(17, "why each upgrade: its basis (replacement, line, successor-line, platform)", _upgrade_basis_v17),
]


def latest() -> int:
    """The schema version this code writes: the first version plus one per step."""
    return FIRST_VERSION + len(STEPS)


def split_sql(script: str) -> list:
    """Split a script into single statements (trigger bodies kept whole)."""
    statements, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            statements.append(buf.strip())
            buf = ""
    return statements


def _strip_comments(statement: str) -> str:
    return _COMMENT.sub("", statement).strip()


def _user_version(conn) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _tables(conn) -> set:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return {r[0] for r in rows}


def current_version(conn) -> int:
    """The db's schema version: 0 for an empty file; an unversioned registry db is version 1."""
    version = _user_version(conn)
    if version:
        return version
    tables = _tables(conn)
    if not tables:
        return 0
    if "models" not in tables:
        raise MigrationError("the file holds tables but is not a registry database; nothing changed")
    return FIRST_VERSION   # made before versions were recorded: the first released schema


def _check_not_newer(version: int) -> None:
    if version > latest():
        raise MigrationError(f"the database has schema version {version}, newer than this registry knows "
                             f"({latest()}); run the newer registry, or restore a backup; nothing changed")


def _run(conn, sql_or_fn) -> None:
    # Statement by statement: executescript() would COMMIT the open transaction first.
    if callable(sql_or_fn):
        sql_or_fn(conn)
        return
    for statement in split_sql(sql_or_fn or ""):
        conn.execute(statement)


def _search_objects(conn, kind: str, sql_like: str = "%") -> list:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = ? AND name LIKE 'search\\_%' ESCAPE '\\'"
                        " AND sql LIKE ?", (kind, sql_like))
    return [r[0] for r in rows]


def _rebuild_search(conn, schema: str) -> None:
    for name in _search_objects(conn, "trigger"):
        conn.execute(f'DROP TRIGGER "{name}"')
    # Virtual tables first: dropping one drops its shadow tables (search_fts_data, ...) with it.
    for name in _search_objects(conn, "table", "CREATE VIRTUAL TABLE%"):
        conn.execute(f'DROP TABLE "{name}"')
    for name in _search_objects(conn, "table"):
        conn.execute(f'DROP TABLE "{name}"')
    for statement in split_sql(schema):
        if _SEARCH_DDL.match(_strip_comments(statement)):
            conn.execute(statement)
    documents.refresh(conn)


def _upgrade(conn, old: int, schema: str) -> None:
    if old == 0:
        _run(conn, schema)
        return
    pending = [step for step in STEPS if step.version > old]
    for step in pending:
        try:
            _run(conn, step.apply)
        except sqlite3.Error as exc:   # a file whose tables are not the ones the step expects: said, not a traceback
            raise MigrationError(f"cannot bring the database from version {old} to {latest()}: step {step.version}"
                                 f" ({step.description}) failed: {exc}; nothing changed") from exc
    if any(step.rebuild_search for step in pending):
        _rebuild_search(conn, schema)
    problems = conn.execute("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise MigrationError(f"migration would break {len(problems)} foreign key(s); nothing changed")
    # Data may look different (search documents): per-process caches rebuild.
    conn.execute("UPDATE registry_state SET value = value + 1 WHERE key = 'generation'")


def migrate(conn: sqlite3.Connection, schema: str) -> tuple:
    """Bring the db to the latest version in one transaction; return (old version, new version)."""
    target = latest()
    version = _user_version(conn)
    if version == target:
        return target, target   # the common case takes no write lock: serve and ingest start at once
    _check_not_newer(version)
    # Off outside the transaction (the pragma is a no-op inside one), so a step that rebuilds a
    # table does not cascade deletes; foreign_key_check stands in for it before COMMIT.
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            old = current_version(conn)   # again under the write lock: another process may have won
            _check_not_newer(old)
            if old != target:
                _upgrade(conn, old, schema)
                conn.execute(f"PRAGMA user_version = {target}")
            conn.execute("COMMIT")
        except BaseException:
            conn.rollback()
            raise
    finally:
        conn.execute("PRAGMA foreign_keys = ON")
    return old, target

"""The settings table: one place for every environment variable, and the operators' page (docs/running.md)
matches it."""
import re
from pathlib import Path

import pytest

from registry.config import SETTINGS, SOURCE_KEYS, from_environment, setting
from registry.ingest.sources import MODULES, load

RUNNING = Path(__file__).resolve().parents[1] / "docs" / "running.md"


def documented_rows() -> dict:
    """variable -> default cell, from every docs/running.md table headed `environment variable`."""
    rows, in_table = {}, False
    for line in RUNNING.read_text(encoding="utf-8").splitlines():
        if line.startswith("| environment variable |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
        if in_table and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            for name in re.findall(r"`([A-Z0-9_<>]+)`", cells[0]):
                rows[name] = cells[1]
    return rows


def test_running_page_lists_every_setting_with_its_default():
    rows = documented_rows()
    for s in SETTINGS:
        assert s.env in rows, f"docs/running.md has no row for {s.env}"
        assert rows[s.env] == ("unset" if s.default is None else f"`{s.default}`"), s.env


def test_running_page_lists_nothing_the_code_does_not_read():
    known = {s.env for s in SETTINGS} | set(SOURCE_KEYS) | {"REGISTRY_<SOURCE>_URL"}
    assert set(documented_rows()) - known == set()


def test_every_source_key_is_documented():
    keys = {load(m).KEY_ENV for m in MODULES} - {None}
    assert keys <= set(SOURCE_KEYS) <= set(documented_rows())


@pytest.mark.parametrize("env, key, expected", [
    ({}, "DATABASE", "./registry.db"),
    ({"REGISTRY_DB": "/srv/x.db"}, "DATABASE", "/srv/x.db"),
    ({}, "OFFLINE", False),
    ({"REGISTRY_OFFLINE": "1"}, "OFFLINE", True),
    ({"ADMIN_API_KEY": " a, b ,"}, "ADMIN_API_KEYS", ["a", "b"]),
    ({}, "ADMIN_API_KEYS", []),
    ({"TRUSTED_PROXIES": "2"}, "TRUSTED_PROXIES", 2),
    ({}, "RESPONSE_CACHE_BYTES", 24 * 1024 * 1024),
    ({"RATELIMIT_PUBLIC": ""}, "RATELIMIT_PUBLIC", "100/minute"),
    ({}, "RATELIMIT_STORAGE_TIMEOUT_MS", 250),
    ({"RATELIMIT_STORAGE_TIMEOUT_MS": "50"}, "RATELIMIT_STORAGE_TIMEOUT_MS", 50),
])
def test_config_from_environment(env, key, expected):
    assert from_environment(env)[key] == expected


@pytest.mark.parametrize("name, raw", [
    ("TRUSTED_PROXIES", "two"), ("REGISTRY_RESPONSE_CACHE_BYTES", "-1"), ("PORT", "0"), ("GUNICORN_THREADS", "x"),
    ("RATELIMIT_STORAGE_TIMEOUT_MS", "0"), ("RATELIMIT_STORAGE_TIMEOUT_MS", "0.5"),
])
def test_a_bad_value_names_the_variable(name, raw):
    with pytest.raises(ValueError, match=name):
        setting(name, {name: raw})


def test_alias_sources_have_one_order_everywhere():
    """fields.ALIAS_SOURCES is the one home of the alias sources and their order: the schema's CHECK and
    the queries' ORDER BY follow it (docs/data-flow.md)."""
    import re

    from registry.queries import catalog
    from registry.db import schema_sql
    from registry.fields import ALIAS_SOURCES
    check = re.search(r"source\s+TEXT NOT NULL CHECK \(source IN \(([^)]*)\)\)", schema_sql()).group(1)
    assert tuple(s.strip().strip("'") for s in check.split(",")) == ALIAS_SOURCES
    import sqlite3
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE aliases (source TEXT)")
    db.executemany("INSERT INTO aliases VALUES (?)", [(s,) for s in reversed(ALIAS_SOURCES)])
    ordered = [r[0] for r in db.execute(f"SELECT source FROM aliases ORDER BY {catalog._SOURCE_ORDER}")]
    assert tuple(ordered) == ALIAS_SOURCES


@pytest.mark.parametrize("env, key, expected", [
    ({"REGISTRY_OFFLINE": "true"}, "OFFLINE", True),
    ({"REGISTRY_OFFLINE": "off"}, "OFFLINE", False),
    ({"REGISTRY_OFFLINE": "Yes"}, "OFFLINE", True),
    ({"RATELIMIT_PUBLIC": "10/second;100/minute"}, "RATELIMIT_PUBLIC", "10/second;100/minute"),
    ({"RATELIMIT_STORAGE_URI": "redis://cache:6379/0"}, "RATELIMIT_STORAGE_URI", "redis://cache:6379/0"),
])
def test_a_flag_or_budget_in_its_usual_spellings(env, key, expected):
    assert from_environment(env)[key] == expected


# One bad setting per row, with the command started: the variable, the value and what is accepted, in one line on
# stderr (every command checks every setting first: registry.create_app).
BAD_SETTINGS = [
    ("REGISTRY_TODAY", "2026-13-01", "an ISO day", "serve"),
    ("REGISTRY_TODAY", "20261206", "an ISO day", "audit"),
    ("PORT", "abc", "1 to 65535", "serve"),
    ("PORT", "99999", "1 to 65535", "serve"),
    ("RATELIMIT_PUBLIC", "lots", "100/minute", "serve"),
    ("RATELIMIT_ADMIN", "20 per fortnight", "100/minute", "serve"),
    ("REGISTRY_OFFLINE", "maybe", "1, true, yes or on", "ingest"),
    ("RATELIMIT_STORAGE_URI", "mysql://db/x", "memory://", "serve"),
    ("WEB_CONCURRENCY", "0", "at least 1", "serve"),
    ("REGISTRY_OPENROUTER_CATALOG_URL", "file:///etc/passwd", "http://", "ingest"),
]


@pytest.mark.parametrize("name, raw, accepted, command", BAD_SETTINGS)
def test_a_bad_setting_stops_each_command_in_one_line(tmp_path, name, raw, accepted, command):
    """`registry serve` (and every other command) refuses to start: exit 2, one line, no traceback."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in {row[0] for row in BAD_SETTINGS}}
    env.update({name: raw, "REGISTRY_DB": str(tmp_path / "r.db")})
    registry = Path(sys.executable).with_name("registry")
    done = subprocess.run([str(registry), command], env=env, capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert (done.returncode, len(lines)) == (2, 1), done.stderr
    assert name in lines[0] and repr(raw) in lines[0] and accepted in lines[0]
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("make", [
    lambda path: None,                                        # no file at all
    lambda path: path.write_text("not a database\n"),         # some other file
    lambda path: __import__("sqlite3").connect(path).close(),  # an empty SQLite file: never initialized
])
def test_serving_no_registry_database_fails_at_startup_naming_the_path(tmp_path, make):
    import os
    import subprocess
    import sys
    path = tmp_path / "fresh.db"
    make(path)
    env = {**os.environ, "REGISTRY_DB": str(path), "PORT": "1"}   # never bound: it stops before
    registry = Path(sys.executable).with_name("registry")
    done = subprocess.run([str(registry), "serve"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert str(path) in done.stderr and "registry init-db" in done.stderr and "Traceback" not in done.stderr

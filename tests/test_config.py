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
            for name in re.findall(r"`([A-Z_<>]+)`", cells[0]):
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

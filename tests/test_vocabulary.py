"""The shared vocabulary has one home, registry/fields.py: statuses and their orders, alias sources and
platforms with their names, each source's upstream. The schema's CHECK lists, the OpenAPI enums and the
SQL orders follow it, so adding or reordering a word there is the only edit (docs/data-flow.md)."""
import re
import sqlite3
from pathlib import Path

import pytest
import yaml

from registry import fields, migrations
from registry.db import schema_sql
from registry.ingest import sources
from registry.pages.present import source_link
from registry.queries import catalog
from registry.search import candidates, ranking

OPENAPI = Path(__file__).resolve().parent.parent / "registry" / "web" / "openapi.yaml"


def _check(sql: str, table: str, column: str) -> tuple:
    """The words of table's CHECK (column IN (...)) in sql."""
    body = re.search(rf"CREATE TABLE IF NOT EXISTS {table} \((.*?)\n\)[^;]*;", sql, re.S).group(1)
    found = re.search(rf"\b{column}\s+TEXT NOT NULL[^,]*?CHECK \({column} IN \(([^)]*)\)\)", body).group(1)
    return tuple(w.strip().strip("'") for w in found.split(","))


@pytest.mark.parametrize("sql, table, column, words", [
    (schema_sql(), "models", "status", fields.STATUSES),
    (schema_sql(), "platform_lifecycles", "status", fields.STATUSES),
    (schema_sql(), "platform_lifecycles", "platform", fields.PLATFORMS),
    (schema_sql(), "aliases", "source", fields.ALIAS_SOURCES),
    (migrations._PLATFORMS_V9, "platform_lifecycles", "status", fields.STATUSES),
    (migrations._PLATFORMS_V9, "platform_lifecycles", "platform", fields.PLATFORMS),
])
def test_schema_check_lists_follow_the_vocabulary(sql, table, column, words):
    assert _check(sql, table, column) == words


@pytest.mark.parametrize("schema, words", [
    ("Status", fields.STATUSES),
    ("AliasSource", fields.ALIAS_SOURCES),
    ("AutomatedSource", tuple(fields.SOURCE_URLS)),
])
def test_openapi_enums_follow_the_vocabulary(schema, words):
    spec = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    assert set(spec["components"]["schemas"][schema]["enum"]) == set(words)


def _ordered(expression: str, column: str, words) -> list:
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE TABLE t ({column.split('.')[-1]} TEXT)")
    db.executemany("INSERT INTO t VALUES (?)", [(w,) for w in reversed(words)])
    alias = column.split(".")[0] if "." in column else "t"
    return [r[0] for r in db.execute(f"SELECT {column} FROM t {alias} ORDER BY {expression}, 1")]


@pytest.mark.parametrize("expression, column, expected", [
    (catalog._SOURCE_ORDER, "source", list(fields.ALIAS_SOURCES)),
    (candidates.STATUS_RANK, "m.status", list(fields.STATUS_RANK)),
    # working models take no step; deprecated one, sunset two
    (candidates.STATUS_STEP, "m.status", sorted(fields.WORKING) + list(fields.RETIRING)),
])
def test_sql_orders_are_generated_from_the_vocabulary(expression, column, expected):
    assert _ordered(expression, column, fields.STATUSES if "status" in column else fields.ALIAS_SOURCES) == expected


def test_search_ties_go_by_the_same_status_order():
    assert sorted(fields.STATUSES, key=ranking.STATUS_ORDER.get) == list(fields.STATUS_RANK)


@pytest.mark.parametrize("source", sorted(sources.MODULES))
def test_every_source_reads_from_its_upstream_in_the_vocabulary(source):
    module = sources.load(source)
    assert module.SOURCE == source
    assert module.BASE_URL == fields.SOURCE_URLS[source]


def test_the_vocabulary_names_every_automated_source():
    assert set(fields.SOURCE_URLS) == set(sources.MODULES) == set(fields.AUTOMATED_SOURCES)


@pytest.mark.parametrize("source, provider, expected", [
    ("vendor-b-api", "anthropic", {"name": "vendor-b-api", "url": "https://api.anthropic.com"}),
    ("model-hub", "meta", {"name": "model-hub", "url": "https://huggingface.co"}),
    ("curation", "openai", {"name": "curation/openai.yaml", "url": None}),
    ("retired-source", "openai", {"name": "retired-source", "url": None}),
])
def test_a_page_names_a_fact_source_with_its_upstream(source, provider, expected):
    assert source_link(source, provider) == expected

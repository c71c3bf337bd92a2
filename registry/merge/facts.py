"""The facts tables: what each source said, the only input of the merge (docs/data-flow.md)."""
import json


def fact_rows(source: str, facts: dict) -> list:
    """Rows of the facts table for {model slug: {field: value}}."""
    return [(source, slug, field, json.dumps(value, sort_keys=True))
            for slug, fields in facts.items() for field, value in fields.items()]


def replace_facts(conn, source: str, facts: list, aliases: list) -> None:
    """Swap every fact and alias claim of one source for new ones.

    facts: (source, model slug, field, JSON value) rows; aliases: (source, alias, model slug,
    alias source, position) rows.
    """
    conn.execute("DELETE FROM facts WHERE source = ?", (source,))
    conn.executemany("INSERT INTO facts (source, model_slug, field, value) VALUES (?, ?, ?, ?)", facts)
    conn.execute("DELETE FROM alias_facts WHERE source = ?", (source,))
    conn.executemany(
        "INSERT INTO alias_facts (source, alias, model_slug, alias_source, position) VALUES (?, ?, ?, ?, ?)",
        aliases)

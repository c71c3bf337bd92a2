"""The facts tables: what each source said, the only input of the merge (docs/data-flow.md)."""
import json

from ..db import tuples, upsert_sql


def fact_rows(source: str, facts: dict) -> list:
    """Rows of the facts table for {model slug: {field: value}}."""
    return [(source, slug, field, json.dumps(value, sort_keys=True))
            for slug, fields in facts.items() for field, value in fields.items()]


def replace_facts(conn, source: str, facts: list, aliases: list) -> None:
    """Swap every fact and alias claim of one source for new ones.

    facts: (source, model slug, field, JSON value) rows; aliases: (source, alias, model slug,
    alias source, position) rows. Only the rows that differ from the stored ones are written: a re-run
    of an unchanged upstream (half a million facts of a 50k-repo hub) rewrites nothing.
    """
    _swap(conn, source, "facts", ("model_slug", "field"), ("value",), facts)
    # An alias claim is keyed by its string and its platform (one string may be served on two).
    _swap(conn, source, "alias_facts", ("alias", "alias_source"), ("model_slug", "position"),
          [(src, alias, alias_source, slug, position) for src, alias, slug, alias_source, position in aliases])


def _swap(conn, source: str, table: str, key: tuple, values: tuple, rows: list) -> None:
    """Make source's rows of table (primary key source + key) exactly rows (tuples in that column order): write
    only the difference, compared as whole rows."""
    columns = ("source",) + key + values
    stored = set(tuples(conn).execute(   # plain tuples, compared with rows as they are
        f"SELECT {', '.join(columns)} FROM {table} WHERE source = ?", (source,)))
    fresh = [row for row in rows if row not in stored]   # new, or a key whose values changed
    if len(rows) - len(fresh) < len(stored):   # some stored row is not wanted as it is: drop those whose key went
        width = 1 + len(key)
        wanted = {row[:width] for row in rows}
        match = " AND ".join(f"{c} = ?" for c in key)
        conn.executemany(f"DELETE FROM {table} WHERE source = ? AND {match}",
                         [row[:width] for row in stored if row[:width] not in wanted])
    conn.executemany(upsert_sql(table, columns, ("source",) + key, values), fresh)

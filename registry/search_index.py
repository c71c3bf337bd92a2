"""Keep the FTS5 search documents in step with the models (written in the same transaction)."""
import re

_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def squash(text: str) -> str:
    """Lowercase text with every non-alphanumeric character removed: 'GPT-4o' -> 'gpt4o'."""
    return _NON_ALNUM.sub("", text.lower())


def _document(row, aliases: list) -> tuple:
    names = [row["display_name"], row["slug"], *aliases]
    squashed = " ".join(dict.fromkeys(squash(n) for n in names if squash(n)))
    return (row["id"], row["display_name"], row["slug"], " ".join(aliases), row["family_name"], squashed)


def refresh(conn, model_ids=None) -> None:
    """Rewrite the search documents of the given models (all models when None)."""
    where, params = "", ()
    if model_ids is not None:
        model_ids = list(model_ids)
        if not model_ids:
            return
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS refresh_ids (id INTEGER PRIMARY KEY)")
        conn.execute("DELETE FROM refresh_ids")
        conn.executemany("INSERT OR IGNORE INTO refresh_ids VALUES (?)", [(i,) for i in model_ids])
        where = " WHERE m.id IN (SELECT id FROM refresh_ids)"
    aliases = {}
    for model_id, alias in conn.execute(
            "SELECT a.model_id, a.alias FROM aliases a" + (" WHERE a.model_id IN (SELECT id FROM refresh_ids)"
                                                          if where else "") + " ORDER BY a.source, a.position",
            params):
        aliases.setdefault(model_id, []).append(alias)
    rows = conn.execute(
        "SELECT m.id, m.slug, m.display_name, f.name AS family_name FROM models m"
        " JOIN families f ON f.id = m.family_id" + where, params).fetchall()
    docs = [_document(r, aliases.get(r["id"], [])) for r in rows]
    # Upsert, never INSERT OR REPLACE: a replace deletes without firing the FTS delete trigger.
    conn.executemany(
        "INSERT INTO search_docs (model_id, display_name, slug, aliases, family, squashed)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(model_id) DO UPDATE SET display_name = excluded.display_name,"
        " slug = excluded.slug, aliases = excluded.aliases, family = excluded.family,"
        " squashed = excluded.squashed", docs)

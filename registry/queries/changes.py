"""The change history's read queries (registry/merge/changes.py writes it): the Change object, the
filtered and cursor-paged list, a model's or the registry's newest changes, and what webhooks have yet
to send (docs/api-decisions.md#change-history)."""
import json

from .. import wording
from .where import Where


def change_dict(row) -> dict:
    """A Change object: what changed, when, the value before and after, whose value it is, and its
    title in words (registry/wording.py)."""
    change = {"id": row["id"], "occurred_at": row["occurred_at"], "kind": row["kind"], "model_slug": row["model_slug"],
            "family_slug": row["family_slug"], "provider_slug": row["provider_slug"], "field": row["field"],
            "old": json.loads(row["old"]) if row["old"] is not None else None,
            "new": json.loads(row["new"]) if row["new"] is not None else None,
            "source": row["source"], "upgrade_slug": row["upgrade_slug"], "title": row["title"],
            "run_id": row["run_id"]}
    change["title"] = wording.title(change)
    return change


def list_changes(db, filters: dict, limit: int, before_id: int | None = None) -> list:
    """Changes matching filters, newest first, with ids below before_id (the cursor).

    filters: models (slugs), family, provider, kinds, since and until (ISO, occurred_at bounds).
    """
    where = Where().within("model_slug", filters.get("models")).within("kind", filters.get("kinds"))
    where.equal("family_slug", filters.get("family")).equal("provider_slug", filters.get("provider"))
    if filters.get("since"):
        where.add("occurred_at >= ?", filters["since"])
    if filters.get("until"):
        where.add("occurred_at < ?", filters["until"])
    if before_id is not None:
        where.add("id < ?", before_id)
    sql = "SELECT * FROM changes" + where.sql() + " ORDER BY id DESC LIMIT ?"
    return [change_dict(r) for r in db.execute(sql, where.args + [limit])]


def has_history(db, slug: str) -> bool:
    """Whether any change names this model slug (a removed model's history outlives its row)."""
    return db.execute("SELECT 1 FROM changes WHERE model_slug = ? LIMIT 1", (slug,)).fetchone() is not None


def recent_changes(db, *, model_id=None, family_id=None, provider_id=None, limit=10) -> list:
    """The newest changes of one model, family or provider (by row id), or of the whole registry."""
    filters = {}
    for key, table, row_id in (("models", "models", model_id), ("family", "families", family_id),
                               ("provider", "providers", provider_id)):
        if row_id is None:
            continue
        row = db.execute(f"SELECT slug FROM {table} WHERE id = ?", (row_id,)).fetchone()
        if row is None:
            return []
        filters[key] = [row[0]] if key == "models" else row[0]
    return list_changes(db, filters, limit)


def changes_after(db, after_id: int, limit: int) -> list:
    """Changes with ids above after_id, oldest first (what an endpoint has not been sent yet)."""
    return [change_dict(r) for r in db.execute("SELECT * FROM changes WHERE id > ? ORDER BY id LIMIT ?",
                                                (after_id, limit))]

"""Read queries of the lifecycle calendar: models retiring by status, shutdown days in a window (the
models' own and each cloud's own schedule), and models with any lifecycle date (the feeds' calendar)."""
import json

from .catalog import MODEL_SELECT, model_row
from .model_list import JOINS
from .where import Where


# The deprecations page's orders: the soonest shutdown first (unknown days last), or by date or name.
RETIRING_SORTS = {
    "sunset_date": "m.sunset_date IS NULL, m.sunset_date, m.slug",
    "deprecation_date": "m.deprecation_date IS NULL, m.deprecation_date DESC, m.slug",
    "provider": "p.name COLLATE NOCASE, m.sunset_date IS NULL, m.sunset_date, m.slug",
    "name": "m.display_name COLLATE NOCASE, m.slug",
}


def retiring_models(db, status: str, provider: str | None, sort: str, limit: int = 1000) -> list:
    """Full rows of models of one status (deprecated or sunset), of one provider or all, in a RETIRING_SORTS order."""
    where = Where().add("m.status = ?", status).equal("p.slug", provider)
    return db.execute(MODEL_SELECT + where.sql() + f" ORDER BY {RETIRING_SORTS[sort]} LIMIT ?",
                      where.args + [limit]).fetchall()


def platform_shutdowns(db, first: str, last: str, provider: str | None = None, limit: int = 200) -> list:
    """Clouds' own shutdowns of their ids (metadata.platforms) in [first, last], soonest first:
    [{"model": full row, "source": alias source, "schedule": {deprecation_date, sunset_date, ...}, "status": the
    model's status on that platform (its platform lifecycle row; None before one is decided)}]."""
    where = Where().add("json_extract(cloud.value, '$.sunset_date') BETWEEN ? AND ?", first, last)
    where.equal("p.slug", provider)
    sql = ("SELECT m.id, cloud.key, cloud.value, (SELECT l.status FROM platform_lifecycles l WHERE l.model_id = m.id"
           " AND l.platform = cloud.key) FROM models m, json_each(m.metadata, '$.platforms') AS cloud"
           + JOINS + where.sql() + " ORDER BY json_extract(cloud.value, '$.sunset_date'), m.slug, cloud.key LIMIT ?")
    found = db.execute(sql, where.args + [limit]).fetchall()
    return [{"model": model_row(db, model_id=r[0]), "source": r[1], "schedule": json.loads(r[2]), "status": r[3]}
            for r in found]


def shutdowns_between(db, first: str, last: str, provider: str | None = None) -> list:
    """Full rows of the models whose shutdown day is in [first, last], soonest first (optionally one provider's)."""
    where = Where().add("m.sunset_date BETWEEN ? AND ?", first, last).equal("p.slug", provider or None)
    return db.execute(MODEL_SELECT + where.sql() + " ORDER BY m.sunset_date, m.slug", where.args).fetchall()


def dated_models(db, filters: dict, platform_days: bool = False) -> list:
    """Full rows of models with a deprecation or shutdown day, filtered by models (slugs), provider, family.

    platform_days: also models whose days are only a platform's own (a watched cloud id's schedule).
    """
    dated = "(m.deprecation_date IS NOT NULL OR m.sunset_date IS NOT NULL)"
    if platform_days:
        dated = (f"({dated} OR EXISTS (SELECT 1 FROM platform_lifecycles l WHERE l.model_id = m.id"
                 " AND (l.deprecation_date IS NOT NULL OR l.sunset_date IS NOT NULL)))")
    where = Where().add(dated).within("m.slug", filters.get("models"))
    where.equal("p.slug", filters.get("provider")).equal("f.slug", filters.get("family"))
    return db.execute(MODEL_SELECT + where.sql() + " ORDER BY m.slug", where.args).fetchall()

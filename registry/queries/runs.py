"""The ingestion runs' read queries: the IngestionRun object, the filtered list, a source's running run."""
import json

from .where import Where

_RUN_SELECT = ("SELECT r.*, p.slug AS provider_slug, p.name AS provider_name FROM ingestion_runs r"
               " LEFT JOIN providers p ON p.id = r.provider_id")


def run_dict(row) -> dict:
    """An IngestionRun object."""
    return {
        "id": row["id"], "source": row["source"],
        "provider": {"slug": row["provider_slug"], "name": row["provider_name"]} if row["provider_slug"] else None,
        "status": row["status"], "models_added": row["models_added"], "models_updated": row["models_updated"],
        "error_message": row["error_message"], "started_at": row["started_at"], "completed_at": row["completed_at"],
        "details": json.loads(row["details"]) if row["details"] else None,
    }


def list_runs(db, source: str | None, status: str | None, limit: int) -> list:
    """Ingestion runs, newest first, filtered."""
    where = Where().equal("r.source", source or None).equal("r.status", status or None)
    sql = _RUN_SELECT + where.sql() + " ORDER BY r.id DESC LIMIT ?"
    return [run_dict(r) for r in db.execute(sql, where.args + [limit])]


def run_started(db, run_id: int) -> dict:
    """The short form of a run just triggered: id, source, status, started_at."""
    row = db.execute("SELECT id, source, status, started_at FROM ingestion_runs WHERE id = ?", (run_id,)).fetchone()
    return {"id": row["id"], "source": row["source"], "status": "running", "started_at": row["started_at"]}

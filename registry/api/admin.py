"""Admin endpoints: trigger an ingestion run (202, in the background) and list runs."""
import threading

from flask import current_app, jsonify

from ..db import get_db
from ..web.auth import require_admin
from ..web.errors import ApiError, bad_request
from ..ingest.runner import begin, execute
from ..merge.priority import AUTOMATED_SOURCES, CURATION
from . import bp, params

def _run_dict(row) -> dict:
    return {
        "id": row["id"], "source": row["source"],
        "provider": {"slug": row["provider_slug"], "name": row["provider_name"]} if row["provider_slug"] else None,
        "status": row["status"], "models_added": row["models_added"], "models_updated": row["models_updated"],
        "error_message": row["error_message"], "started_at": row["started_at"], "completed_at": row["completed_at"],
    }


_RUN_SELECT = ("SELECT r.*, p.slug AS provider_slug, p.name AS provider_name FROM ingestion_runs r"
               " LEFT JOIN providers p ON p.id = r.provider_id")


@bp.post("/admin/ingest/<source>")
def trigger_ingest(source):
    require_admin()
    if source not in AUTOMATED_SOURCES:
        raise bad_request(f"Unknown source '{source}'; valid sources: {', '.join(AUTOMATED_SOURCES)}.")
    config = current_app.config
    started = begin(config["DATABASE"], source)
    if started is None:
        running = get_db().execute(
            "SELECT id FROM ingestion_runs WHERE source = ? AND status = 'running' ORDER BY id DESC LIMIT 1",
            (source,)).fetchone()
        which = f" (run {running['id']})" if running else ""
        raise ApiError(409, "conflict", f"An ingestion run of {source} is already running{which}.")
    lock, run_id = started

    def work():
        try:
            execute(config["DATABASE"], source, run_id, config["OFFLINE"], config["SEEDS_DIR"])
        finally:
            lock.release()

    threading.Thread(target=work, name=f"ingest-{source}", daemon=True).start()
    row = get_db().execute("SELECT id, source, status, started_at FROM ingestion_runs WHERE id = ?",
                           (run_id,)).fetchone()
    return jsonify({"ingestion_run": {"id": row["id"], "source": row["source"], "status": "running",
                                      "started_at": row["started_at"]}}), 202


@bp.get("/admin/ingestion-runs")
def list_runs():
    require_admin()
    limit = params.integer("limit", default=50, minimum=1, maximum=200)
    source = params.choice("source", AUTOMATED_SOURCES + (CURATION,))
    status = params.choice("status", ("running", "completed", "failed"))
    where, args = [], []
    if source:
        where.append("r.source = ?")
        args.append(source)
    if status:
        where.append("r.status = ?")
        args.append(status)
    sql = _RUN_SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY r.id DESC LIMIT ?"
    rows = get_db().execute(sql, args + [limit]).fetchall()
    return jsonify({"ingestion_runs": [_run_dict(r) for r in rows]})

"""Admin endpoints: trigger an ingestion run (202, in the background) and list runs."""
import logging

from flask import current_app, jsonify

from ..queries import runs
from ..web.connection import get_db
from ..ingest.runner import RunOptions, start_source
from ..merge.runs import running_run_id
from ..fields import AUTOMATED_SOURCES, CURATION
from ..storage import StorageError
from ..web.auth import require_admin
from ..web.errors import ApiError, bad_request
from ..web import params
from .blueprint import bp

log = logging.getLogger(__name__)


@bp.post("/admin/ingest/<source>")
def trigger_ingest(source):
    require_admin()
    if source not in AUTOMATED_SOURCES:
        raise bad_request(f"Unknown source '{source}'; valid sources: {', '.join(AUTOMATED_SOURCES)}.")
    config = current_app.config
    try:
        run_id = start_source(config["DATABASE"], source, RunOptions(config["OFFLINE"], config["SEEDS_DIR"]),
                              on_end=_log_failure, memory_mb=config["INGEST_MEMORY_MB"])
    except StorageError as exc:   # the disk refused the lock or the run row: say why, not 500
        raise ApiError(503, "service_unavailable", f"Cannot start a run of {source}: {exc}.") from exc
    if run_id is None:
        running = running_run_id(get_db(), source)
        which = f" (run {running})" if running else ""
        raise ApiError(409, "conflict", f"An ingestion run of {source} is already running{which}.")
    return jsonify({"ingestion_run": runs.run_started(get_db(), run_id)}), 202


def _log_failure(result) -> None:
    """The run row says why a run failed; the server's log also keeps an unexpected error's traceback."""
    if result.status == "failed":
        log.error("%s run %s failed: %s%s", result.source, result.run_id, result.error,
                  f"\n{result.trace}" if result.trace else "")


@bp.get("/admin/ingestion-runs")
def list_runs():
    require_admin()
    limit = params.integer("limit", default=50, minimum=1, maximum=200)
    source = params.choice("source", AUTOMATED_SOURCES + (CURATION,))
    status = params.choice("status", ("running", "completed", "failed"))
    return jsonify({"ingestion_runs": runs.list_runs(get_db(), source, status, limit)})

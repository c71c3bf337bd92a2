"""GET /export: the whole registry in one file, JSON or NDJSON (docs/api-decisions.md#export)."""
from flask import Response, current_app, request

from .. import export
from ..db import connect_ro
from ..web import params
from .blueprint import bp


@bp.get("/export")
def export_registry():
    params.only("format")
    fmt = params.choice("format", export.FORMATS) or _negotiated()
    # A connection of its own, in one read transaction from the header to the last model: the thread's
    # shared one is handed back (and its transaction ended) when the view returns, before the body is sent.
    db = connect_ro(current_app.config["DATABASE"])
    db.execute("BEGIN")
    head = export.header(db)

    def body():
        try:   # bytes: a WSGI server takes nothing else (direct_passthrough skips werkzeug's encoding)
            for piece in export.pieces(db, head, fmt):
                yield piece.encode("utf-8") if isinstance(piece, str) else piece
        finally:
            db.close()

    # Streamed: the ETag comes from the data generation and day, not from hashing the body
    # (registry/web/http_cache.py keeps an ETag a view set), and the response cache leaves it alone.
    response = Response(body(), mimetype=export.MEDIA_TYPES[fmt], direct_passthrough=True)
    response.call_on_close(db.close)      # also when the body is never sent (a 304)
    response.set_etag(export.etag(head, fmt))
    response.headers["Content-Disposition"] = f'attachment; filename="{export.filename(head, fmt)}"'
    response.headers["Vary"] = "Accept"
    return response


def _negotiated() -> str:
    """ndjson when the client prefers application/x-ndjson to application/json, else json."""
    best = request.accept_mimetypes.best_match([export.MEDIA_TYPES["json"], export.MEDIA_TYPES["ndjson"]])
    return "ndjson" if best == export.MEDIA_TYPES["ndjson"] else "json"

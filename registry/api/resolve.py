"""GET /resolve: any identifier string to its model, with a format-preserving upgrade."""
from flask import current_app, jsonify

from ..db import get_db, request_generation
from ..web.errors import ApiError
from ..resolve import resolve_identifier
from . import bp, params
from .signals import lifecycle_headers


@bp.get("/resolve")
def resolve():
    q = params.query_text()
    found = resolve_identifier(get_db(), current_app.config["DATABASE"], request_generation(), q)
    if found is None:
        raise ApiError(404, "not_found", f"No model matches '{q}'.")
    row, upgrade, chosen, platform = found.model, found.upgrade, found.upgrade_alias, found.platform
    return jsonify({
        "matched_model": {"slug": row["slug"], "display_name": row["display_name"], "status": found.status,
                          "family": row["family_slug"]},
        "matched_alias": {"alias": found.match.row.alias, "source": found.match.row.source},
        "confidence": found.match.confidence,
        "is_latest": row["status"] == "latest",
        "upgrade": None if upgrade is None else {
            "slug": upgrade["slug"], "display_name": upgrade["display_name"], "status": upgrade["status"]},
        "upgrade_alias": {"alias": chosen.alias, "source": chosen.source} if chosen else None,
        "platform_lifecycle": platform,
    }), lifecycle_headers(platform or row, upgrade)

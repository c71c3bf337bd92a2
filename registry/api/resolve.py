"""GET /resolve: any identifier string to its model, with a format-preserving upgrade."""
from flask import current_app, jsonify

from .. import queries
from ..db import get_db, request_generation
from ..errors import ApiError
from ..resolve import AliasRow, pick_upgrade_alias
from ..resolve_cache import alias_index
from . import bp, params


@bp.get("/resolve")
def resolve():
    q = params.query_text()
    db = get_db()
    match = alias_index(db, current_app.config["DATABASE"], request_generation()).match(q)
    if match is None:
        raise ApiError(404, "not_found", f"No model matches '{q}'.")
    row = queries.model_row(db, slug=match.row.model_slug)
    upgrade = queries.upgrade_for(db, row)
    upgrade_alias = None
    if upgrade is not None:
        candidates = [AliasRow(alias=a["alias"], source=a["source"], model_slug=upgrade["slug"],
                               position=a["position"], release_date=upgrade["release_date"],
                               status=upgrade["status"])
                      for a in queries.model_aliases(db, upgrade["id"])]
        chosen = pick_upgrade_alias(match.row, candidates, query=q)
        upgrade_alias = {"alias": chosen.alias, "source": chosen.source} if chosen else None
    return jsonify({
        "matched_model": {"slug": row["slug"], "display_name": row["display_name"], "status": row["status"],
                          "family": row["family_slug"]},
        "matched_alias": {"alias": match.row.alias, "source": match.row.source},
        "confidence": match.confidence,
        "is_latest": row["status"] == "latest",
        "upgrade": None if upgrade is None else {
            "slug": upgrade["slug"], "display_name": upgrade["display_name"], "status": upgrade["status"]},
        "upgrade_alias": upgrade_alias,
    })

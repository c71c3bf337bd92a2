"""GET /search: full-text search over names, slugs, aliases and families, ranked by relevance."""
from flask import jsonify

from .. import search as search_module
from ..db import get_db
from . import bp, params


@bp.get("/search")
def search():
    q = params.query_text()
    limit = params.integer("limit", default=search_module.DEFAULT_LIMIT, minimum=1,
                           maximum=search_module.MAX_LIMIT)
    return jsonify({"query": q, "results": search_module.search(get_db(), q, limit)})

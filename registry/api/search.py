"""GET /search: full-text search over names, slugs, aliases and families, ranked by relevance."""
from flask import jsonify

from ..search import ranking
from ..web.connection import get_db
from . import bp, params


@bp.get("/search")
def search():
    q = params.query_text()
    limit = params.integer("limit", default=ranking.DEFAULT_LIMIT, minimum=1,
                           maximum=ranking.MAX_LIMIT)
    return jsonify({"query": q, "results": ranking.search(get_db(), q, limit)})

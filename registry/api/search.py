"""GET /search: models by name or by what the query asks for (docs/api-decisions.md#search), with the type
and capability filters of /models."""
from flask import jsonify

from ..search import ranking
from ..search.vocabulary import lexicon
from ..web.connection import get_db, request_snapshot
from ..web import params
from .blueprint import bp


@bp.get("/search")
def search():
    params.only("q", "limit", *params.FILTERS)
    q = params.query_text()
    limit = params.integer("limit", default=ranking.DEFAULT_LIMIT, minimum=1,
                           maximum=ranking.MAX_LIMIT)
    db = get_db()
    words = lexicon(db, *request_snapshot())   # no query for what the request read
    return jsonify({"query": q, "results": ranking.search(db, q, limit, params.model_filters(), words)})

"""GET /resolve: any identifier string to its model, with a format-preserving upgrade."""
from functools import partial

from flask import jsonify

from ..web.connection import get_db, request_snapshot
from ..web.errors import ApiError
from ..resolve import resolve_identifier, upgrade_target
from ..resolve.answers import resolve_answer
from ..web import generation_memo, params
from .blueprint import bp
from .signals import lifecycle_headers


@bp.get("/resolve")
def resolve():
    q = params.query_text()
    db = get_db()
    target = generation_memo.keeping("upgrade target", partial(upgrade_target, db))
    found = resolve_identifier(db, *request_snapshot(), q, target)
    if found is None:
        raise ApiError(404, "not_found", f"No model matches '{q}'.")
    return jsonify(resolve_answer(found)), lifecycle_headers(found.lifecycle, found.upgrade)

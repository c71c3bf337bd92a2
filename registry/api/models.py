"""Models: the filtered list, one model, its upgrade and its history."""
from functools import partial

from flask import current_app, jsonify

from ..queries import catalog, model_list, prices
from ..web.connection import get_db
from ..web import generation_memo
from ..fields import OFFICIAL, RETIRING, STATUSES
from ..resolve.answers import upgrade_answer
from ..resolve.upgrade import upgrade_for
from ..web.errors import bad_request
from ..web import params
from ..web.params import get_or_404
from .blueprint import bp
from .signals import lifecycle_headers

MAX_PER_PAGE = 200
MAX_PARAMS = 10**15


@bp.get("/models")
def list_models():
    params.only("provider", "family", "status", "open_source", "min_params", "max_params", "sort", "page", "per_page",
                *params.FILTERS)
    filters = {
        "provider": params.text("provider"),
        "family": params.text("family"),
        "status": params.listed("status", STATUSES),
        "open_source": params.boolean("open_source"),
        "min_params": params.integer("min_params", minimum=0, maximum=MAX_PARAMS),
        "max_params": params.integer("max_params", minimum=0, maximum=MAX_PARAMS),
        **params.model_filters(),
    }
    if filters["min_params"] is not None and filters["max_params"] is not None \
            and filters["min_params"] > filters["max_params"]:
        raise bad_request("Parameter 'min_params' must not exceed 'max_params'.")
    sort = params.choice("sort", model_list.SORTS, default="release_date")
    page = params.integer("page", default=1, minimum=1, maximum=10**6)
    per_page = params.integer("per_page", default=50, minimum=1, maximum=MAX_PER_PAGE)
    db = get_db()
    models, total = model_list.list_models_json(db, filters, sort, page, per_page, count=generation_memo.counter(db))
    pagination = {"page": page, "per_page": per_page, "total": total, "total_pages": -(-total // per_page)}
    # The models as SQLite wrote them, in the compact body jsonify writes ({"models": [...], "pagination": {...}}),
    # joined in one copy (a chain of + copies the page's tens of KB at each step).
    body = "".join(('{"models":', models, ',"pagination":', current_app.json.dumps(pagination, separators=(",", ":")),
                    "}\n"))
    return current_app.response_class(body, mimetype=current_app.json.mimetype)


@bp.get("/models/<slug>")
def get_model(slug):
    row, aliases, platforms = get_or_404("Model", partial(catalog.model_with, parts=("aliases", "platforms")), slug)
    model = catalog.model_detail(get_db(), row, aliases, platforms)
    upgrade = catalog.platform_upgrade(model) if row["status"] in RETIRING else None
    return jsonify(model), lifecycle_headers(row, upgrade)


@bp.get("/models/<slug>/upgrade")
def get_upgrade(slug):
    row = get_or_404("Model", catalog.model_by_slug, slug)
    upgrade = upgrade_for(get_db(), row)
    lifecycle = catalog.platform_lifecycle(get_db(), row["id"], OFFICIAL) if upgrade is not None else None
    return jsonify(upgrade_answer(row, upgrade, lifecycle)), lifecycle_headers(row, upgrade)


@bp.get("/models/<slug>/prices")
def get_prices(slug):
    row = get_or_404("Model", catalog.model_by_slug, slug)
    return jsonify({"prices": prices.history(get_db(), row, catalog.metadata_of(row))})


@bp.get("/models/<slug>/history")
def get_history(slug):
    row = get_or_404("Model", catalog.model_by_slug, slug)
    return jsonify({
        "model": {"slug": row["slug"], "display_name": row["display_name"]},
        "family": {"slug": row["family_slug"], "name": row["family_name"]},
        "history": catalog.history(get_db(), row),
    })

"""The /api/v1 blueprint: one module per resource group, each thin (parse, query, shape)."""
from flask import Blueprint

from ..web.connection import get_db
from ..web.errors import not_found

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def get_or_404(kind: str, lookup, slug: str):
    """lookup(db, slug), or a 404 naming the kind of resource and the slug (as flaskr's get_post())."""
    found = lookup(get_db(), slug)
    if found is None:
        raise not_found(kind, slug)
    return found


from . import admin, catalog, changes, export, feeds, models, resolve, search, webhooks  # noqa: E402,F401  (routes on bp)

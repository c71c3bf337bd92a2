"""The /api/v1 blueprint: one module per resource group, each thin (parse, query, shape)."""
from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")


from . import admin, catalog, changes, export, feeds, models, resolve, search, webhooks  # noqa: E402,F401  (routes on bp)

"""The /api/v1 blueprint: one module per resource group, each thin (parse, query, shape)."""
from . import admin, catalog, changes, export, feeds, models, resolve, search, webhooks  # noqa: F401  (routes on bp)
from .blueprint import bp  # noqa: F401  (registered by create_app)

"""The /api/v1 blueprint every view module adds its routes to (its own module, so no view imports its package)."""
from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

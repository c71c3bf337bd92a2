"""Providers and families."""
from flask import jsonify

from ..queries import catalog
from ..web.connection import get_db
from ..web import params
from ..web.params import get_or_404
from .blueprint import bp


@bp.get("/providers")
def list_providers():
    return jsonify({"providers": catalog.list_providers(get_db())})


@bp.get("/providers/<slug>")
def get_provider(slug):
    return jsonify(get_or_404("Provider", catalog.get_provider, slug))


@bp.get("/families")
def list_families():
    provider = params.text("provider")
    open_source = params.boolean("open_source")
    return jsonify({"families": catalog.list_families(get_db(), provider, open_source)})


@bp.get("/families/<slug>")
def get_family(slug):
    return jsonify(get_or_404("Family", catalog.get_family, slug))

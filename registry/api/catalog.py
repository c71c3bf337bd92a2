"""Providers and families."""
from flask import jsonify

from .. import queries
from ..db import get_db
from ..web.errors import not_found
from . import bp, params


@bp.get("/providers")
def list_providers():
    return jsonify({"providers": queries.list_providers(get_db())})


@bp.get("/providers/<slug>")
def get_provider(slug):
    provider = queries.get_provider(get_db(), slug)
    if provider is None:
        raise not_found("Provider", slug)
    return jsonify(provider)


@bp.get("/families")
def list_families():
    provider = params.text("provider")
    open_source = params.boolean("open_source")
    return jsonify({"families": queries.list_families(get_db(), provider, open_source)})


@bp.get("/families/<slug>")
def get_family(slug):
    family = queries.get_family(get_db(), slug)
    if family is None:
        raise not_found("Family", slug)
    return jsonify(family)

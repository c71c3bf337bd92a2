"""GET /api/v1/openapi.json: the OpenAPI 3.1 document kept in registry/web/openapi.yaml."""
import functools
import json
from importlib import resources

import yaml
from flask import Blueprint, Response

bp = Blueprint("openapi", __name__, url_prefix="/api/v1")


@functools.lru_cache(maxsize=1)
def document_json() -> str:
    """The document as served, as JSON text: the YAML file without its x-anchors (YAML anchors only).

    Cached per process: the file ships with the package and never changes while it runs.
    """
    text = resources.files(__package__).joinpath("openapi.yaml").read_text(encoding="utf-8")
    document = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    document.pop("x-anchors", None)
    return json.dumps(document, ensure_ascii=False, indent=1)


def load_document() -> dict:
    """The document as a fresh dict (for tests and tools)."""
    return json.loads(document_json())


@bp.get("/openapi.json")
def openapi_document():
    return Response(document_json(), mimetype="application/json")


def init_app(app) -> None:
    """Serve the document; parsing it here makes a broken file stop the app at startup."""
    document_json()
    app.register_blueprint(bp)

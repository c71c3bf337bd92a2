"""GET /api/v1/openapi.json: the OpenAPI 3.1 document kept in registry/web/openapi.yaml; and beside it,
GET /api/v1/export.schema.json: the JSON Schema of the export, made from the same document's schemas."""
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


EXPORT_ROOTS = ("ExportDocument", "ExportLine")
_COMPONENT = "#/components/schemas/"


@functools.lru_cache(maxsize=1)
def export_schema_json() -> str:
    """The JSON Schema (2020-12) of the export (docs/api-decisions.md#export): the document's ExportDocument
    (the JSON file) and ExportLine (each NDJSON line), with every component schema they use under $defs.
    One copy of each shape: the same schemas describe GET /models/{slug}, /providers and /families."""
    schemas = json.loads(document_json())["components"]["schemas"]
    wanted, queue = {}, list(EXPORT_ROOTS)
    while queue:
        name = queue.pop()
        if name not in wanted:
            wanted[name] = schemas[name]
            queue += [ref.split("/", 1)[0] for ref in _refs(schemas[name])]
    text = json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Model registry export",
        "description": "The JSON file is an ExportDocument; each line of the NDJSON file is an ExportLine.",
        "$ref": "#/$defs/ExportDocument",
        "$defs": dict(sorted(wanted.items())),
    }, ensure_ascii=False, indent=1)
    return text.replace('"' + _COMPONENT, '"#/$defs/')


def _refs(schema) -> list:
    """The component names (and any path within them) a schema refers to, however deep."""
    if isinstance(schema, dict):
        found = [schema["$ref"][len(_COMPONENT):]] if str(schema.get("$ref", "")).startswith(_COMPONENT) else []
        return found + [r for value in schema.values() for r in _refs(value)]
    if isinstance(schema, list):
        return [r for value in schema for r in _refs(value)]
    return []


@bp.get("/export.schema.json")
def export_schema():
    return Response(export_schema_json(), mimetype="application/schema+json")


def init_app(app) -> None:
    """Serve the document; parsing it here makes a broken file stop the app at startup."""
    document_json()
    export_schema_json()
    app.register_blueprint(bp)

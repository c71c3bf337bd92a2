"""The whole registry as one document (docs/api-decisions.md#export): JSON or NDJSON, written in pieces.

Every provider and family in the shapes of their list endpoints, and every model in the shape of
GET /models/{slug} (aliases, platform lifecycles, capabilities, metadata with provenance), read in one
read transaction so the parts agree, a chunk of models at a time so memory stays flat however large the
registry. The same pieces make GET /api/v1/export and `registry export`; the JSON Schema of both is
registry/web/openapi.py's export_schema().
"""
import json
import os
import tempfile
from contextlib import contextmanager

from .queries import catalog
from .db import generation
from .merge.lifecycle import computed_for
from .storage import writing

EXPORT_VERSION = 1
FORMATS = ("json", "ndjson")
MEDIA_TYPES = {"json": "application/json", "ndjson": "application/x-ndjson"}
CHUNK = 500          # models read and written at a time


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@contextmanager
def snapshot(db):
    """One read transaction over db (a reader's autocommit connection): every part of an export agrees."""
    opened = not db.in_transaction
    if opened:
        db.execute("BEGIN")
    try:
        yield db
    finally:
        if opened and db.in_transaction:
            db.execute("COMMIT")


def header(db) -> dict:
    """What the export is of: its format version, the data generation, the day its statuses are for, counts."""
    def count(table):
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return {"export_version": EXPORT_VERSION, "generation": generation(db), "as_of": computed_for(db),
            "counts": {"providers": count("providers"), "families": count("families"), "models": count("models")}}


def etag(head: dict, fmt: str) -> str:
    """The export's entity tag: the same data, day and format always give the same bytes."""
    return f"export-{head['export_version']}-{head['generation']}-{head['as_of']}-{fmt}"


def filename(head: dict, fmt: str) -> str:
    """The file name an export is saved under: registry-<day its statuses are for>.<format>."""
    return f"registry-{head['as_of'] or 'undated'}.{fmt}"


def models(db):
    """Every model as GET /models/{slug} answers it, by slug, read CHUNK at a time."""
    after = ""
    while True:
        rows = db.execute(catalog.MODEL_SELECT + " WHERE m.slug > ? ORDER BY m.slug LIMIT ?", (after, CHUNK)).fetchall()
        if not rows:
            return
        yield from _details(db, rows)
        after = rows[-1]["slug"]


def _details(db, rows) -> list:
    ids = json.dumps([r["id"] for r in rows])
    aliases, platforms = {}, {}
    for a in db.execute("SELECT model_id, alias, source, position, normalized, listed FROM aliases"
                        " WHERE model_id IN (SELECT value FROM json_each(?)) ORDER BY model_id, "
                        + catalog.ALIAS_ORDER, (ids,)):
        aliases.setdefault(a["model_id"], []).append(a)
    for p in db.execute(catalog.PLATFORM_SELECT + " WHERE l.model_id IN (SELECT value FROM json_each(?))", (ids,)):
        platforms.setdefault(p["model_id"], []).append(p)
    pointed = {}
    for r in rows:
        metadata = json.loads(r["metadata"]) if r["metadata"] else {}
        if metadata.get("points_to"):
            pointed[r["id"]] = metadata["points_to"]
    linked = {}
    wanted_ids = [r["successor_id"] for r in rows if r["successor_id"]]
    for r in db.execute(catalog.MODEL_SELECT + " WHERE m.id IN (SELECT value FROM json_each(?))"
                        " OR m.slug IN (SELECT value FROM json_each(?))",
                        (json.dumps(wanted_ids), json.dumps(list(pointed.values())))):
        linked[r["id"]] = linked[r["slug"]] = r
    return [catalog.detail(r, aliases.get(r["id"], []),
                           sorted(platforms.get(r["id"], []), key=catalog.platform_order),
                           linked.get(r["successor_id"]) if r["successor_id"] else None,
                           linked.get(pointed[r["id"]]) if r["id"] in pointed else None)
            for r in rows]


def json_pieces(db, head: dict):
    """The export as one JSON object, in pieces: the header's fields, then providers, families, models."""
    yield _dumps(head)[:-1]
    yield ',"providers":' + _dumps(catalog.list_providers(db))
    yield ',"families":' + _dumps(catalog.list_families(db, None, None))
    yield ',"models":['
    for i, model in enumerate(models(db)):
        yield ("," if i else "") + _dumps(model)
    yield "]}\n"


def ndjson_lines(db, head: dict):
    """The export as NDJSON: one object per line, each with one key saying what it holds ("export" first,
    then every "provider", "family" and "model")."""
    yield _dumps({"export": head}) + "\n"
    for provider in catalog.list_providers(db):
        yield _dumps({"provider": provider}) + "\n"
    for family in catalog.list_families(db, None, None):
        yield _dumps({"family": family}) + "\n"
    for model in models(db):
        yield _dumps({"model": model}) + "\n"


def pieces(db, head: dict, fmt: str):
    """The export in the format asked for, as pieces of text to write one after another."""
    return json_pieces(db, head) if fmt == "json" else ndjson_lines(db, head)


def write_file(path: str, text_pieces) -> None:
    """Write the pieces to path all or nothing: into a file beside it, renamed over path once complete, so a
    failed export never leaves a half-written file (a refused write is a StorageError naming the path)."""
    directory = os.path.dirname(os.path.abspath(path))
    with writing(path, elsewhere="give --output another path", output=True):
        handle, temporary = tempfile.mkstemp(prefix=".registry-export-", dir=directory)
        try:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(temporary, 0o666 & ~mask)    # as a file the user made: mkstemp's is private
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                for piece in text_pieces:
                    out.write(piece)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise

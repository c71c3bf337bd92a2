"""The catalog's read queries (providers, families, models): one function per question, returning plain dicts."""
import json

from . import basis, packed, prices
from .capabilities import capability_set
from .where import Where
from .model_list import FROM_MODELS, model_summary
from ..fields import ALIAS_SOURCES, COLUMNS, DETAIL_COLUMNS, OFFICIAL, PLATFORM_NAMES, PLATFORMS, sql_rank

# A model's full row: its own columns, its family's and provider's names, and the JSON texts it keeps.
MODEL_COLUMNS = packed.Columns({
    "id": "m.id", "slug": "m.slug", "status": "m.status", **{c: "m." + c for c in COLUMNS},
    "family_slug": "f.slug", "family_name": "f.name", "provider_slug": "p.slug", "provider_name": "p.name",
    "is_open_source": "f.is_open_source", "family_id": "m.family_id", "successor_id": "m.successor_id",
    "metadata": "m.metadata", "created_at": "m.created_at", "updated_at": "m.updated_at",
    "capabilities": "m.capabilities",
})
MODEL_SELECT = MODEL_COLUMNS.select + FROM_MODELS

_PROVIDER_SELECT = """
SELECT p.slug, p.name, p.website_url, p.api_models_url,
       (SELECT count(*) FROM families f WHERE f.provider_id = p.id) AS family_count,
       (SELECT count(*) FROM models m JOIN families f ON f.id = m.family_id WHERE f.provider_id = p.id) AS model_count,
       p.created_at, p.updated_at
FROM providers p
"""

_FAMILY_SELECT = """
SELECT f.id, f.slug, f.name, p.slug AS provider_slug, p.name AS provider_name, f.description, f.is_open_source,
       (SELECT count(*) FROM models m WHERE m.family_id = f.id) AS model_count, f.created_at, f.updated_at
FROM families f JOIN providers p ON p.id = f.provider_id
"""


def provider_dict(row) -> dict:
    """A Provider object."""
    return {k: row[k] for k in ("slug", "name", "website_url", "api_models_url", "family_count",
                                "model_count", "created_at", "updated_at")}


def family_dict(row) -> dict:
    """A Family object with model_count (the list shape)."""
    return {
        "slug": row["slug"], "name": row["name"],
        "provider": {"slug": row["provider_slug"], "name": row["provider_name"]},
        "description": row["description"], "is_open_source": bool(row["is_open_source"]),
        "model_count": row["model_count"], "created_at": row["created_at"], "updated_at": row["updated_at"],
    }


def list_providers(db) -> list:
    """All providers, by name."""
    return [provider_dict(r) for r in db.execute(_PROVIDER_SELECT + " ORDER BY p.name COLLATE NOCASE, p.slug")]


def get_provider(db, slug: str):
    """One provider or None."""
    row = db.execute(_PROVIDER_SELECT + " WHERE p.slug = ?", (slug,)).fetchone()
    return provider_dict(row) if row else None


def list_families(db, provider: str | None, open_source: bool | None) -> list:
    """Families, filtered, by provider name then family name."""
    where = Where().equal("p.slug", provider).equal("f.is_open_source", open_source)   # SQLite stores a bool as 0/1
    sql = _FAMILY_SELECT + where.sql() + " ORDER BY p.name COLLATE NOCASE, f.name COLLATE NOCASE, f.slug"
    return [family_dict(r) for r in db.execute(sql, where.args)]


def get_family(db, slug: str):
    """One family with its timeline (release date, oldest first), or None."""
    row = db.execute(_FAMILY_SELECT + " WHERE f.slug = ?", (slug,)).fetchone()
    if row is None:
        return None
    family = family_dict(row)
    family["models"] = [_timeline_entry(m) for m in db.execute(
        "SELECT slug, display_name, version, status, release_date, deprecation_date, sunset_date, input_context_window,"
        " output_context_window FROM models WHERE family_id = ?"
        " ORDER BY release_date IS NULL, release_date, slug", (row["id"],))]
    return family


def _timeline_entry(m) -> dict:
    entry = {k: m[k] for k in ("slug", "display_name", "version", "status", "release_date")}
    # The spec's timeline entry, and the shutdown day beside the deprecation day (issue 45): each absent when none.
    for day in ("deprecation_date", "sunset_date"):
        if m[day] is not None:
            entry[day] = m[day]
    entry["input_context_window"] = m["input_context_window"]
    entry["output_context_window"] = m["output_context_window"]
    return entry


def official_upgrades(db, model_ids) -> dict:
    """model id -> {slug, display_name} of the upgrade its own API's decision names (resolve/upgrade.py upgrade_for,
    for many models in one query: a family page's retiring models)."""
    ids = list(model_ids)
    if not ids:
        return {}
    return {r[0]: {"slug": r[1], "display_name": r[2]} for r in db.execute(
        "SELECT l.model_id, u.slug, u.display_name FROM platform_lifecycles l JOIN models u ON u.id = l.upgrade_id"
        f" WHERE l.platform = ? AND l.model_id IN ({', '.join('?' * len(ids))})", (OFFICIAL, *ids))}


def model_row(db, slug: str = None, model_id: int = None):
    """The full row of one model by slug or id, or None."""
    if slug is not None:
        return packed.first(db, MODEL_COLUMNS, FROM_MODELS + " WHERE m.slug = ?", (slug,))
    return packed.first(db, MODEL_COLUMNS, FROM_MODELS + " WHERE m.id = ?", (model_id,))


def model_by_slug(db, slug: str):
    """The full row of one model by slug, or None."""
    return model_row(db, slug=slug)


# Alias sources in the order of fields.ALIAS_SOURCES, their one home; aliases as answers list them.
_SOURCE_ORDER = sql_rank("source", ALIAS_SOURCES)
ALIAS_ORDER = _SOURCE_ORDER + ", position, alias"
_ALIAS_COLUMNS = packed.Columns({name: name for name in ("alias", "source", "position", "normalized", "listed")})


def model_aliases(db, model_id: int) -> list:
    """Alias rows of one model, by source then position."""
    return packed.every(db, _ALIAS_COLUMNS, "FROM aliases WHERE model_id = ? ORDER BY " + ALIAS_ORDER, (model_id,))


def metadata_of(row) -> dict:
    """A model row's metadata as a dict (empty when none)."""
    return json.loads(row["metadata"]) if row["metadata"] else {}


def model_detail(db, row, aliases=None, platforms=None) -> dict:
    """The single-model response for a model's full row (its alias and platform lifecycle rows read when not given,
    as model_with reads them)."""
    successor = model_row(db, model_id=row["successor_id"]) if row["successor_id"] else None
    metadata = metadata_of(row)
    target = model_row(db, slug=metadata["points_to"]) if metadata.get("points_to") else None
    return detail(row, model_aliases(db, row["id"]) if aliases is None else aliases,
                  platform_lifecycles(db, row["id"]) if platforms is None else platforms, successor, target)


def detail(row, aliases, platforms, successor, target) -> dict:
    """The single-model response from a model's full row, its alias rows, its platform lifecycle rows (in
    PLATFORMS order), and the rows of its successor and of the snapshot it points at (or None); the
    export assembles every model from the same parts (registry/export.py)."""
    model = model_summary(row)
    metadata = json.loads(row["metadata"]) if row["metadata"] else None
    model.update({name: row[name] for name in DETAIL_COLUMNS})   # canonical_url: every detail column of FIELDS
    model.update({
        "successor": {"slug": successor["slug"], "display_name": successor["display_name"]} if successor else None,
        "aliases": [{"alias": a["alias"], "source": a["source"], "normalized": a["normalized"],
                     "listed": bool(a["listed"])} for a in aliases],
        "metadata": metadata,
        "capabilities": capability_set(row),
        "created_at": row["created_at"], "updated_at": row["updated_at"],
        "points_to": _pointer(metadata or {}, target),
        "platforms": [platform_dict(r) for r in platforms],
        "prices": prices.current(metadata),
    })
    return model


def platform_upgrade(model: dict, platform: str = OFFICIAL) -> dict | None:
    """The upgrade a model's answer (model_detail) names on a platform ({slug, display_name, status}), or None:
    what resolve.upgrade_for reads from the same platform_lifecycles row, without reading it again."""
    for lifecycle in model["platforms"]:
        if lifecycle["platform"] == platform:
            return lifecycle["upgrade"]
    return None


def points_to(db, row) -> dict | None:
    """A floating id's target (docs/lifecycle.md#floating-ids): {slug, display_name, status, source}, or None."""
    metadata = metadata_of(row)
    return _pointer(metadata, model_row(db, slug=metadata["points_to"]) if metadata.get("points_to") else None)


def _pointer(metadata: dict, target) -> dict | None:
    if target is None:
        return None
    return {"slug": target["slug"], "display_name": target["display_name"], "status": target["status"],
            "source": (metadata.get("provenance") or {}).get("points_to")}


# A platform lifecycle row, with the names of the successor it names and of the upgrade decided there.
PLATFORM_COLUMNS = packed.Columns({
    **{c: "l." + c for c in ("model_id", "platform", "status", "deprecation_date", "sunset_date", "successor_id",
                             "upgrade_id", "upgrade_basis", "own_schedule", "sources")},
    "successor_slug": "s.slug", "successor_name": "s.display_name",
    "upgrade_slug": "u.slug", "upgrade_name": "u.display_name", "upgrade_status": "u.status",
})
PLATFORM_FROM = (" FROM platform_lifecycles l LEFT JOIN models s ON s.id = l.successor_id"
                 " LEFT JOIN models u ON u.id = l.upgrade_id")
PLATFORM_SELECT = PLATFORM_COLUMNS.select + PLATFORM_FROM
# A model's lifecycle rows as answers list them: its own API first, then in PLATFORMS order (platform_order's).
_PLATFORM_ORDER = " ORDER BY " + sql_rank("l.platform", PLATFORMS)


def platform_lifecycle(db, model_id: int, platform: str):
    """A model's lifecycle row on one platform (registry/lifecycle/platforms.py), or None."""
    return packed.first(db, PLATFORM_COLUMNS, PLATFORM_FROM + " WHERE l.model_id = ? AND l.platform = ?",
                        (model_id, platform))


def platform_lifecycles(db, model_id: int) -> list:
    """A model's lifecycle rows, its own API first, then in PLATFORMS order."""
    return packed.every(db, PLATFORM_COLUMNS, PLATFORM_FROM + " WHERE l.model_id = ?" + _PLATFORM_ORDER, (model_id,))


# What model_with reads with a model's row: each part's rows, and how to read them alone.
MODEL_PARTS = {
    "aliases": (_ALIAS_COLUMNS, "FROM aliases WHERE model_id = m.id ORDER BY " + ALIAS_ORDER, model_aliases),
    "platforms": (PLATFORM_COLUMNS, PLATFORM_FROM + " WHERE l.model_id = m.id" + _PLATFORM_ORDER, platform_lifecycles),
}


def model_with(db, slug: str, parts=("platforms",)) -> tuple | None:
    """(a model's full row by slug, then the rows of each of its parts: model_aliases' and platform_lifecycles'),
    read in one statement, or None when no model has the slug."""
    found = packed.first_with(db, MODEL_COLUMNS, FROM_MODELS + " WHERE m.slug = ?", (slug,),
                              {name: MODEL_PARTS[name][:2] for name in parts})
    if found is None:
        return None
    row, rows = found
    return (row, *(MODEL_PARTS[name][2](db, row["id"]) if rows[name] is None else rows[name] for name in parts))


def platform_order(row) -> int:
    """The sort key of a platform lifecycle row: its own API first, then in PLATFORMS order."""
    return PLATFORMS.index(row["platform"])


def platform_dict(row) -> dict:
    """A platform lifecycle object (docs/lifecycle.md#platforms): where, status, days, the platform's named
    replacement, the upgrade decided there, whether the days are the platform's own, and their sources."""
    # {field: source}; the page naming the replacement is the upgrade's named_by.url
    sources = {k: v for k, v in (json.loads(row["sources"]) if row["sources"] else {}).items() if k != "successor_url"}
    return {
        "platform": row["platform"], "name": PLATFORM_NAMES[row["platform"]], "status": row["status"],
        "deprecation_date": row["deprecation_date"], "sunset_date": row["sunset_date"],
        "successor": {"slug": row["successor_slug"], "display_name": row["successor_name"]}
        if row["successor_slug"] else None,
        "upgrade": {"slug": row["upgrade_slug"], "display_name": row["upgrade_name"], "status": row["upgrade_status"],
                    "basis": row["upgrade_basis"], "named_by": basis.named_by(row)}
        if row["upgrade_slug"] else None,
        "own_schedule": bool(row["own_schedule"]),
        "sources": sources,
    }


def history(db, row) -> list:
    """All models of a model's family, oldest first."""
    return [dict(r) for r in db.execute(
        "SELECT slug, display_name, status, release_date FROM models WHERE family_id = ?"
        " ORDER BY release_date IS NULL, release_date, slug", (row["family_id"],))]


def family_models(db, family_slug: str) -> list:
    """Full rows of a family's models, oldest release first (undated last), ties by slug (the pages)."""
    return db.execute(MODEL_SELECT + " WHERE f.slug = ? ORDER BY m.release_date IS NULL, m.release_date, m.slug",
                      (family_slug,)).fetchall()


def provider_slugs(db) -> set:
    """Every provider's slug."""
    return {r[0] for r in db.execute("SELECT slug FROM providers")}


def alias_strings(db) -> list:
    """Every alias string (the scanner's automaton is built from them)."""
    return [r[0] for r in db.execute("SELECT DISTINCT alias FROM aliases")]

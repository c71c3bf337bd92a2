"""The lifecycle store: load every model as the rules read it, decide (registry/lifecycle/), write.

The rules decide each model's own status and its lifecycle and upgrade on every platform serving it
(docs/lifecycle.md); this module is the write side: it reads models, aliases and facts, and writes
models.status and the platform_lifecycles rows that changed, after every run and on each new UTC day
(merge/runs.py refresh_if_stale, through the same tail as every write).
"""
import json
from datetime import date

from .. import lifecycle as rules
from ..db import now_iso
from ..fields import HUB_PLATFORM, OFFICIAL, REMOVED
from ..normalize import normalize, pins
from .. import documents
from .priority import pick

SIGNALS = ("deprecated", "retired", "status")
HUB_PAGE = "https://huggingface.co/"
_PLATFORM_COLUMNS = ("status", "deprecation_date", "sunset_date", "successor_id", "upgrade_id", "upgrade_basis",
                     "own_schedule", "sources")


def signals_of(facts: dict) -> dict:
    """slug -> {deprecated, retired, status}: the lifecycle signals sources gave, by priority.

    facts: slug -> field -> {source: value}, as merge loads them (only the signal fields are read).
    """
    flags = {}
    for slug, fields in facts.items():
        chosen = {field: pick(field, fields[field]) for field in SIGNALS if field in fields}
        flags[slug] = {field: c[0] for field, c in chosen.items() if c is not None}
    return flags


def _load_signals(conn) -> dict:
    raw = {}
    for source, slug, field, value in conn.execute(
            "SELECT source, model_slug, field, value FROM facts WHERE field IN ('deprecated', 'retired', 'status')"):
        raw.setdefault(slug, {}).setdefault(field, {})[source] = json.loads(value) if value is not None else None
    return signals_of(raw)


def _served(metadata: dict, canonical_url: str | None, sources: set, open_weights: bool) -> frozenset:
    """The platforms a model's ids belong to: its alias sources, every platform with a schedule of its own for it
    (it serves, or served, the model under the provider's own id: a Gemini id on Vertex AI), and the hub for
    published weights."""
    on_hub = open_weights and (metadata.get("hub_id") or str(canonical_url or "").startswith(HUB_PAGE))
    return frozenset(sources | set(metadata.get("platforms") or ()) | ({HUB_PLATFORM} if on_hub else set()))


def _modalities(value) -> frozenset | None:
    return frozenset(value) if isinstance(value, list) and value else None


def load_members(conn, signals: dict | None = None) -> tuple[dict, dict, dict]:
    """(id -> Member, family id -> successor family id, id -> model row) of every model."""
    flags = _load_signals(conn) if signals is None else signals
    rows = {r["id"]: r for r in conn.execute(
        "SELECT m.id, m.slug, m.family_id, m.status, m.model_type, m.version, m.release_date, m.deprecation_date,"
        " m.sunset_date, m.parameter_count, m.successor_id, m.canonical_url, m.metadata, m.capabilities,"
        " f.is_open_source, f.provider_id FROM models m JOIN families f ON f.id = m.family_id")}
    ids = {r["slug"]: mid for mid, r in rows.items()}
    sources: dict = {}
    for model_id, source in conn.execute("SELECT DISTINCT model_id, source FROM aliases"):
        sources.setdefault(model_id, set()).add(source)
    members = {}
    for mid, r in rows.items():
        metadata = json.loads(r["metadata"]) if r["metadata"] else {}
        provenance = metadata.get("provenance") or {}
        schedules = {}
        for platform, entry in (metadata.get("platforms") or {}).items():
            schedules[platform] = {**entry, "successor_id": ids.get(entry.get("successor"))}
        key = normalize(r["slug"])
        reads = json.loads(r["capabilities"]) if r["capabilities"] else {}
        members[mid] = rules.Member(
            id=mid, slug=r["slug"], family_id=r["family_id"], model_type=r["model_type"],
            release_date=r["release_date"], deprecation_date=r["deprecation_date"], sunset_date=r["sunset_date"],
            parameter_count=r["parameter_count"], successor_id=r["successor_id"],
            points_to_id=ids.get(metadata.get("points_to")), flags=flags.get(r["slug"], {}),
            schedules=schedules, sources={**provenance, "points_to": provenance.get("points_to"),
                                          "successor_url": metadata.get("successor_url")},
            served=_served(metadata, r["canonical_url"], sources.get(mid, set()), bool(r["is_open_source"])),
            removed=REMOVED in metadata, open_weights=bool(r["is_open_source"]), key=key, pinned=bool(pins(key)),
            preview=rules.is_preview(r["slug"], metadata.get("preview")), provider_id=r["provider_id"],
            version=r["version"], input_modalities=_modalities(reads.get("input_modalities")),
            output_modalities=_modalities(reads.get("output_modalities")))
    family_successor = {fid: succ for fid, succ in conn.execute(
        "SELECT id, successor_id FROM families WHERE successor_id IS NOT NULL")}
    return members, family_successor, rows


def recompute(conn, on: str | None = None, signals: dict | None = None) -> set:
    """Decide every model's status and every platform lifecycle for day `on`; write what changed.

    Returns the slugs whose own status changed. signals: what signals_of() gives for the current
    facts, when the caller already has them.
    """
    on = on or rules.today()
    members, family_successor, rows = load_members(conn, signals)
    decided = rules.lifecycles(members, family_successor, on)
    changed = set()
    updates = []
    for mid, row in rows.items():
        status = decided[(mid, OFFICIAL)].status
        if row["status"] != status:
            changed.add(row["slug"])
            updates.append((status, mid))
    conn.executemany("UPDATE models SET status = ? WHERE id = ?", updates)
    _write_platform_rows(conn, decided)
    mark_computed(conn, on)
    return changed


def mark_computed(conn, on: str) -> None:
    """Record the day the stored statuses were decided for."""
    conn.execute("INSERT INTO registry_state (key, value) VALUES ('status_day', ?)"
                 " ON CONFLICT(key) DO UPDATE SET value = excluded.value", (date.fromisoformat(on).toordinal(),))


def days_crossed(conn, after: str, until: str) -> bool:
    """Does a lifecycle day (a model's own, or a platform schedule's) fall in (after, until]? Only then
    can a status, and so an upgrade, differ from the day the decisions were made for."""
    return conn.execute(
        "SELECT 1 FROM models WHERE (deprecation_date > :a AND deprecation_date <= :u)"
        " OR (sunset_date > :a AND sunset_date <= :u) UNION ALL"
        " SELECT 1 FROM models m, json_each(m.metadata, '$.platforms') AS p"
        " WHERE (json_extract(p.value, '$.deprecation_date') > :a"
        " AND json_extract(p.value, '$.deprecation_date') <= :u)"
        " OR (json_extract(p.value, '$.sunset_date') > :a AND json_extract(p.value, '$.sunset_date') <= :u)"
        " LIMIT 1", {"a": after, "u": until}).fetchone() is not None


def _write_platform_rows(conn, decided: dict) -> bool:
    """Upsert the platform_lifecycles rows that differ, delete those no longer decided; True if any did."""
    wanted = {key: (lc.status, lc.deprecation_date, lc.sunset_date, lc.successor_id, lc.upgrade_id,
                    lc.upgrade_basis, int(lc.own_schedule),
                    json.dumps(lc.sources, sort_keys=True) if lc.sources else None)
              for key, lc in decided.items()}
    current = {(r[0], r[1]): tuple(r[2:]) for r in conn.execute(
        f"SELECT model_id, platform, {', '.join(_PLATFORM_COLUMNS)} FROM platform_lifecycles")}
    stale = [key for key in current if key not in wanted]
    changed = [(*key, *values) for key, values in wanted.items() if current.get(key) != values]
    conn.executemany("DELETE FROM platform_lifecycles WHERE model_id = ? AND platform = ?", stale)
    conn.executemany(
        f"INSERT INTO platform_lifecycles (model_id, platform, {', '.join(_PLATFORM_COLUMNS)})"
        f" VALUES (?, ?, {', '.join('?' * len(_PLATFORM_COLUMNS))}) ON CONFLICT(model_id, platform) DO UPDATE SET"
        f" {', '.join(f'{c} = excluded.{c}' for c in _PLATFORM_COLUMNS)}", changed)
    return bool(stale or changed)


def computed_for(conn) -> str | None:
    """The day the stored statuses were computed for, or None (never computed)."""
    row = conn.execute("SELECT value FROM registry_state WHERE key = 'status_day'").fetchone()
    return date.fromordinal(row[0]).isoformat() if row else None


def recompute_day(conn, on: str) -> bool:
    """recompute() for day `on`, with the search rows and updated_at of the models whose status moved;
    True when readers can see a difference (more than the day's mark changed)."""
    before = conn.total_changes
    changed = recompute(conn, on)
    if changed:
        slugs = json.dumps(sorted(changed))
        ids = [r[0] for r in conn.execute("SELECT id FROM models WHERE slug IN (SELECT value FROM json_each(?))",
                                          (slugs,))]
        documents.refresh(conn, ids)
        conn.execute("UPDATE models SET updated_at = ? WHERE slug IN (SELECT value FROM json_each(?))",
                     (now_iso(), slugs))
    return conn.total_changes - before > 1

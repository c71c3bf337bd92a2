"""Status derivation (decisions.md §11) and the one-latest-per-family rule."""
import json
import os
from datetime import datetime, timezone

from .priority import pick


def today() -> str:
    """Today's date (UTC) as ISO; REGISTRY_TODAY pins it, for reproducible runs and tests."""
    return os.environ.get("REGISTRY_TODAY") or datetime.now(timezone.utc).date().isoformat()


def _flags(conn) -> dict:
    """slug -> {deprecated, retired, status}: the lifecycle signals sources gave, by priority."""
    raw = {}
    for source, slug, field, value in conn.execute(
            "SELECT source, model_slug, field, value FROM facts WHERE field IN ('deprecated', 'retired', 'status')"):
        raw.setdefault(slug, {}).setdefault(field, {})[source] = json.loads(value) if value is not None else None
    flags = {}
    for slug, fields in raw.items():
        flags[slug] = {}
        for field, by_source in fields.items():
            chosen = pick(field, by_source)
            if chosen is not None:
                flags[slug][field] = chosen[0]
    return flags


def derive(model: dict, flags: dict, on: str) -> str | None:
    """Status of one model from its dates and flags, before the family's latest is chosen.

    Returns sunset or deprecated, or None for a working model (active or latest).
    """
    if (model["sunset_date"] and model["sunset_date"] <= on) or flags.get("retired"):
        return "sunset"
    if (model["deprecation_date"] and model["deprecation_date"] <= on) or flags.get("deprecated"):
        return "deprecated"
    return None


def recompute(conn, on: str | None = None) -> set:
    """Set every model's status; return the slugs whose status changed."""
    on = on or today()
    flags = _flags(conn)
    models = [dict(r) for r in conn.execute(
        "SELECT id, slug, family_id, status, release_date, deprecation_date, sunset_date FROM models")]
    status, pinned = {}, {}
    for m in models:
        f = flags.get(m["slug"], {})
        if f.get("status"):
            pinned[m["slug"]] = f["status"]
        status[m["slug"]] = pinned.get(m["slug"]) or derive(m, f, on)

    by_family = {}
    for m in models:
        by_family.setdefault(m["family_id"], []).append(m)
    for members in by_family.values():
        working = [m for m in members if status[m["slug"]] in (None, "latest")]
        pinned_latest = [m for m in working if pinned.get(m["slug"]) == "latest"]
        candidates = pinned_latest or [m for m in working if m["slug"] not in pinned]
        newest = max(candidates, key=lambda m: (m["release_date"] or "", m["slug"]), default=None)
        for m in working:
            if m["slug"] not in pinned or pinned[m["slug"]] == "latest":
                status[m["slug"]] = "latest" if m is newest else "active"

    changed = set()
    for m in models:
        if m["status"] != status[m["slug"]]:
            changed.add(m["slug"])
            conn.execute("UPDATE models SET status = ? WHERE id = ?", (status[m["slug"]], m["id"]))
    return changed

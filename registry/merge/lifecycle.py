"""Status derivation (docs/api-decisions.md#lifecycle) and the one-latest-per-family rule."""
import json
from datetime import date, datetime, timezone

from ..config import setting
from ..fields import REMOVED
from ..db import bump_generation, now_iso, transaction
from ..search import documents
from . import changes
from .priority import pick


def today() -> str:
    """Today's date (UTC) as ISO; REGISTRY_TODAY pins it, for reproducible runs and tests."""
    return setting("REGISTRY_TODAY") or datetime.now(timezone.utc).date().isoformat()


SIGNALS = ("deprecated", "retired", "status")


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


def derive(model: dict, flags: dict, on: str) -> str | None:
    """Status of one model from its dates and flags, before the family's latest is chosen.

    Returns sunset or deprecated, or None for a working model (active or latest): sunset once the
    shutdown day has passed (or a provider lists it retired); deprecated once the deprecation day has
    passed, a provider flags it, or a shutdown is scheduled with no deprecation day known.
    """
    if (model["sunset_date"] and model["sunset_date"] <= on) or flags.get("retired"):
        return "sunset"
    if (model["deprecation_date"] and model["deprecation_date"] <= on) or flags.get("deprecated"):
        return "deprecated"
    if model["sunset_date"] and not model["deprecation_date"]:
        # A shutdown is scheduled and no deprecation day is known: scheduling it is the announcement
        # (docs/api-decisions.md#lifecycle). A known future deprecation day still waits for its day.
        return "deprecated"
    return None


def platform_schedule(metadata: str | None, alias_source: str, on: str | None = None) -> dict | None:
    """A cloud's own schedule for its id of a model (metadata.platforms), with the status it gives
    today; None when that cloud has none (the model's own lifecycle applies)."""
    if not metadata or alias_source == "official":
        return None
    entry = (json.loads(metadata).get("platforms") or {}).get(alias_source)
    if not entry:
        return None
    dates = {"deprecation_date": entry.get("deprecation_date"), "sunset_date": entry.get("sunset_date")}
    return {"source": alias_source, "status": derive(dates, {}, on or today()), **dates}


def recompute(conn, on: str | None = None, signals: dict | None = None) -> set:
    """Set every model's status; return the slugs whose status changed.

    signals: what signals_of() gives for the current facts, when the caller already has them.
    """
    on = on or today()
    flags = _load_signals(conn) if signals is None else signals
    models = [dict(r) for r in conn.execute(
        "SELECT id, slug, family_id, status, release_date, deprecation_date, sunset_date,"
        f" json_extract(metadata, '$.{REMOVED}') IS NOT NULL AS removed FROM models")]
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
        # A tombstone (no source lists it any longer) is never its family's latest.
        candidates = pinned_latest or [m for m in working if m["slug"] not in pinned and not m["removed"]]
        newest = max(candidates, key=lambda m: (m["release_date"] or "", m["slug"]), default=None)
        for m in working:
            if m["slug"] not in pinned or pinned[m["slug"]] == "latest":
                status[m["slug"]] = "latest" if m is newest else "active"

    changed = set()
    for m in models:
        if m["status"] != status[m["slug"]]:
            changed.add(m["slug"])
            conn.execute("UPDATE models SET status = ? WHERE id = ?", (status[m["slug"]], m["id"]))
    conn.execute("INSERT INTO registry_state (key, value) VALUES ('status_day', ?)"
                 " ON CONFLICT(key) DO UPDATE SET value = excluded.value", (_day_number(on),))
    return changed


def _day_number(day: str) -> int:
    return date.fromisoformat(day).toordinal()


def computed_for(conn) -> str | None:
    """The day the stored statuses were computed for, or None (never computed)."""
    row = conn.execute("SELECT value FROM registry_state WHERE key = 'status_day'").fetchone()
    return date.fromordinal(row[0]).isoformat() if row else None


def refresh_if_stale(conn, on: str | None = None) -> bool:
    """Recompute every status when the stored ones were computed for an earlier day; True if it did.

    Status is true on the day it is read (docs/api-decisions.md#lifecycle): the server calls this when
    the UTC date changes, so a model whose shutdown day has come is sunset without waiting for a run.
    """
    on = on or today()
    with transaction(conn):
        done = computed_for(conn)
        if done is not None and done >= on:
            return False
        with changes.recording(conn, None, changes.LIFECYCLE):
            changed = recompute(conn, on)
        if changed:
            ids = [r[0] for r in conn.execute(
                "SELECT id FROM models WHERE slug IN (SELECT value FROM json_each(?))", (json.dumps(sorted(changed)),))]
            documents.refresh(conn, ids)
            conn.execute("UPDATE models SET updated_at = ? WHERE slug IN (SELECT value FROM json_each(?))",
                         (now_iso(), json.dumps(sorted(changed))))
            bump_generation(conn)
    return True

"""Change history: the visible state before and after a write, diffed into `changes` rows.

Every run (merge/runs.py Run.apply) and the daily lifecycle recompute (merge/lifecycle.py) take a
snapshot before they write and record the difference inside the same transaction, so a run that
changes nothing records nothing and a rolled-back run records nothing either
(docs/api-decisions.md#change-history).
"""
import json
from contextlib import contextmanager
from dataclasses import dataclass

from .. import pricing
from ..db import FROM_MODELS, now_iso, tuples
from ..fields import COLUMNS, OFFICIAL, REMOVED, RETIRING, sql_list

# The source of a change the daily recompute made with no date to name (a sibling's status moved).
LIFECYCLE = "lifecycle"
# Fields whose change is recorded as field_changed (the dates have kinds of their own when they appear).
WATCHED = tuple(c for c in COLUMNS if c not in ("deprecation_date", "sunset_date")) + ("family", "successor")


# One model's visible values, in the order model_states() reads them.
STATE_COLUMNS = ("slug", "status", *COLUMNS, "family", "provider", "successor", "metadata")
_STATUS, _FAMILY = STATE_COLUMNS.index("status"), STATE_COLUMNS.index("family")


@dataclass(frozen=True)
class State:
    """What a reader sees: each model's visible values (a tuple in STATE_COLUMNS order) and each alias's owner.

    Tuples, compared whole, keep a snapshot and its diff cheap on a 50k-model registry; only models that
    differ become dicts.
    """

    models: dict
    aliases: dict


def snapshot(conn) -> State:
    """The visible state now."""
    return State(model_states(conn), alias_owners(conn))


def model_states(db) -> dict:
    """slug -> the tuple of a model's visible values (STATE_COLUMNS)."""
    return {r[0]: r for r in tuples(db).execute(
        f"SELECT m.slug, m.status, {', '.join('m.' + c for c in COLUMNS)}, f.slug, p.slug, s.slug, m.metadata"
        f"{FROM_MODELS} LEFT JOIN models s ON s.id = m.successor_id"
        # A tombstone is not visible state: becoming one is the model's model_removed.
        f" WHERE json_extract(m.metadata, '$.{REMOVED}') IS NULL")}


def alias_owners(db) -> dict:
    """alias -> the slug of the model it names."""
    # Each alias's slug looked up in a dict of the models' slugs, not joined in SQL, which seeks the models table once
    # per alias (185k at 50k models); the same owners, in the same order.
    slug_of = dict(tuples(db).execute("SELECT id, slug FROM models"))
    return {alias: slug_of[model_id] for alias, model_id in tuples(db).execute("SELECT alias, model_id FROM aliases")}


def _row(values: tuple) -> dict:
    return dict(zip(STATE_COLUMNS, values, strict=True))


def _provenance(row: dict, field: str) -> str | None:
    return (json.loads(row["metadata"]).get("provenance", {}).get(field)) if row.get("metadata") else None


def _status_source(row: dict, fallback: str) -> str:
    """Who a status comes from: the source of the date that gives it, else the run (or the clock)."""
    if row["status"] == "sunset" and row["sunset_date"]:
        return _provenance(row, "sunset_date") or fallback
    if row["status"] == "deprecated":
        for field in ("deprecation_date", "sunset_date"):
            if row[field]:
                return _provenance(row, field) or fallback
    return fallback


def _change(kind, row, source, field=None, old=None, new=None) -> dict:
    return {"kind": kind, "model_slug": row["slug"], "family_slug": row["family"],
            "provider_slug": row["provider"], "field": field, "old": old, "new": new, "source": source}


def _model_changes(slug: str, old: dict, new: dict, source: str) -> list:
    found = []
    for field in WATCHED:
        if old[field] != new[field]:
            found.append(_change("field_changed", new, _provenance(new, field) or source, field,
                                 old[field], new[field]))
    for field, kind in (("deprecation_date", "deprecation_announced"), ("sunset_date", "shutdown_scheduled")):
        if old[field] == new[field]:
            continue
        # A date that appears (or, for a shutdown, moves) is an announcement; a date withdrawn is a plain edit.
        announced = new[field] is not None and (old[field] is None or field == "sunset_date")
        found.append(_change(kind if announced else "field_changed", new,
                             _provenance(new, field) or _provenance(old, field) or source,
                             field, old[field], new[field]))
    if old["status"] != new["status"]:
        found.append(_change("status_changed", new, _status_source(new, source), "status",
                             old["status"], new["status"]))
    if old["metadata"] != new["metadata"]:
        found.extend(_price_changes(old, new, source))
    return found


def _prices(row: dict) -> dict:
    return (json.loads(row["metadata"]).get("prices") or {}) if row.get("metadata") else {}


def _price_changes(old: dict, new: dict, source: str) -> list:
    """A price that appears, changes or goes on a platform: a field_changed of `prices.<platform>` with the whole
    entries (docs/api.md#prices); the same price from another source is no change."""
    was, now = _prices(old), _prices(new)
    found = []
    for platform in sorted(was.keys() | now.keys()):
        before, after = was.get(platform), now.get(platform)
        if before and after and pricing.same(before, after):
            continue
        found.append(_change("field_changed", new, (after or before).get("source") or source,
                             f"prices.{platform}", before, after))
    return found


def _latest_by_family(models: dict) -> dict:
    return {m[_FAMILY]: slug for slug, m in models.items() if m[_STATUS] == "latest"}


def diff(before: State, after: State, source: str) -> list:
    """The changes from before to after, as dicts (kind, model_slug, ..., source), in a stable order."""
    found, old, new = [], before.models, after.models
    for slug in sorted(new.keys() - old.keys()):
        found.append(_change("model_added", _row(new[slug]), source))
    for slug in sorted(old.keys() - new.keys()):
        found.append(_change("model_removed", _row(old[slug]), source))
    kept = sorted(slug for slug in new.keys() & old.keys() if new[slug] != old[slug]) if new != old else []
    for slug in kept:
        found.extend(_model_changes(slug, _row(old[slug]), _row(new[slug]), source))
    # Aliases of a model added or removed in this run come and go with it.
    moved = set() if before.aliases == after.aliases else (
        {alias for alias, slug in after.aliases.items() if before.aliases.get(alias) != slug}
        | (before.aliases.keys() - after.aliases.keys()))
    for alias in sorted(moved):
        was, now = before.aliases.get(alias), after.aliases.get(alias)
        if was is not None and was in new and was in old:
            found.append(_change("alias_removed", _row(new[was]), source, "alias", alias, None))
        if now is not None and now in old and now in new:
            found.append(_change("alias_added", _row(new[now]), source, "alias", None, alias))
    old_latest, new_latest = _latest_by_family(old), _latest_by_family(new)
    for family in sorted({m[_FAMILY] for m in old.values()} & {m[_FAMILY] for m in new.values()}):
        was, now = old_latest.get(family), new_latest.get(family)
        if was != now:
            found.append(_change("latest_changed", _row(new.get(now) or new.get(was) or old[was]), source,
                                 "latest", was, now))
    return found


# The upgrade its own API's decision names for a retiring model, as this merge just stored it (merge/lifecycle.py
# writes platform_lifecycles; resolve/upgrade.py upgrade_for reads the same row for the API).
_UPGRADE_SQL = ("SELECT u.slug FROM models m JOIN platform_lifecycles l ON l.model_id = m.id AND l.platform = ?"
                " JOIN models u ON u.id = l.upgrade_id WHERE m.slug = ? AND m.status IN " + sql_list(RETIRING))


def _upgrade_slug(conn, change: dict, cache: dict) -> str | None:
    """The recommended upgrade of a model a change retires (the resolve rules), else None."""
    if change["kind"] not in ("deprecation_announced", "shutdown_scheduled", "status_changed"):
        return None
    slug = change["model_slug"]
    if slug not in cache:
        found = conn.execute(_UPGRADE_SQL, (OFFICIAL, slug)).fetchone()
        cache[slug] = found[0] if found is not None else None
    return cache[slug]


def record(conn, found: list, run_id: int | None, source: str) -> int:
    """Insert the changes found, as data (registry/wording.py words them when read), with the upgrade
    as of now; return how many."""
    stamp, upgrades = now_iso(), {}
    rows = []
    for change in found:
        upgrade = _upgrade_slug(conn, change, upgrades)
        rows.append((run_id, stamp, change["kind"], change["model_slug"], change["family_slug"],
                     change["provider_slug"], change["field"], _json(change["old"]), _json(change["new"]),
                     change["source"], upgrade))
    conn.executemany(
        "INSERT INTO changes (run_id, occurred_at, kind, model_slug, family_slug, provider_slug, field, old, new,"
        " source, upgrade_slug) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def _json(value) -> str | None:
    return None if value is None else json.dumps(value)


@contextmanager
def recording(conn, run_id: int | None, source: str):
    """Snapshot before the block, record what it changed after it (call inside its transaction)."""
    before = snapshot(conn)
    yield
    record(conn, diff(before, snapshot(conn), source), run_id, source)

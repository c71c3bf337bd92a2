"""Compute the visible models and aliases from every source's facts (the priority merge)."""
import dataclasses
import functools
import hashlib
import json
from pathlib import Path

from ..db import now_iso, tuples, upsert_sql
from ..lifecycle import today
from . import lifecycle
from .. import documents
from ..fields import (ALIAS_SOURCES, CAPABILITIES, COLUMNS, CURATED, CURATION, FEED_SOURCE, HUB_SOURCE, LINKS,
                      PLATFORM_SOURCES, REMOVED)
from .capabilities import capabilities, write_capability_rows
from .families import Families
from .priority import FLAG_FIELDS, entries_by_key, merge_by_key, pick, precedence, rank
from ..normalize import normalize

COMPARED = COLUMNS + ("family_id", "metadata", "capabilities")


def _load_facts(conn) -> dict:
    facts = {}
    # Half a million facts at 50k models: read as tuples, ~0.5 s less than a Row each.
    for source, slug, field, value in tuples(conn).execute("SELECT source, model_slug, field, value FROM facts"):
        facts.setdefault(slug, {}).setdefault(field, {})[source] = json.loads(value) if value is not None else None
    return facts


def _materialized(fields: dict) -> bool:
    # The feed and the platforms' catalogs only supplement known models: their facts alone never create one.
    return any(source != FEED_SOURCE and source not in PLATFORM_SOURCES
               for by_source in fields.values() for source in by_source)


def _visible(slug: str, fields: dict, families: Families, alias_names: list):
    """Return (row dict, successor slug) for one model, or None when it has no home."""
    row, provenance, extras = {}, {}, {}
    for field, by_source in fields.items():
        if field in CAPABILITIES:
            continue   # read with the other shapes sources state capabilities in, below
        if field == "prices":
            if entries := entries_by_key(field, by_source):
                extras[field] = entries
            continue
        if field == "platforms":
            merged, origin = merge_by_key(by_source)
            if merged:   # each entry names its best source, and the source of each of its values
                extras[field] = {key: {**merged[key], "source": min(origin[key].values(), key=lambda s: rank(s, field)),
                                       "sources": dict(sorted(origin[key].items()))} for key in sorted(merged)}
            continue
        chosen = pick(field, by_source)
        if chosen is None:
            continue
        value, source = chosen
        if field in COLUMNS or field in LINKS:
            row[field] = value
            if value is not None:
                provenance[field] = source
        elif field not in FLAG_FIELDS:
            extras[field] = value
            if field in CURATED and value is not None:   # earliest_sunset_date, points_to: facts with a source
                provenance[field] = source
    family = row.pop("family", None)
    family_row = families.rows.get(family) if family else None
    if family_row is not None:
        row["family_id"] = family_row["id"]
    else:
        provider = (pick("provider", fields.get("provider", {})) or (None, None))[0]
        # Published weights the hub alone lists: the line it derives is open weights.
        hub_only = all(set(by_source) <= {HUB_SOURCE} for by_source in fields.values())
        row["family_id"] = families.place(provider, [slug] + alias_names, hub_only)
        if row["family_id"] is None:
            return None
    successor = row.pop("successor", None)
    for column in COLUMNS:
        row.setdefault(column, None)
    known = capabilities(fields)
    row["capabilities"] = json.dumps({name: value for name, (value, _) in known.items()}, sort_keys=True) \
        if known else None
    provenance.update((name, source) for name, (_, source) in known.items())
    row["display_name"] = row["display_name"] or slug
    row["version"] = row["version"] or ""
    metadata = dict(extras)
    if provenance:
        metadata["provenance"] = dict(sorted(provenance.items()))
    row["metadata"] = json.dumps(metadata, sort_keys=True) if metadata else None
    return row, successor


def _merged_aliases(conn, live: set) -> dict:
    """(alias, alias source) -> (model slug, position, listed): the best-ranked claim on each alias of each platform
    wins, and one string names one model: a claim naming another model than the string's best-ranked claim is
    dropped; listed: an automated source (a listing, a platform's catalog) claims it, not curation alone."""
    best, owner, listed = {}, {}, set()
    for source, alias, slug, alias_source, position in conn.execute(
            "SELECT source, alias, model_slug, alias_source, position FROM alias_facts"):
        if slug not in live:
            continue
        key = (precedence(source), source)
        if (alias, alias_source) not in best or key < best[(alias, alias_source)][0]:
            best[(alias, alias_source)] = (key, slug, position)
        if alias not in owner or key < owner[alias]:
            owner[alias] = key
        if source != CURATION:
            listed.add((alias, alias_source, slug))
    winner = {alias: slug for (alias, _), (key, slug, _) in best.items() if key == owner[alias]}
    return {claim: (slug, position, int((*claim, slug) in listed))
            for claim, (_, slug, position) in best.items() if winner[claim[0]] == slug}


def model_key(aliases: list, slug: str) -> str:
    """The normalized form shared by all aliases of one model: its primary alias, normalized."""
    order = {source: i for i, source in enumerate(ALIAS_SOURCES)}
    if not aliases:
        return normalize(slug)
    primary = min(aliases, key=lambda a: (order.get(a[1], 9), a[2], a[0]))
    return normalize(primary[0])


@dataclasses.dataclass
class _Merge:
    """One merge in progress: the models before it, and what it has written so far (by slug)."""

    existing: dict                                       # slug -> the models row before the merge
    stamp: str                                           # updated_at of every row it writes
    added: set = dataclasses.field(default_factory=set)
    changed: set = dataclasses.field(default_factory=set)
    successors: dict = dataclasses.field(default_factory=dict)       # slug -> the successor slug its facts name
    capability_sets: dict = dataclasses.field(default_factory=dict)  # slug -> its capabilities JSON, where it differs
    ids: dict = dataclasses.field(default_factory=dict)              # slug -> models.id, once every row exists


@functools.cache
def merge_code() -> int:
    """A fingerprint of the code the merge runs (every module and the schema of the registry package), as the
    63-bit integer registry_state keeps: a new release merges again though no fact changed."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".sql") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return int(digest.hexdigest()[:15], 16)


def merged_already(conn) -> bool:
    """Is the stored registry what recompute() would write now, the facts being as they were at its last run?
    Only when that run was by this code (merge_code) and decided today's statuses (docs/data-flow.md#unchanged-runs)."""
    row = conn.execute("SELECT value FROM registry_state WHERE key = 'merged_by'").fetchone()
    return row is not None and row[0] == merge_code() and lifecycle.computed_for(conn) == today()


def recompute(conn) -> tuple[int, int]:
    """Rebuild models, aliases, statuses and search rows from facts; return (added, updated).

    Rows whose values did not change are not written, so a re-run with unchanged facts
    touches no updated_at. Called through merge.runs.Run.apply, inside its transaction.
    """
    facts = _load_facts(conn)
    live = {slug for slug, fields in facts.items() if _materialized(fields)}
    claims = _merged_aliases(conn, live)
    names_by_model = {}
    for (alias, alias_source), (slug, position, _) in claims.items():
        names_by_model.setdefault(slug, []).append((alias, alias_source, position))
    merge = _Merge({r["slug"]: dict(r) for r in conn.execute("SELECT * FROM models")}, now_iso())
    _write_models(conn, merge, facts, live, names_by_model)
    removed = _keep_tombstones(conn, merge)
    merge.ids = {r[0]: r[1] for r in conn.execute("SELECT slug, id FROM models")}
    write_capability_rows(conn, {merge.ids[slug]: value for slug, value in merge.capability_sets.items()})
    _write_successors(conn, merge)
    merge.changed |= _write_aliases(conn, claims, names_by_model, merge.ids, set(merge.successors),
                                    {merge.ids[s] for s in removed})
    merge.changed |= lifecycle.recompute(conn, signals=lifecycle.signals_of(facts))
    _finish(conn, merge)
    conn.execute("INSERT INTO registry_state (key, value) VALUES ('merged_by', ?) ON CONFLICT(key)"
                 " DO UPDATE SET value = excluded.value WHERE value != excluded.value", (merge_code(),))
    return len(merge.added), len(merge.changed)


def _write_models(conn, merge: _Merge, facts: dict, live: set, names_by_model: dict) -> None:
    """Upsert each live model whose merged values differ from its row (or that has none yet)."""
    families = Families(conn)
    columns = ("slug",) + COMPARED
    rows = []
    for slug in sorted(live):
        visible = _visible(slug, facts[slug], families, [a[0] for a in names_by_model.get(slug, [])])
        if visible is None:
            continue
        row, merge.successors[slug] = visible
        old = merge.existing.get(slug)
        if old is None:
            merge.added.add(slug)
        elif any(old[c] != row[c] for c in COMPARED):
            merge.changed.add(slug)
        else:
            continue
        if old is None or old.get("capabilities") != row["capabilities"]:
            merge.capability_sets[slug] = row["capabilities"]
        rows.append((slug, *(row[c] for c in COMPARED), merge.stamp, merge.stamp))
    # In slug order, as placed: new rows take the same ids as one statement per model gave them.
    conn.executemany(upsert_sql("models", columns + ("created_at", "updated_at"), ("slug",),
                                COMPARED + ("updated_at",)), rows)


def _keep_tombstones(conn, merge: _Merge) -> set:
    """Mark the models no source lists any longer as removed; return their slugs.

    A tombstone keeps its row and its aliases, so the ids teams still call keep answering
    (docs/api-decisions.md#change-history).
    """
    removed = set(merge.existing) - set(merge.successors)
    for slug in sorted(removed):
        metadata = json.loads(merge.existing[slug]["metadata"] or "{}")
        if REMOVED not in metadata:
            metadata[REMOVED] = merge.stamp
            conn.execute("UPDATE models SET metadata = ? WHERE slug = ?", (json.dumps(metadata, sort_keys=True), slug))
            merge.changed.add(slug)
    return removed


def _write_successors(conn, merge: _Merge) -> None:
    """Point each model at the successor its facts name (once every model has its id)."""
    links = []
    for slug, successor in merge.successors.items():
        successor_id = merge.ids.get(successor) if successor and successor != slug else None
        old = merge.existing.get(slug)
        # A row _write_models just added has no successor yet: only a named one is written.
        if successor_id == (old["successor_id"] if old is not None else None):
            continue
        if old is not None and slug not in merge.added:
            merge.changed.add(slug)
        links.append((successor_id, slug))
    conn.executemany("UPDATE models SET successor_id = ? WHERE slug = ?", links)


def _finish(conn, merge: _Merge) -> None:
    """Stamp the changed models, drop emptied derived families, refresh the search rows of every touched model."""
    merge.changed -= merge.added
    if merge.changed:
        conn.executemany("UPDATE models SET updated_at = ? WHERE slug = ?", [(merge.stamp, s) for s in merge.changed])
    # Families ingestion made for ids that have since moved (a curated glob claims them) go away.
    conn.execute("DELETE FROM families WHERE is_uncategorized = 1"
                 " AND NOT EXISTS (SELECT 1 FROM models m WHERE m.family_id = families.id)")
    touched = merge.added | merge.changed
    documents.refresh(conn, [merge.ids[s] for s in touched if s in merge.ids])


def _write_aliases(conn, claims, names_by_model, ids, kept, tombstones=frozenset()) -> set:
    """Upsert the winning alias claims, drop unclaimed ones (a tombstone keeps its own); return slugs
    whose aliases changed. An alias is keyed by its string and its platform."""
    keys = {slug: model_key(names_by_model.get(slug, []), slug) for slug in kept}
    wanted = {}
    for (alias, alias_source), (slug, position, listed) in claims.items():
        if slug in kept:
            wanted[(alias, alias_source)] = (ids[slug], position, keys[slug], listed)
    by_id = {v: k for k, v in ids.items()}
    changed = set()
    current = {(r[0], r[1]): tuple(r[2:]) for r in conn.execute(
        "SELECT alias, source, model_id, position, normalized, listed FROM aliases")}
    dropped, written = [], []
    for claim, old in current.items():
        if claim not in wanted and old[0] not in tombstones:
            dropped.append(claim)
            if old[0] in by_id:
                changed.add(by_id[old[0]])
    conn.executemany("DELETE FROM aliases WHERE alias = ? AND source = ?", dropped)
    for claim, new in wanted.items():
        old = current.get(claim)
        if old == new:
            continue
        written.append((*claim, *new))
        changed.add(by_id[new[0]])
        if old is not None and old[0] in by_id:
            changed.add(by_id[old[0]])
    conn.executemany(upsert_sql("aliases", ("alias", "source", "model_id", "position", "normalized", "listed"),
                                ("alias", "source"), ("model_id", "position", "normalized", "listed")), written)
    return changed

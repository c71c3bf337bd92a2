"""Compute the visible models and aliases from every source's facts (the priority merge)."""
import fnmatch
import json
import re

from ..db import now_iso
from . import lifecycle
from ..search import documents
from ..fields import ALIAS_SOURCES, CAPABILITIES, COLUMNS, CURATED, FEED_SOURCE, HUB_SOURCE, LINKS, REMOVED
from .capabilities import capabilities, write_capability_rows
from .priority import FLAG_FIELDS, merge_by_key, pick, precedence
from ..resolve.normalize import normalize, pin_free

COMPARED = COLUMNS + ("family_id", "metadata", "capabilities")


def _load_facts(conn) -> dict:
    facts = {}
    for source, slug, field, value in conn.execute("SELECT source, model_slug, field, value FROM facts"):
        facts.setdefault(slug, {}).setdefault(field, {})[source] = json.loads(value) if value is not None else None
    return facts


def _materialized(fields: dict) -> bool:
    # The feed only supplements known models: its facts alone never create one.
    return any(source != FEED_SOURCE for by_source in fields.values() for source in by_source)


class _Families:
    """Curated families by slug, and the glob-matching that places ingested ids."""

    def __init__(self, conn):
        self.conn = conn
        self.rows = {r["slug"]: r for r in conn.execute(
            "SELECT f.id, f.slug, f.match_globs, f.position, f.provider_id, p.slug AS provider, p.name AS provider_name"
            " FROM families f JOIN providers p ON p.id = f.provider_id ORDER BY p.slug, f.position, f.slug")}
        # provider -> (one pattern of every family's globs, family ids): alternatives in family order, one
        # named group per family, so one match per name finds the first family that claims it; compiled
        # once, not per model (ingesting 50k hub models calls place() 50k times).
        by_provider = {}
        for row in self.rows.values():
            globs = [fnmatch.translate(glob.lower()) for glob in json.loads(row["match_globs"])]
            if globs:   # families derived from ids have none: 50k of them must not be walked per model
                by_provider.setdefault(row["provider"], []).append((row["id"], globs))
        self.globs = {}
        for provider, families in by_provider.items():
            pattern = "|".join(f"(?P<f{i}>{'|'.join(globs)})" for i, (_, globs) in enumerate(families))
            self.globs[provider] = (re.compile(pattern).match, [family_id for family_id, _ in families])
        self.providers = {r["slug"]: r for r in conn.execute("SELECT id, slug, name FROM providers")}

    def place(self, provider: str | None, names: list, open_weights: bool = False) -> int | None:
        """Return the family id for an uncurated model of a provider: by the families' globs, else
        a family of its own derived from its id (open weights when only the hub lists the model)."""
        if provider not in self.providers:
            return None
        if provider in self.globs:
            match, family_ids = self.globs[provider]
            claimed = [int(m.lastgroup[1:]) for m in map(match, (n.lower() for n in names)) if m]
            if claimed:
                return family_ids[min(claimed)]
        return self.derived(provider, names[0], open_weights)

    def derived(self, provider: str, model_id: str, open_weights: bool = False) -> int:
        """Return (creating it if needed) the family an unplaced id derives: its product line.

        Never a shared catch-all: "newest in the family" must stay a sound upgrade
        (docs/api-decisions.md#upgrade), so dall-e-3 gets dall-e and whisper-large-v3 whisper-large.
        """
        stem = family_stem(model_id)
        slug = stem
        taken = self.rows.get(slug)
        if taken is not None and taken["provider"] != provider:
            slug = f"{provider}-{stem}"
        if slug in self.rows:
            return self.rows[slug]["id"]
        p = self.providers[provider]
        stamp = now_iso()
        cur = self.conn.execute(
            "INSERT INTO families (slug, name, provider_id, description, is_open_source, is_uncategorized,"
            " position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, 1000000, ?, ?)"
            " ON CONFLICT(slug) DO UPDATE SET is_uncategorized = 1 RETURNING id",
            (slug, stem, p["id"], f"{p['name']} models named {stem}-*, found by ingestion; no curated family"
             " claims them yet.", int(open_weights), stamp, stamp))
        family_id = cur.fetchone()[0]
        self.rows[slug] = {"id": family_id, "slug": slug, "match_globs": "[]", "provider": provider}
        return family_id


_TRAILING_VERSION = re.compile(r"-v?\d+(?:[.-]\d+)*$")


def family_stem(model_id: str) -> str:
    """The product line an id names: its last path segment without date pins and trailing version
    numbers (dall-e-3 -> dall-e, whisper-large-v3 -> whisper-large); sizes (-8b, -300m) stay."""
    stem = normalize(model_id)
    stem = pin_free(stem)
    while True:
        shorter = _TRAILING_VERSION.sub("", stem)
        if shorter == stem or not shorter:
            break
        stem = shorter
    return re.sub(r"[^a-z0-9-]+", "-", stem).strip("-") or "model"


def _visible(slug: str, fields: dict, families: _Families, alias_names: list):
    """Return (row dict, successor slug) for one model, or None when it has no home."""
    row, provenance, extras = {}, {}, {}
    for field, by_source in fields.items():
        if field in CAPABILITIES:
            continue   # read with the other shapes sources state capabilities in, below
        if field == "platforms":
            merged, origin = merge_by_key(by_source)
            if merged:
                extras[field] = {key: {**merged[key], "source": origin[key]} for key in sorted(merged)}
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
    """alias -> (model slug, alias source, position): the best-ranked claim on each alias wins."""
    best = {}
    for source, alias, slug, alias_source, position in conn.execute(
            "SELECT source, alias, model_slug, alias_source, position FROM alias_facts"):
        if slug not in live:
            continue
        key = (precedence(source), source)
        if alias not in best or key < best[alias][0]:
            best[alias] = (key, slug, alias_source, position)
    return {alias: claim[1:] for alias, claim in best.items()}


def model_key(aliases: list, slug: str) -> str:
    """The normalized form shared by all aliases of one model: its primary alias, normalized."""
    order = {source: i for i, source in enumerate(ALIAS_SOURCES)}
    if not aliases:
        return normalize(slug)
    primary = min(aliases, key=lambda a: (order.get(a[1], 9), a[2], a[0]))
    return normalize(primary[0])


def recompute(conn) -> tuple[int, int]:
    """Rebuild models, aliases, statuses and search rows from facts; return (added, updated).

    Rows whose values did not change are not written, so a re-run with unchanged facts
    touches no updated_at. Called through merge.runs.Run.apply, inside its transaction.
    """
    facts = _load_facts(conn)
    families = _Families(conn)
    live = {slug for slug, fields in facts.items() if _materialized(fields)}
    claims = _merged_aliases(conn, live)
    names_by_model = {}
    for alias, (slug, alias_source, position) in claims.items():
        names_by_model.setdefault(slug, []).append((alias, alias_source, position))

    existing = {r["slug"]: dict(r) for r in conn.execute("SELECT * FROM models")}
    stamp = now_iso()
    added, changed, successors, capability_sets = set(), set(), {}, {}
    for slug in sorted(live):
        visible = _visible(slug, facts[slug], families, [a[0] for a in names_by_model.get(slug, [])])
        if visible is None:
            continue
        row, successors[slug] = visible
        old = existing.get(slug)
        if old is None:
            added.add(slug)
        elif any(old[c] != row[c] for c in COMPARED):
            changed.add(slug)
        else:
            continue
        if old is None or old.get("capabilities") != row["capabilities"]:
            capability_sets[slug] = row["capabilities"]
        columns = ("slug",) + COMPARED
        conn.execute(
            f"INSERT INTO models ({', '.join(columns)}, created_at, updated_at)"
            f" VALUES ({', '.join('?' * len(columns))}, ?, ?)"
            f" ON CONFLICT(slug) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in COMPARED)},"
            " updated_at = excluded.updated_at",
            (slug, *(row[c] for c in COMPARED), stamp, stamp))

    kept = set(successors)
    # A model no source lists any longer stays as a tombstone: it keeps its row and its aliases, so the
    # ids teams still call keep answering (docs/api-decisions.md#change-history).
    removed = set(existing) - kept
    for slug in sorted(removed):
        metadata = json.loads(existing[slug]["metadata"] or "{}")
        if REMOVED not in metadata:
            metadata[REMOVED] = stamp
            conn.execute("UPDATE models SET metadata = ? WHERE slug = ?", (json.dumps(metadata, sort_keys=True), slug))
            changed.add(slug)
    ids = {r[0]: r[1] for r in conn.execute("SELECT slug, id FROM models")}
    write_capability_rows(conn, {ids[slug]: value for slug, value in capability_sets.items()})
    for slug, successor in successors.items():
        successor_id = ids.get(successor) if successor and successor != slug else None
        old = existing.get(slug)
        if old is not None and old["successor_id"] == successor_id:
            continue
        if old is not None and slug not in added:
            changed.add(slug)
        conn.execute("UPDATE models SET successor_id = ? WHERE slug = ?", (successor_id, slug))

    changed |= _write_aliases(conn, claims, names_by_model, ids, kept, {ids[s] for s in removed})
    changed |= lifecycle.recompute(conn, signals=lifecycle.signals_of(facts))
    changed -= added
    touched = added | changed
    if changed:
        conn.executemany("UPDATE models SET updated_at = ? WHERE slug = ?", [(stamp, s) for s in changed])
    # Families ingestion made for ids that have since moved (a curated glob claims them) go away.
    conn.execute("DELETE FROM families WHERE is_uncategorized = 1"
                 " AND NOT EXISTS (SELECT 1 FROM models m WHERE m.family_id = families.id)")
    documents.refresh(conn, [ids[s] for s in touched if s in ids])
    return len(added), len(changed)


def _write_aliases(conn, claims, names_by_model, ids, kept, tombstones=frozenset()) -> set:
    """Upsert the winning alias claims, drop unclaimed ones (a tombstone keeps its own); return slugs
    whose aliases changed."""
    keys = {slug: model_key(names_by_model.get(slug, []), slug) for slug in kept}
    wanted = {}
    for alias, (slug, alias_source, position) in claims.items():
        if slug in kept:
            wanted[alias] = (ids[slug], alias_source, position, keys[slug])
    by_id = {v: k for k, v in ids.items()}
    changed = set()
    current = {r[0]: tuple(r[1:]) for r in conn.execute(
        "SELECT alias, model_id, source, position, normalized FROM aliases")}
    for alias, old in current.items():
        if alias not in wanted and old[0] not in tombstones:
            conn.execute("DELETE FROM aliases WHERE alias = ?", (alias,))
            if old[0] in by_id:
                changed.add(by_id[old[0]])
    for alias, new in wanted.items():
        old = current.get(alias)
        if old == new:
            continue
        conn.execute(
            "INSERT INTO aliases (alias, model_id, source, position, normalized) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(alias) DO UPDATE SET model_id = excluded.model_id, source = excluded.source,"
            " position = excluded.position, normalized = excluded.normalized", (alias, *new))
        changed.add(by_id[new[0]])
        if old is not None and old[0] in by_id:
            changed.add(by_id[old[0]])
    return changed

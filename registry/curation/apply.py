"""Apply a validated curation to the database, and report what curators should look at."""
import json

from .reader import SOURCE, Curation
from ..db import now_iso, writable
from ..merge.locks import hold
from ..merge.facts import fact_rows, replace_facts
from ..merge.runs import RunError, recorded_run, running_run_id
from .. import documents


class CurationMismatch(RunError, ValueError):
    """The curation is valid on its own but does not fit the database (every problem, one per line)."""


class CurationBusy(RunError):
    """Another process is applying curation to the same database right now."""


def check_against_db(conn, cur: Curation) -> list:
    """Problems only the database can reveal: unknown successors and corrections, successor cycles."""
    known = {r[0] for r in conn.execute("SELECT slug FROM models")} | set(cur.facts)
    corrected_unknown = {r[0] for r in conn.execute(
        "SELECT DISTINCT model_slug FROM facts WHERE source != ?", (SOURCE,))}
    errors = []
    for slug, where in cur.corrections.items():
        if slug not in corrected_unknown:
            errors.append(f"{where}: correction for '{slug}', which no automated source knows")
    successors = {slug: f.get("successor") for slug, f in cur.facts.items() if f.get("successor")}
    for slug, facts in sorted(cur.facts.items()):
        named = [("successor", facts.get("successor")), ("points_to", facts.get("points_to"))]
        named += [(f"platforms.{p}.successor", entry.get("successor"))
                  for p, entry in sorted((facts.get("platforms") or {}).items())]
        for what, target in named:
            if target is not None and target not in known:
                errors.append(f"{_where(cur, slug)}: model '{slug}': {what} '{target}' does not exist")
    for slug in sorted(successors):
        seen, current = [slug], successors.get(slug)
        while current in successors and current not in seen:
            seen.append(current)
            current = successors[current]
        if current == slug:
            errors.append(f"{_where(cur, slug)}: successor chain cycles: {' -> '.join(seen + [slug])}")
    return errors


def _where(cur: Curation, slug: str) -> str:
    return cur.corrections.get(slug) or cur.where.get(slug, "curation")


def _write_providers_and_families(conn, cur: Curation) -> None:
    stamp = now_iso()
    for p in cur.providers:
        conn.execute(
            "INSERT INTO providers (slug, name, website_url, api_models_url, created_at, updated_at)"
            " VALUES (:slug, :name, :website_url, :api_models_url, :stamp, :stamp)"
            " ON CONFLICT(slug) DO UPDATE SET name = excluded.name, website_url = excluded.website_url,"
            " api_models_url = excluded.api_models_url, updated_at = excluded.updated_at"
            " WHERE (providers.name, providers.website_url, providers.api_models_url) IS NOT"
            " (excluded.name, excluded.website_url, excluded.api_models_url)", {**p, "stamp": stamp})
    for f in cur.families:
        conn.execute(
            "INSERT INTO families (slug, name, provider_id, description, is_open_source, match_globs, position,"
            " created_at, updated_at) SELECT :slug, :name, id, :description, :open, :globs, :position, :stamp, :stamp"
            " FROM providers WHERE slug = :provider"
            " ON CONFLICT(slug) DO UPDATE SET name = excluded.name, provider_id = excluded.provider_id,"
            " description = excluded.description, is_open_source = excluded.is_open_source,"
            " match_globs = excluded.match_globs, position = excluded.position, is_uncategorized = 0,"
            " updated_at = excluded.updated_at"
            " WHERE (families.name, families.provider_id, families.description, families.is_open_source,"
            " families.match_globs, families.position, families.is_uncategorized) IS NOT (excluded.name,"
            " excluded.provider_id, excluded.description, excluded.is_open_source, excluded.match_globs,"
            " excluded.position, 0)",
            {**f, "open": int(f["is_open_source"]), "globs": json.dumps(f["match"]), "stamp": stamp})
    _link_family_successors(conn, cur, stamp)


def _link_family_successors(conn, cur: Curation, stamp: str) -> None:
    """Point each curated family at the successor line it names, once every family exists
    (docs/lifecycle.md#the-upgrade)."""
    successors = {f["slug"]: f["successor"] for f in cur.families}
    for row in conn.execute("SELECT f.slug, f.successor_id, s.slug AS successor FROM families f"
                            " LEFT JOIN families s ON s.id = f.successor_id WHERE f.is_uncategorized = 0").fetchall():
        wanted = successors.get(row["slug"])
        if wanted != row["successor"]:
            conn.execute("UPDATE families SET successor_id = (SELECT id FROM families WHERE slug = ?),"
                         " updated_at = ? WHERE slug = ?", (wanted, stamp, row["slug"]))


def _write_facts(conn, cur: Curation) -> None:
    replace_facts(conn, SOURCE, fact_rows(SOURCE, cur.facts), [(SOURCE, *claim) for claim in cur.aliases])


def _prune_families(conn, cur: Curation, families_before: str) -> None:
    """Drop curated families that curation no longer names and no model is in; refresh search on renames."""
    curated = {f["slug"] for f in cur.families}
    conn.execute(
        "DELETE FROM families WHERE is_uncategorized = 0 AND slug NOT IN (SELECT value FROM json_each(?))"
        " AND NOT EXISTS (SELECT 1 FROM models m WHERE m.family_id = families.id)",
        (json.dumps(sorted(curated)),))
    if _family_names(conn) != families_before:
        documents.refresh(conn)


def _family_names(conn) -> str:
    return conn.execute("SELECT group_concat(slug || name, ',') FROM families").fetchone()[0]


def apply_curation(conn, cur: Curation) -> tuple[int, int]:
    """Write curation facts and recompute the registry in one transaction; return (added, updated).

    Raises CurationMismatch (a ValueError) with every problem when the curation does not fit the database.
    """
    with recorded_run(conn, SOURCE) as run:
        errors = check_against_db(conn, cur)
        if errors:
            raise CurationMismatch("\n".join(errors))
        before = _family_names(conn)

        def write(c):
            _write_providers_and_families(c, cur)
            _write_facts(c, cur)
        run.apply(write, after_merge=lambda c: _prune_families(c, cur, before))
    return run.added, run.updated


def apply_locked(db_path: str, cur: Curation) -> tuple[int, int]:
    """apply_curation under the curation lock, as a source runs under its own (merge/locks.py):
    two curates never overlap, and a curation run a killed process left 'running' is marked failed.

    Raises CurationBusy while another curate holds the lock, StorageError when the disk refuses.
    """
    held = hold(db_path, SOURCE)
    if held is None:
        with writable(db_path) as conn:
            running = running_run_id(conn, SOURCE)
        which = f" (run {running})" if running else ""
        raise CurationBusy(f"curation is already being applied{which}; nothing applied")
    lock, conn = held
    try:
        return apply_curation(conn, cur)
    finally:
        conn.close()
        lock.release()

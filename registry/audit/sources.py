"""The invariants of where facts come from (docs/lifecycle.md#the-audit): (h) no source wrote another
provider's model or alias; (i) every lifecycle value has a source; and every working model has a type
(nothing could check its upgrades otherwise). Each function returns the violations, one line each.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..curation.reader import Curation
from ..fields import CURATION, HUB_SOURCE, WORKING, sql_list
from ..ingest import sources

LIFECYCLE_FIELDS = ("deprecation_date", "sunset_date", "successor", "earliest_sunset_date", "status", "platforms",
                    "points_to")
_URL = re.compile(r"#.*https?://")
_FAMILY_START = re.compile(r"^  - slug:")
# A file's header may name its sources once (# - "Gemini deprecations": https://...); a comment that
# cites such a name cites its URL.
_NAMED_SOURCE = re.compile(r'^#\s*-\s*"([^"]+)":\s*https?://')


def untyped_working_models(conn) -> list:
    """Slugs of working models with no model_type (nothing could check their upgrades)."""
    return [r[0] for r in conn.execute(
        f"SELECT slug FROM models WHERE status IN {sql_list(WORKING)} AND model_type IS NULL ORDER BY slug")]


def outside_lanes(conn) -> list:
    """(h) A source's fact or alias on a model of another provider than the one it speaks for (a vendor
    listing's own provider; a feed row's or hub repo's named one), or a hub fact on closed weights."""
    owner = {r[0]: (r[1], bool(r[2])) for r in conn.execute(
        "SELECT m.slug, p.slug, f.is_open_source FROM models m JOIN families f ON f.id = m.family_id"
        " JOIN providers p ON p.id = f.provider_id")}
    lane = {name: sources.load(name).PROVIDER for name in sources.MODULES}
    named = {(r[0], r[1]): json.loads(r[2]) for r in conn.execute(
        "SELECT source, model_slug, value FROM facts WHERE field = 'provider' AND source != ?", (CURATION,))}
    found = []
    writes = conn.execute("SELECT DISTINCT source, model_slug, 'fact' FROM facts WHERE source != ? UNION"
                          " SELECT DISTINCT source, model_slug, alias FROM alias_facts WHERE source != ?",
                          (CURATION, CURATION)).fetchall()
    for source, slug, what in writes:
        if slug not in owner:
            continue
        speaks_for = lane.get(source) or named.get((source, slug))
        provider, open_weights = owner[slug]
        label = "facts" if what == "fact" else f"alias {what}"
        if speaks_for and speaks_for != provider:
            found.append(f"{source} ({speaks_for}) wrote {label} of {slug}, a model of {provider}")
        elif source == HUB_SOURCE and not open_weights:
            found.append(f"{HUB_SOURCE} wrote {label} of {slug}, which is not open weights")
    return sorted(set(found))


def unsourced_platform_lifecycles(conn) -> list:
    """(i) A platform's own days or replacement, or a floating id's target, with no source."""
    found = []
    for slug, platform, sources_json in conn.execute(
            "SELECT m.slug, l.platform, l.sources FROM platform_lifecycles l JOIN models m ON m.id = l.model_id"
            " WHERE l.own_schedule = 1 ORDER BY m.slug, l.platform"):
        if not sources_json or None in json.loads(sources_json).values():
            found.append(f"{slug} [{platform}]: the platform's own schedule has no source")
    for slug, metadata in conn.execute("SELECT slug, metadata FROM models WHERE json_extract(metadata, '$.points_to')"
                                       " IS NOT NULL ORDER BY slug"):
        if not (json.loads(metadata).get("provenance") or {}).get("points_to"):
            found.append(f"{slug}: points_to has no source")
    return found


def unexplained_upgrades(conn) -> list:
    """(k) An upgrade without its basis, or one on the basis of a named replacement whose source is unknown
    (docs/lifecycle.md#why)."""
    found = []
    for slug, platform, basis, sources_json in conn.execute(
            "SELECT m.slug, l.platform, l.upgrade_basis, l.sources FROM platform_lifecycles l"
            " JOIN models m ON m.id = l.model_id WHERE l.upgrade_id IS NOT NULL ORDER BY m.slug, l.platform"):
        if basis is None:
            found.append(f"{slug} [{platform}]: an upgrade with no basis")
        elif basis == "replacement" and not (json.loads(sources_json) if sources_json else {}).get("successor"):
            found.append(f"{slug} [{platform}]: a named replacement whose source is unknown")
    return found


def unsourced_lifecycle(conn, cur: Curation, directory) -> list:
    """Lifecycle values whose source is unknown, or curated without a URL comment above them."""
    problems = []
    for slug, metadata, *values in conn.execute(
            "SELECT slug, metadata, deprecation_date, sunset_date, successor_id FROM models ORDER BY slug"):
        provenance = (json.loads(metadata) if metadata else {}).get("provenance", {})
        for name, value in zip(("deprecation_date", "sunset_date", "successor"), values, strict=True):
            if value is not None and name not in provenance:
                problems.append(f"{slug}.{name}: no source in provenance")
    lines_of: dict = {}
    for (slug, name), (fname, line) in sorted(cur.field_lines.items()):
        if name not in LIFECYCLE_FIELDS or cur.facts.get(slug, {}).get(name) is None:
            continue
        if fname not in lines_of:
            lines_of[fname] = Path(directory, fname).read_text(encoding="utf-8").splitlines()
        if not _url_above(lines_of[fname], line, _source_names(lines_of[fname])):
            problems.append(f"{fname}:{line}: {slug}.{name}: no URL in a comment above it in its family")
    for family, (fname, line) in sorted(cur.family_lines.items()):
        if fname not in lines_of:
            lines_of[fname] = Path(directory, fname).read_text(encoding="utf-8").splitlines()
        if not _url_above(lines_of[fname], line, _source_names(lines_of[fname])):
            problems.append(f"{fname}:{line}: family {family}.successor: no URL in a comment above it")
    return problems


def _source_names(lines: list) -> tuple:
    """The source names a file's header defines."""
    return tuple(m.group(1) for m in map(_NAMED_SOURCE.match, lines) if m)


def _cites(text: str, names: tuple) -> bool:
    """Is this a comment that names a URL, or a source the file's header defines?"""
    if _URL.search(text):
        return True
    comment = text.partition("#")[2] if text.lstrip().startswith("#") or " #" in text else ""
    return bool(comment) and any(name in comment for name in names)


def _url_above(lines: list, line: int, names: tuple = ()) -> bool:
    """Is there a comment with a URL above this line, in its family or its section?

    A section is the comment block right above a family, which speaks for that family and the
    families after it that have no comment block of their own (curation/README.md, Lifecycle).
    """
    index = line - 1
    while index >= 0:
        text = lines[index]
        if _cites(text, names):
            return True
        if text.startswith("families:"):
            return False
        if _FAMILY_START.match(text):
            block = index - 1
            while block >= 0 and lines[block].lstrip().startswith("#"):
                if _cites(lines[block], names):
                    return True
                block -= 1
            if block != index - 1:
                return False   # a section of its own, with no URL
        index -= 1
    return False



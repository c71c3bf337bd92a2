"""`registry audit`: what makes an answer untrue, listed so a curator can fix it (docs/api-decisions.md#upgrade).

- every recommended upgrade that breaks a soundness rule, by rule;
- working models without a model_type (nothing could check their upgrades);
- models in a catch-all family;
- lifecycle values without a source: no provenance, or a curated value with no URL in a comment
  above it in its family.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .. import queries
from ..resolve import soundness
from ..resolve.upgrade import successor_chain, upgrade_for
from .reader import Curation

LIFECYCLE_FIELDS = ("deprecation_date", "sunset_date", "successor", "earliest_sunset_date", "status", "platforms")
_URL = re.compile(r"#.*https?://")
_FAMILY_START = re.compile(r"^  - slug:")
# A file's header may name its sources once (# - "Gemini deprecations": https://...); a comment that
# cites such a name cites its URL.
_NAMED_SOURCE = re.compile(r'^#\s*-\s*"([^"]+)":\s*https?://')


def unsound_upgrades(conn) -> dict:
    """rule -> ["model -> upgrade: why", ...] for every recommendation that breaks a rule."""
    found: dict = {}
    for row in conn.execute(queries.MODEL_SELECT + " ORDER BY m.slug").fetchall():
        upgrade = upgrade_for(conn, row)
        if upgrade is None:
            continue
        chain = successor_chain(conn, row)
        if upgrade["id"] in {m["id"] for m in chain}:
            base, rules = row, soundness.LINK_RULES
        else:
            base, rules = row, soundness.INFERRED_RULES
        for rule in rules:
            why = rule(base, upgrade)
            if why:
                found.setdefault(rule.__name__, []).append(f"{row['slug']} -> {upgrade['slug']}: {why}")
        if not soundness.working(upgrade) and any(soundness.working(m) for m in chain):
            found.setdefault("working_on_the_path", []).append(
                f"{row['slug']} -> {upgrade['slug']}: a retired model while a working one is on the chain")
    return found


def untyped_working_models(conn) -> list:
    """Slugs of working models with no model_type."""
    return [r[0] for r in conn.execute(
        "SELECT slug FROM models WHERE status IN ('active', 'latest') AND model_type IS NULL ORDER BY slug")]


def catch_all_members(conn) -> list:
    """family: model, for every model in a catch-all family."""
    return [f"{r[0]}: {r[1]}" for r in conn.execute(
        "SELECT f.slug, m.slug FROM models m JOIN families f ON f.id = m.family_id"
        " WHERE f.slug LIKE '%-uncategorized' ORDER BY f.slug, m.slug")]


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


def audit(conn, cur: Curation, directory) -> dict:
    """Every finding, by kind (empty lists: nothing to fix)."""
    findings = {f"unsound upgrade: {rule}": items for rule, items in unsound_upgrades(conn).items()}
    findings["working model without model_type"] = untyped_working_models(conn)
    findings["model in a catch-all family"] = catch_all_members(conn)
    findings["lifecycle value without a source"] = unsourced_lifecycle(conn, cur, directory)
    return findings


def render(findings: dict) -> str:
    """The findings as text, one heading per kind with its count."""
    out = []
    for kind, items in findings.items():
        out.append(f"{kind} ({len(items)}):")
        out += [f"  {item}" for item in items]
    return "\n".join(out)

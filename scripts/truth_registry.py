#!/usr/bin/env python3
"""Build a registry database from tests/data/models_truth.jsonl through the real path.

The truth file lists 224 models of 10 providers with exactly their aliases. This writes
them as a curation directory (curation/README format) into a temp dir, then runs
init_db, read_curation and apply_curation, as `flask --app registry curate` would.

Families follow one generic rule: a model's official id with its trailing date or version
pins stripped (gpt-4o-2024-08-06 -> gpt-4o, mistral-large-2411 -> mistral-large,
amazon.nova-pro-v1:0 -> amazon.nova-pro). Model slugs: the lowercase official id with
every character outside [a-z0-9.-] replaced by '-'.

    python3 scripts/truth_registry.py OUT.db
"""
from __future__ import annotations

import datetime as dt
import json
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from registry.curation.apply import apply_curation  # noqa: E402
from registry.curation.reader import read_curation  # noqa: E402
from registry.db import connect_rw, init_db  # noqa: E402
from registry.fields import ALIAS_SOURCES  # noqa: E402

TRUTH = ROOT / "tests" / "data" / "models_truth.jsonl"
TODAY = "2026-11-21"      # statuses are derived from dates: pin the day, as the tests do
CONTEXT_FIELDS = ("input_context_window", "output_context_window")
# Trailing pins: -20241022, -2024-05-13, -09-2025, -04-17, -2411 / -0613 / -001, -v1 / -v3.0, -latest.
_PIN = re.compile(r"[-@](?:\d{8}|\d{4}-\d\d-\d\d|\d\d-\d{4}|\d\d-\d\d|\d{3,4}|v\d+(?:\.\d+)*|latest)$",
                  re.IGNORECASE)


def read_truth(path: Path = TRUTH) -> list[dict]:
    """The truth models, one dict per line."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def model_slug(canonical: str) -> str:
    """The registry slug of a truth model: its official id, lowercase, [a-z0-9.-] only."""
    return re.sub(r"[^a-z0-9.-]", "-", canonical.lower())


def family_name(canonical: str) -> str:
    """The official id without its trailing date/version pins (and Bedrock ':0' tail)."""
    name = canonical.split(":", 1)[0]
    while True:
        shorter = _PIN.sub("", name)
        if shorter == name or not shorter:
            return name
        name = shorter


def family_slug(name: str) -> str:
    """A family slug ([a-z0-9][a-z0-9-]*) from a family name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _date(value) -> str | None:
    # The curation format takes whole days only: a month alone ("2025-04") is left out.
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", value):
        try:
            dt.date.fromisoformat(value)
            return value
        except ValueError:
            return None
    return None


def _model_entry(m: dict) -> dict:
    entry = {"slug": model_slug(m["canonical"])}
    if m.get("display_name"):
        entry["display_name"] = m["display_name"]
    for key in ("release_date", "deprecation_date"):
        if _date(m.get(key)):
            entry[key] = m[key]
    for key in CONTEXT_FIELDS:
        if isinstance(m.get(key), int) and m[key] >= 0:
            entry[key] = m[key]
    aliases = {}
    for a in m.get("aliases", []):
        aliases.setdefault(a["source"], []).append(a["alias"])
    if aliases:
        entry["aliases"] = {s: aliases[s] for s in ALIAS_SOURCES if s in aliases}
    return entry


def curation_files(truth: list[dict]) -> dict[str, object]:
    """file name -> YAML document of the curation directory for the truth models."""
    providers = sorted({m["provider"] for m in truth})
    families: dict[str, dict] = {}           # family slug -> family mapping
    owner: dict[str, str] = {}               # family slug -> provider
    by_provider: dict[str, list] = {p: [] for p in providers}
    for m in truth:
        name = family_name(m["canonical"])
        slug = family_slug(name)
        if owner.setdefault(slug, m["provider"]) != m["provider"]:
            slug = f"{m['provider']}-{slug}"      # family slugs are unique across providers
            owner[slug] = m["provider"]
        if slug not in families:
            families[slug] = {"slug": slug, "name": name, "models": []}
            by_provider[m["provider"]].append(families[slug])
        families[slug]["models"].append(_model_entry(m))
    files: dict[str, object] = {
        "providers.yaml": [{"slug": p, "name": p.title(), "api_models_url": None} for p in providers]}
    for p in providers:
        files[f"{p}.yaml"] = {"provider": p, "families": by_provider[p]}
    return files


def write_curation(directory: Path, truth: list[dict]) -> Path:
    """Write the curation directory of the truth models; return it."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, document in curation_files(truth).items():
        (directory / name).write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True),
                                      encoding="utf-8")
    return directory


@contextmanager
def _pinned_today(today: str | None):
    previous = os.environ.get("REGISTRY_TODAY")
    if today:
        os.environ["REGISTRY_TODAY"] = today
    try:
        yield
    finally:
        if today:
            if previous is None:
                os.environ.pop("REGISTRY_TODAY", None)
            else:
                os.environ["REGISTRY_TODAY"] = previous


def build_truth_registry(db_path, truth_path: Path = TRUTH, today: str | None = TODAY) -> dict[str, str]:
    """Build a registry database at db_path from the truth file; return {canonical id: model slug}."""
    truth = read_truth(Path(truth_path))
    with tempfile.TemporaryDirectory(prefix="truth-curation-") as tmp:
        cur = read_curation(write_curation(Path(tmp) / "curation", truth))
    if cur.errors:
        raise ValueError("truth curation is invalid:\n" + "\n".join(cur.errors))
    init_db(str(db_path))
    conn = connect_rw(str(db_path))
    try:
        with _pinned_today(today):
            apply_curation(conn, cur)
    finally:
        conn.close()
    return {m["canonical"]: model_slug(m["canonical"]) for m in truth}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    slugs = build_truth_registry(sys.argv[1])
    print(f"built {sys.argv[1]}: {len(slugs)} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())

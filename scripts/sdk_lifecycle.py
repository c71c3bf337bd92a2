#!/usr/bin/env python3
"""Read the providers' SDK deprecation tables and print the curation changes they imply, for review.

A curator's refresh path (docs/curating.md#refreshing-from-the-sdks): download the packages once
(`pip download --no-deps anthropic==X -d sdk/`, `npm pack openai@X --pack-destination sdk/`), then,
offline:

    python3 scripts/sdk_lifecycle.py sdk/*.whl sdk/*.tgz [--curation curation]

Two table shapes are read, in Python and TypeScript alike:
- a dict of model id -> end-of-life day (`DEPRECATED_MODELS = {"claude-sonnet-4-5": "November 30th, 2026"}`,
  Anthropic's `_data/deprecated_models.py` and `internal/data/deprecated-models.ts`);
- a "Deprecated values:" list of quoted ids with "Announced shutdown date: YYYY-MM-DD" (OpenAI's model
  Literals' docstrings and doc comments).

Where several releases of one package are given, each id takes its newest release's statement (a
table drops an id once its day has passed, so older releases still speak for it). Each notice is matched
to a curated model by slug or alias; the script prints, per provider file and model, the `sunset_date`
line the notice implies with its source comment (package, version, file), whenever curation lacks that
day or states another, and lists the ids curation does not know. Nothing is written: a curator reviews
and copies what is right.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TEXT_FILES = (".py", ".ts", ".mts", ".js", ".mjs", ".cjs")
_DICT = re.compile(r"DEPRECATED_MODELS\s*(?::[^=]*)?=\s*\{(?P<body>[^}]*)\}", re.S)
_DICT_ITEM = re.compile(r"""['"](?P<id>[A-Za-z0-9._:/@-]+)['"]\s*:\s*['"](?P<day>[^'"]+)['"]""")
_DEPRECATED_VALUES = re.compile(r"Deprecated values:(?P<body>.*?)(?:\"\"\"|\*/|\Z)", re.S)
_QUOTED = re.compile(r'"([A-Za-z0-9._:/@-]+)"')
_SHUTDOWN = re.compile(r"Announced shutdown date:\s*(\d{4}-\d{2}-\d{2})")
_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)")
# Whose models each provider's SDK speaks for: a notice about another provider's model stays out of its
# lane (docs/lifecycle.md#sources-stay-in-their-lane) and is listed apart.
PACKAGE_PROVIDERS = {"anthropic": "anthropic", "@anthropic-ai/sdk": "anthropic", "openai": "openai",
                     "google-genai": "google", "@google/genai": "google", "mistralai": "mistral",
                     "@mistralai/mistralai": "mistral", "cohere": "cohere", "cohere-ai": "cohere",
                     "xai-sdk": "xai", "dashscope": "qwen", "ai21": "ai21"}


@dataclass(frozen=True)
class Notice:
    """One SDK's statement about one model id: its shutdown day, and where it was read."""

    package: str
    version: str
    registry: str        # PyPI or npm
    file: str            # the path inside the package
    model_id: str
    shutdown: str        # YYYY-MM-DD

    def source(self) -> str:
        """The comment a curator puts above the value."""
        return f"{self.package} {self.version} ({self.registry}), {self.file}: end of life {self.shutdown}"


def day(text: str) -> str | None:
    """'November 30th, 2026' or '2026-11-30' as YYYY-MM-DD; None when it is not a day."""
    text = _ORDINAL.sub(r"\1", text.strip())
    for fmt in ("%Y-%m-%d", "%B %d, %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def notices_in(text: str) -> list[tuple[str, str]]:
    """(model id, shutdown day) pairs of every deprecation table in one source file's text."""
    found = []
    for table in _DICT.finditer(text):
        for item in _DICT_ITEM.finditer(table.group("body")):
            when = day(item.group("day"))
            if when:
                found.append((item.group("id"), when))
    for block in _DEPRECATED_VALUES.finditer(text):
        for bullet in _bullets(block.group("body")):
            when = _SHUTDOWN.search(bullet)
            if when:   # the ids are the quoted strings before the colon that ends them
                head = bullet[:when.start()]
                found += [(model_id, when.group(1)) for model_id in _QUOTED.findall(head)]
    return found


def _bullets(body: str) -> list[str]:
    """The items of a "Deprecated values:" list: a line starting '- ' opens one, indented lines continue
    it, and the list ends at a blank line or any other line (a TypeScript comment's ' * ' is dropped)."""
    items, started = [], False
    for raw in body.splitlines():
        line = re.sub(r"^\s*\*(?:\s|$)", "", raw).rstrip()
        if line.lstrip().startswith("- "):
            items.append(line.lstrip()[2:])
            started = True
        elif started and line.startswith((" ", "\t")) and line.strip():
            items[-1] += " " + line.strip()
        elif started or line.strip():
            if started:
                break
    return items


def _files(path: Path):
    """(name inside the package, text) of every source file of a wheel, an npm tarball or a folder."""
    if path.suffix == ".whl" or path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(TEXT_FILES):
                    yield name, z.read(name).decode("utf-8", "replace")
    elif path.name.endswith((".tgz", ".tar.gz")):
        with tarfile.open(path) as t:
            for member in t.getmembers():
                if member.isfile() and member.name.endswith(TEXT_FILES + (".json",)):
                    yield member.name, t.extractfile(member).read().decode("utf-8", "replace")
    else:
        for file in sorted(path.rglob("*")):
            if file.is_file() and file.name.endswith(TEXT_FILES + ("METADATA", "package.json")):
                yield file.relative_to(path).as_posix(), file.read_text(encoding="utf-8", errors="replace")


def identify(path: Path, files: list) -> tuple[str, str, str]:
    """(package, version, registry) of a downloaded package: a wheel's name, an npm package.json, or a
    folder's dist-info METADATA."""
    wheel = re.match(r"(?P<name>[A-Za-z0-9_.]+)-(?P<version>[^-]+)-", path.name)
    if path.suffix == ".whl" and wheel:
        return wheel.group("name").replace("_", "-"), wheel.group("version"), "PyPI"
    for name, text in files:
        if name.endswith("package.json") and name.count("/") <= 1:
            meta = json.loads(text)
            return meta["name"], meta["version"], "npm"
        if name.endswith("METADATA"):
            fields = dict(re.findall(r"^(Name|Version): (.+)$", text, re.M))
            if "Name" in fields:
                return fields["Name"], fields["Version"], "PyPI"
    raise ValueError(f"{path}: not a wheel, an npm tarball or an unpacked package with its metadata")


def read_package(path: Path) -> list[Notice]:
    """Every deprecation notice of one downloaded package."""
    files = list(_files(path))
    package, version, registry = identify(path, files)
    out = []
    for name, text in files:
        if "deprecat" not in text.lower():
            continue
        inner = name.split("/", 1)[1] if registry == "npm" and name.startswith("package/") else name
        out += [Notice(package, version, registry, inner, model_id, when) for model_id, when in notices_in(text)]
    return out


def _version_key(version: str):
    from packaging.version import InvalidVersion, Version
    try:
        return (0, Version(version))
    except InvalidVersion:
        return (1, version)


def newest(notices: list[Notice]) -> dict:
    """(package, model id) -> the notice of the newest release that states it."""
    best: dict = {}
    for n in notices:
        key = (n.package, n.model_id)
        rank = (_version_key(n.version), [-ord(c) for c in n.file])   # newest release; then the first file
        if key not in best or rank > best[key][0]:
            best[key] = (rank, n)
    return {key: n for key, (_, n) in best.items()}


def suggestions(notices: dict, curation) -> tuple[list[str], list[str]]:
    """(YAML changes to review, ids curation does not know or another provider's) for the newest notices."""
    owner = {alias: slug for alias, slug, _source, _pos in curation.aliases}
    owner.update({slug: slug for slug in curation.facts})
    provider_of = {f["slug"]: f["provider"] for f in curation.families}
    lines, unknown = [], []
    by_model: dict = {}
    for n in sorted(notices.values(), key=lambda n: (n.model_id, n.package)):
        slug = owner.get(n.model_id)
        if slug is None:
            unknown.append(f"{n.model_id}: {n.source()}")
            continue
        theirs = provider_of.get(curation.facts.get(slug, {}).get("family"))
        lane = PACKAGE_PROVIDERS.get(n.package)
        if lane and theirs and lane != theirs:
            unknown.append(f"{n.model_id}: {n.source()} (a model of {theirs}, not of {lane}: left alone)")
            continue
        by_model.setdefault(slug, []).append(n)
    for slug in sorted(by_model):
        facts = curation.facts.get(slug, {})
        where = (curation.where.get(slug) or curation.corrections.get(slug, "curation")).rsplit(":", 1)[0]
        for shutdown in sorted({n.shutdown for n in by_model[slug]}):
            if facts.get("sunset_date") == shutdown:
                continue
            stated = [n for n in by_model[slug] if n.shutdown == shutdown]
            was = facts.get("sunset_date")
            lines.append(f"{where}: {slug} ({', '.join(sorted({n.model_id for n in stated}))})")
            lines += [f"        # {n.source()}" for n in stated]
            lines.append(f"        sunset_date: {shutdown}" + (f"    # curation says {was}" if was else ""))
    return lines, unknown


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="+", help="downloaded wheels, npm tarballs or unpacked package folders")
    ap.add_argument("--curation", default=str(ROOT / "curation"), help="the curation directory to compare with")
    args = ap.parse_args(argv)
    from registry.curation.reader import read_curation
    curation = read_curation(args.curation)
    if curation.errors:
        print("\n".join(curation.errors), file=sys.stderr)
        return 2
    notices = []
    for package in args.packages:
        notices += read_package(Path(package))
    lines, unknown = suggestions(newest(notices), curation)
    print(f"{len(notices)} notices read from {len(args.packages)} package(s).")
    print(f"Changes to review ({sum(1 for line in lines if not line.startswith(' '))}):")
    print("\n".join(lines) if lines else "  none: curation states every day the SDKs give")
    print(f"Ids curation does not know, or of another provider ({len(unknown)}):")
    print("\n".join(f"  {u}" for u in unknown) if unknown else "  none")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Load and validate the curation directory (the spec's ingestion tier 4) into providers, families and facts."""
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..fields import ALIAS_SOURCES
from .rules import (CORRECTION_KEYS, FAMILY_KEYS, MODEL_FIELDS, MODEL_KEYS, PROVIDER_KEYS, SLUG_RE, _family_slug,
                    _model_slug, check_field)
from .yamlload import LineDict, LineList, load_yaml

SOURCE = "curation"


@dataclass
class Curation:
    """Everything a valid curation directory states."""

    providers: list = field(default_factory=list)       # dicts: slug, name, website_url, api_models_url
    families: list = field(default_factory=list)        # dicts: slug, name, provider, description, ...
    facts: dict = field(default_factory=dict)           # model slug -> {field: value}
    aliases: list = field(default_factory=list)         # (alias, model_slug, alias_source, position)
    corrections: dict = field(default_factory=dict)     # model slug -> file:line, to check existence
    where: dict = field(default_factory=dict)           # curated model slug -> file:line
    field_lines: dict = field(default_factory=dict)     # (model slug, field) -> (file name, line)
    family_lines: dict = field(default_factory=dict)    # family slug -> (file name, line) of its successor
    errors: list = field(default_factory=list)          # "file:line: message"


class _Reader:
    """Walks the YAML files, collecting every problem instead of stopping at the first."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.out = Curation()
        self.alias_owner = {}       # alias -> (model slug, where, the alias sources listing it)
        self.model_where = {}       # model slug -> where first defined
        self.family_successor_lines = {}   # family slug -> (file, line) of its successor

    def error(self, fname: str, line: int, message: str) -> None:
        self.out.errors.append(f"{fname}:{line}: {message}")

    def load(self, path: Path):
        try:
            return load_yaml(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            line = mark.line + 1 if mark else 1
            self.error(path.name, line, f"invalid YAML: {getattr(exc, 'problem', None) or exc}")
        except (OSError, UnicodeDecodeError) as exc:
            self.error(path.name, 1, f"cannot read: {exc}")
        return None

    def unknown_keys(self, fname, mapping: LineDict, allowed, what):
        for key in mapping:
            if key not in allowed:
                self.error(fname, mapping.line_of(key), f"unknown key '{key}' in {what}")

    def read_providers(self, path: Path):
        data = self.load(path)
        if data is None:
            return
        if not isinstance(data, LineList):
            self.error(path.name, getattr(data, "line", 1), "must be a list of providers")
            return
        seen = set()
        for item in data:
            if not isinstance(item, LineDict):
                self.error(path.name, data.line, "each provider must be a mapping")
                continue
            self.unknown_keys(path.name, item, PROVIDER_KEYS, "provider")
            slug = item.get("slug")
            if not isinstance(slug, str) or not SLUG_RE.match(slug):
                self.error(path.name, item.line_of("slug"),
                           "provider slug is required and must match [a-z0-9][a-z0-9-]*")
                continue
            if slug in seen:
                self.error(path.name, item.line_of("slug"), f"provider '{slug}' is listed twice")
            seen.add(slug)
            if not isinstance(item.get("name"), str) or not item["name"].strip():
                self.error(path.name, item.line_of("name"), f"provider '{slug}': name is required")
            for key in ("website_url", "api_models_url"):
                value = item.get(key)
                if value is not None and not (isinstance(value, str) and value.startswith(("http://", "https://"))):
                    self.error(path.name, item.line_of(key), f"provider '{slug}': {key} must be an http(s) URL or null")
            self.out.providers.append({"slug": slug, "name": item.get("name"),
                                       "website_url": item.get("website_url") or "",
                                       "api_models_url": item.get("api_models_url")})

    def read_model_fields(self, fname, entry: LineDict, slug: str, keys) -> dict:
        facts = {}
        for key in keys:
            if key in entry and key != "aliases":
                problem = check_field(key, entry[key])
                if problem:
                    self.error(fname, entry.line_of(key), f"model '{slug}': {key} {problem}")
                else:
                    facts[key] = entry[key]
                    self.out.field_lines[(slug, key)] = (fname, entry.line_of(key))
        if "aliases" in entry:
            self.read_aliases(fname, entry, slug)
        return facts

    def read_aliases(self, fname, entry: LineDict, slug: str):
        aliases = entry["aliases"]
        if not isinstance(aliases, LineDict):
            self.error(fname, entry.line_of("aliases"), f"model '{slug}': aliases must map a source to a list")
            return
        for source, names in aliases.items():
            line = aliases.line_of(source)
            if source not in ALIAS_SOURCES:
                self.error(fname, line, f"model '{slug}': unknown alias source '{source}' "
                           f"(one of {', '.join(ALIAS_SOURCES)})")
                continue
            if not isinstance(names, LineList):
                self.error(fname, line, f"model '{slug}': aliases.{source} must be a list")
                continue
            for position, (alias, alias_line) in enumerate(zip(names, names.item_lines, strict=True)):
                if not isinstance(alias, str) or not alias.strip() or alias != alias.strip():
                    self.error(fname, alias_line,
                               f"model '{slug}': alias must be a non-empty string without surrounding spaces")
                    continue
                # One string names one model; it may be listed once per platform that serves it under that
                # string (a Gemini id on the Gemini API and on Vertex AI).
                owner = self.alias_owner.get(alias)
                if owner and owner[0] != slug:
                    self.error(fname, alias_line,
                               f"alias '{alias}' is claimed by '{slug}' and by '{owner[0]}' ({owner[1]})")
                    continue
                if owner and source in owner[2]:
                    self.error(fname, alias_line, f"alias '{alias}' is listed twice for '{slug}'")
                    continue
                self.alias_owner[alias] = (slug, f"{fname}:{alias_line}", (owner[2] if owner else ()) + (source,))
                self.out.aliases.append((alias, slug, source, position))

    def read_provider_file(self, path: Path, provider_slugs: set, family_where: dict):
        fname = path.name
        data = self.load(path)
        if data is None:
            return
        if not isinstance(data, LineDict):
            self.error(fname, 1, "must be a mapping with 'provider' and 'families'")
            return
        self.unknown_keys(fname, data, {"provider", "families"}, "provider file")
        provider = data.get("provider")
        if provider != path.stem:
            self.error(fname, data.line_of("provider"), f"provider must be '{path.stem}' (the file name)")
        if provider not in provider_slugs:
            self.error(fname, data.line_of("provider"), f"provider '{provider}' is not in providers.yaml")
        families = data.get("families") or LineList()
        if not isinstance(families, LineList):
            self.error(fname, data.line_of("families"), "families must be a list")
            return
        for position, fam in enumerate(families):
            if not isinstance(fam, LineDict):
                self.error(fname, families.line, "each family must be a mapping")
                continue
            self.read_family(fname, fam, provider, position, family_where)

    def read_family(self, fname, fam: LineDict, provider, position, family_where):
        self.unknown_keys(fname, fam, FAMILY_KEYS, "family")
        slug = fam.get("slug")
        if not isinstance(slug, str) or not SLUG_RE.match(slug):
            self.error(fname, fam.line_of("slug"), "family slug is required and must match [a-z0-9][a-z0-9-]*")
            return
        if slug in family_where:
            self.error(fname, fam.line_of("slug"), f"family '{slug}' is already defined at {family_where[slug]}")
            return
        family_where[slug] = f"{fname}:{fam.line_of('slug')}"
        if not isinstance(fam.get("name"), str) or not fam["name"].strip():
            self.error(fname, fam.line_of("name"), f"family '{slug}': name is required")
        if not isinstance(fam.get("is_open_source", False), bool):
            self.error(fname, fam.line_of("is_open_source"), f"family '{slug}': is_open_source must be true or false")
        description = fam.get("description")
        if description is not None and not isinstance(description, str):
            self.error(fname, fam.line_of("description"), f"family '{slug}': description must be text")
        successor = fam.get("successor")
        if successor is not None and (_family_slug(successor) or successor == slug):
            self.error(fname, fam.line_of("successor"), f"family '{slug}': successor must name another family's slug")
            successor = None
        elif successor is not None:
            self.family_successor_lines[slug] = (fname, fam.line_of("successor"))
        match = fam.get("match") or []
        if not isinstance(match, list) or not all(isinstance(g, str) and g for g in match):
            self.error(fname, fam.line_of("match"), f"family '{slug}': match must be a list of globs")
            match = []
        self.out.families.append({"slug": slug, "name": fam.get("name"), "provider": provider,
                                  "description": description, "is_open_source": fam.get("is_open_source") is True,
                                  "match": list(match), "position": position,
                                  "successor": successor})
        models = fam.get("models") or []
        if not isinstance(models, LineList):
            self.error(fname, fam.line_of("models"), f"family '{slug}': models must be a list")
            return
        for entry in models:
            if not isinstance(entry, LineDict):
                self.error(fname, models.line, f"family '{slug}': each model must be a mapping")
                continue
            self.read_model(fname, entry, slug)

    def read_model(self, fname, entry: LineDict, family_slug):
        self.unknown_keys(fname, entry, MODEL_KEYS, "model")
        slug = entry.get("slug")
        problem = _model_slug(slug)
        if problem:
            self.error(fname, entry.line_of("slug"), f"model slug is required and {problem}")
            return
        if slug in self.model_where:
            self.error(fname, entry.line_of("slug"), f"model '{slug}' is already defined at {self.model_where[slug]}")
            return
        self.model_where[slug] = f"{fname}:{entry.line_of('slug')}"
        facts = self.read_model_fields(fname, entry, slug, MODEL_FIELDS)
        facts["family"] = family_slug
        self.out.facts[slug] = facts

    def read_corrections(self, path: Path):
        data = self.load(path)
        if data is None:
            return
        if not isinstance(data, LineDict) or not isinstance(data.get("models", LineDict()), LineDict):
            self.error(path.name, getattr(data, "line", 1), "must be a mapping with 'models': {slug: fields}")
            return
        self.unknown_keys(path.name, data, {"models"}, "corrections file")
        models = data.get("models") or LineDict()
        for slug, entry in models.items():
            line = models.line_of(slug)
            if _model_slug(slug) or not isinstance(entry, LineDict):
                self.error(path.name, line, f"correction '{slug}' must be a model slug mapping to fields")
                continue
            if slug in self.model_where:
                self.error(path.name, line, f"model '{slug}' is curated at {self.model_where[slug]}: edit it there")
                continue
            self.unknown_keys(path.name, entry, CORRECTION_KEYS, "correction")
            self.out.facts[slug] = self.read_model_fields(path.name, entry, slug, MODEL_FIELDS)
            self.out.corrections[slug] = f"{path.name}:{line}"


def read_curation(directory) -> Curation:
    """Read and validate every file of a curation directory; problems land in .errors."""
    directory = Path(directory)
    reader = _Reader(directory)
    if not directory.is_dir():
        reader.error(str(directory), 0, "curation directory not found")
        return reader.out
    providers_path = directory / "providers.yaml"
    if providers_path.exists():
        reader.read_providers(providers_path)
    else:
        reader.error("providers.yaml", 0, "missing: the list of providers is required")
    provider_slugs = {p["slug"] for p in reader.out.providers}
    family_where = {}
    corrections = None
    for path in sorted(directory.glob("*.y*ml")):
        if path.name == "providers.yaml":
            continue
        if path.name == "corrections.yaml":
            corrections = path
        elif path.suffix == ".yaml" and path.stem in provider_slugs:
            reader.read_provider_file(path, provider_slugs, family_where)
        else:
            reader.error(path.name, 1, "unexpected file: only providers.yaml, <provider-slug>.yaml "
                         "and corrections.yaml belong here")
    if corrections:
        reader.read_corrections(corrections)
    _check_references(reader, family_where)
    reader.out.where = dict(reader.model_where)
    return reader.out


def _check_references(reader: _Reader, family_where: dict) -> None:
    out = reader.out
    for slug, facts in out.facts.items():
        where = reader.model_where.get(slug) or out.corrections.get(slug)
        fname, line = where.rsplit(":", 1)
        family = facts.get("family")
        if family and family not in family_where:
            reader.error(fname, int(line), f"model '{slug}': family '{family}' is not a curated family")
        if facts.get("successor") == slug:
            reader.error(fname, int(line), f"model '{slug}' names itself as successor")
        if facts.get("points_to") == slug:
            reader.error(fname, int(line), f"model '{slug}' points to itself")
    for family, (fname, line) in reader.family_successor_lines.items():
        successor = next(f["successor"] for f in out.families if f["slug"] == family)
        if successor not in family_where:
            reader.error(fname, line, f"family '{family}': successor family '{successor}' is not a curated family")
    out.family_lines = dict(reader.family_successor_lines)

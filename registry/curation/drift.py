"""`registry curate --drift`: where a source knows better than curation (docs/curating.md#drift).

For every curated lifecycle value (dates, replacement, status pin, platform schedules, floating
pointer), what each automated source says about the same model: its last run (the facts
it stored) and its offline snapshot in seeds/ (parsed and matched now, nothing written). A value that
differs is drift: either curation is stale (fix it), or curation keeps its value on purpose, and then a
comment above the value says why (it names the other value, or says `conflict`), and the report lists
it as kept, with that reason. The daily ingest records the same for its own source in the run's details.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..fields import AUTOMATED_SOURCES, CURATION, PLATFORM_SOURCES

# Release days are left to `curate --report`: the hub's repo creation day differs from most curated
# announcement days by design, and is no lifecycle notice.
LIFECYCLE = ("deprecation_date", "sunset_date", "successor", "status", "points_to", "earliest_sunset_date")
_MODEL_START = "      - slug:"


@dataclass(frozen=True)
class Drift:
    """One curated value a source contradicts."""

    slug: str
    field: str                  # a LIFECYCLE field, or platforms.<platform>.<key>
    curated: object
    source: str                 # the source, with where its value was read (last run, seeds)
    theirs: object
    kept_because: str | None = None   # the comment above the curated value that explains keeping it

    def line(self) -> str:
        """The drift as one line of the report."""
        text = f"{self.slug}.{self.field}: curation {self.curated!r}, {self.source} {self.theirs!r}"
        return text + (f" (kept: {self.kept_because})" if self.kept_because else "")


# The fields flatten() reads: only their JSON values are parsed (a 50k-repo hub run stores half a million others).
_READ = frozenset(LIFECYCLE + ("deprecated", "retired", "platforms"))


def flatten(fields: dict) -> dict:
    """field -> value of one model's facts, platform schedules as platforms.<platform>.<key>."""
    out = {}
    for field, value in fields.items():
        if field == "platforms" and isinstance(value, dict):
            for platform, entry in value.items():
                for key, item in (entry or {}).items():
                    if key in ("deprecation_date", "sunset_date", "successor", "status"):
                        out[f"platforms.{platform}.{key}"] = item
        elif field in LIFECYCLE or field in ("deprecated", "retired"):
            out[field] = value
    return out


def by_model(rows) -> dict:
    """slug -> field -> value from fact rows (source, slug, field, JSON value)."""
    facts: dict = {}
    for _source, slug, field, value in rows:
        fields = facts.setdefault(slug, {})
        if field in _READ:
            fields[field] = json.loads(value) if isinstance(value, str) else value
    return {slug: flatten(fields) for slug, fields in facts.items()}


def compare(curated: dict, theirs: dict, source: str, on: str) -> list[Drift]:
    """The drift between curation's values (slug -> field -> value) and one source's."""
    found = []
    for slug, fields in sorted(theirs.items()):
        mine = curated.get(slug)
        if mine is None:
            continue
        for field, value in sorted(fields.items()):
            if field in mine and value is not None and mine[field] is not None and value != mine[field]:
                found.append(Drift(slug, field, mine[field], source, value))
        sunset, pin = mine.get("sunset_date"), mine.get("status")
        if fields.get("retired") and pin != "sunset" and not (sunset and sunset <= on):
            found.append(Drift(slug, "status", pin or f"sunset_date {sunset}", source, "retired"))
        elif fields.get("deprecated") and pin is None and not any(mine.get(f) for f in ("deprecation_date",
                                                                                          "sunset_date")):
            found.append(Drift(slug, "status", "no deprecation", source, "deprecated"))
    return found


def curated_values(conn) -> dict:
    """slug -> field -> the curated lifecycle values, flattened."""
    return by_model(conn.execute("SELECT source, model_slug, field, value FROM facts WHERE source = ?", (CURATION,)))


def last_runs(conn, curated: dict, on: str) -> list[Drift]:
    """Drift against what every automated source's last run stored."""
    found = []
    for source in AUTOMATED_SOURCES:
        run = conn.execute("SELECT completed_at FROM ingestion_runs WHERE source = ? AND status = 'completed'"
                           " ORDER BY id DESC LIMIT 1", (source,)).fetchone()
        rows = conn.execute("SELECT source, model_slug, field, value FROM facts WHERE source = ?", (source,))
        label = f"{source} (last run {run[0][:10]})" if run else source
        found += compare(curated, by_model(rows), label, on)
    return found


def explain(drift: list[Drift], field_lines: dict, directory) -> list[Drift]:
    """Each drift with the reason curation keeps its value, when a comment above the value gives one."""
    files: dict = {}
    out = []
    for d in drift:
        where = field_lines.get((d.slug, d.field.split(".", 1)[0]))
        reason = None
        if where is not None:
            fname, line = where
            if fname not in files:
                files[fname] = Path(directory, fname).read_text(encoding="utf-8").splitlines()
            reason = _reason(files[fname], line, d.theirs)
        out.append(Drift(d.slug, d.field, d.curated, d.source, d.theirs, reason))
    return out


def _reason(lines: list, line: int, theirs) -> str | None:
    """A comment above line, inside its model entry or in the comment block right above the entry, that
    names the other value or says `conflict`."""
    index, entry_started = line - 2, False
    while index >= 0:
        text = lines[index].strip()
        if entry_started and not text.startswith("#"):
            return None
        if text.startswith("#") and ("conflict" in text.lower() or str(theirs) in text):
            return text.lstrip("# ").strip()
        entry_started = entry_started or lines[index].startswith(_MODEL_START)
        index -= 1
    return None


def unattached(conn) -> list[str]:
    """The ids each platform's catalog listed at its last completed run that no model of the registry answers to
    (details.unattached): curate the model, or say why not (docs/lifecycle.md#platform-catalogs)."""
    return _last_runs_say(conn, "unattached", PLATFORM_SOURCES)


def held(conn) -> list[str]:
    """The prices and shrinking context windows each source's last completed run held instead of serving
    (details.held_prices, details.held_windows): to confirm in curation, or to let the next run correct
    (docs/api.md#prices)."""
    sources = [r[0] for r in conn.execute("SELECT DISTINCT source FROM ingestion_runs ORDER BY source")]
    return _last_runs_say(conn, "held_prices", sources) + _last_runs_say(conn, "held_windows", sources)


def _last_runs_say(conn, key: str, sources) -> list[str]:
    found = []
    for source in sources:
        run = conn.execute("SELECT details FROM ingestion_runs WHERE source = ? AND status = 'completed'"
                           " ORDER BY id DESC LIMIT 1", (source,)).fetchone()
        details = json.loads(run[0]) if run and run[0] else {}
        found += [f"{source}: {line}" for line in details.get(key, ())]
    return found


def report(drift: list[Drift], platform_ids: list[str] = (), held: list[str] = ()) -> str:
    """The drift report: what to fix, then what curation keeps and why, then the platforms' ids no model holds."""
    fix = [d for d in drift if not d.kept_because]
    kept = [d for d in drift if d.kept_because]
    out = [f"Curated values a source contradicts ({len(fix)}): fix curation, or say why it is kept"]
    out += [f"  {d.line()}" for d in fix]
    out.append(f"Kept on purpose, with the reason above the value ({len(kept)}):")
    out += [f"  {d.line()}" for d in kept]
    out.append(f"Ids a platform's catalog lists that no model of the registry answers to ({len(platform_ids)}):"
               " curate the model (with its source), or leave it")
    out += [f"  {line}" for line in platform_ids]
    out.append(f"Prices and context windows held for a curator, the value stated before still served ({len(held)}):"
               " confirm the new one in curation (with its source), or leave it for the next run")
    out += [f"  {line}" for line in held]
    return "\n".join(out)

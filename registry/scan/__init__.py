"""`registry scan`: find deprecated and sunset model ids in a tree, report them, fix them in their own format.

walk.py picks the files, candidates.py finds identifier-shaped strings (one Aho-Corasick pass),
lookup.py asks the registry about each distinct string once, report.py and sarif.py write the
findings, fix.py rewrites them. docs/scan.md has the rules.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from ..lifecycle import days_left
from ..resolve.answers import shutdown_of
from ..fields import RETIRING, WORKING
from . import parallel, prefilter, walk
from .candidates import Matcher, Occurrence

DEFAULT_CONFIDENCE = 0.8   # exact (1.0) and normalized (0.8) matches; substring (0.5) is too loose


@dataclass(frozen=True)
class Finding:
    """One deprecated or sunset id at one place, with what the registry says about it."""

    path: str                 # as reports show it
    line: int
    col: int                  # 1-based, in characters
    end_col: int              # one past the last character
    text: str                 # the string as written
    model: str                # the matched model's slug
    display_name: str
    status: str               # deprecated | sunset (the cloud's own, for a cloud id with its own schedule)
    confidence: float
    shutdown: str | None      # the day the id stops working
    days_left: int | None     # to that day; negative once it has passed
    upgrade: str | None       # the recommended model's slug
    upgrade_status: str | None  # that model's status (an upgrade that is itself retiring is not fixed to)
    upgrade_alias: str | None  # that model's id in the same format as text
    upgrade_note: str | None  # what of text's format upgrade_alias could not keep (docs/lifecycle.md#upgrade-alias)
    fixable: bool             # an upgrade_alias of a model that works today, served where text is
    file: str                 # the path to open
    start: int                # offsets into the file's text
    end: int

    def as_dict(self) -> dict:
        """The finding for --format json (offsets and the raw path left out)."""
        d = asdict(self)
        for internal in ("file", "start", "end"):
            d.pop(internal)
        return d


def scan(roots: Iterable[str], lookup, include=(), exclude=(), vendored: bool = False,
         min_confidence: float = DEFAULT_CONFIDENCE, ripgrep: str | None = None) -> tuple[list[Finding], int]:
    """(findings sorted by path, line, col; number of files searched) for the trees under roots.

    ripgrep: its executable, to pick the files worth reading (prefilter.py); it searches while we walk.
    """
    roots = list(roots)
    matcher = Matcher(lookup.aliases())
    search = prefilter.start(ripgrep, roots, matcher.keys, vendored)
    try:
        paths = [path for path, _rel in walk.files(roots, walk.globs(include), walk.globs(exclude), vendored)]
        places, read = parallel.find_all(matcher, paths, search)
    finally:
        if search is not None:
            search.close()
    answers = lookup.resolve_many(sorted({occ.text for _, occ in places}))
    findings = [f for f in (_finding(path, walk.display(path), occ, answers.get(occ.text), min_confidence)
                            for path, occ in places) if f is not None]
    return sorted(findings, key=lambda f: (f.path, f.line, f.col)), read


def _finding(path: str, shown: str, occ: Occurrence, answer: dict | None, min_confidence: float) -> Finding | None:
    if answer is None or answer["confidence"] < min_confidence:
        return None
    model = answer["matched_model"]
    if model["status"] not in RETIRING:
        return None
    shutdown = shutdown_of(answer["lifecycle"], answer.get("platform_lifecycle"))
    upgrade, alias = answer.get("upgrade"), answer.get("upgrade_alias")
    # The upgrade's id written as the caller writes ids (its client route kept); an older server's answer has no
    # `written`, and its alias is put behind the same route here.
    replacement = (alias.get("written") or in_route(occ.text, alias["alias"])) if alias else None
    # Never write an id the caller's platform does not serve (a lost region prefix, hub form or variant), one no
    # platform's own listing names (curated alone), or a preview into code (docs/scan.md#fix); an older server's
    # answer has none of these fields: its alias kept the source, as before.
    held = ([f"no platform's own listing names {alias['alias']}"] if alias and alias.get("listed") is False else []) \
        + ([f"{upgrade['display_name']} is a preview release"] if (upgrade or {}).get("preview") else [])
    served = answer.get("upgrade_alias_kept") is not False and not held
    note = " ".join(filter(None, [answer.get("upgrade_alias_note"), "; ".join(held) + "." if held else None]))
    return Finding(
        path=shown, line=occ.line, col=occ.col, end_col=occ.col + len(occ.text), text=occ.text,
        model=model["slug"], display_name=model["display_name"], status=model["status"],
        confidence=answer["confidence"], shutdown=shutdown, days_left=days_left(shutdown),
        upgrade=upgrade["slug"] if upgrade else None, upgrade_status=upgrade["status"] if upgrade else None,
        upgrade_alias=replacement, upgrade_note=note or None,
        fixable=bool(replacement and served and upgrade and upgrade["status"] in WORKING and replacement != occ.text),
        file=path, start=occ.start, end=occ.end)


def in_route(text: str, alias: str) -> str:
    """alias behind the same client route prefix as text ('bedrock/', 'vertex_ai/'), which resolve strips.

    A gateway id ('anthropic/claude-3-sonnet') has its own slash: its upgrade alias is one already.
    """
    if "/" in text and "/" not in alias:
        return text[:text.rindex("/") + 1] + alias
    return alias


def failing(findings: list[Finding], fail_on: str | None, fail_within: int | None) -> list[Finding]:
    """The findings that make the scan exit 1: --fail-on deprecated (or sunset) and --fail-within DAYS."""
    levels = {"deprecated": RETIRING, "sunset": ("sunset",)}.get(fail_on, ())
    return [f for f in findings if f.status in levels
            or (fail_within is not None and f.days_left is not None and f.days_left <= fail_within)]

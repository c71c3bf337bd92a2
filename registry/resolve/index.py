"""The alias index: match a model identifier string to a known alias (pure, DB-free).

Stages (docs/api-decisions.md#resolve):
  1 exact       q equals a known alias (case-sensitive)                          1.0
  2 normalized  normalize(q) equals normalize(alias); if none, loose_key(...)    0.8
                equal (a pinned q only matches aliases with the same pins; a Vertex-style
                q may also drop a trailing re-release tag: 'claude-3-5-sonnet-v2'); if
                none, the platform form key equal (platform_forms.py: Groq, Ollama,
                Fireworks, Together spellings), aliases pinned as q first
  3 substring   normalize(q) is a substring of a normalized alias or the         0.5
                reverse (substring.py: whole tokens preferred, numbers never cut)
    typo        last resort: q's form key with one word corrected (one edit)     0.5
A bare word (letters only once normalized: 'claude', 'sonnet', 'embedding') matches only an alias
that is that word, else at the substring stage: never an alias normalization reduced to it.
Tie-breaks inside a stage: the alias whose source == guess_source(q) (in stage 2 also an
alias of that source of the same model that matches only loosely); (substring only)
whole tokens, then length closest to q; a model that is not sunset; newest release_date
(None last); slug; then source, position, alias, so the answer is deterministic.

Every stage is a dict lookup, except the substring stage, which scans length-sorted
postings (of q's rarest 4-gram) and looks up q's own spans in a dict.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .normalize import drop_revision, guess_source, loose_key, normalize, pins
from .platform_forms import FormIndex, same_size
from .substring import SubstringIndex

CONFIDENCE = {"exact": 1.0, "normalized": 0.8, "substring": 0.5, "typo": 0.5}


@dataclass(frozen=True, slots=True)   # slots: one index holds a row per alias (200k at 50k models)
class AliasRow:
    alias: str
    source: str
    model_slug: str
    position: int              # 0 = primary alias of that source for the model
    release_date: str | None   # the model's, for tie-breaks
    status: str                # the model's: active / latest / deprecated / sunset
    params: int | None = None  # the model's parameter count, when the registry knows it


@dataclass(frozen=True, slots=True)
class Match:
    row: AliasRow
    stage: str                 # "exact" | "normalized" | "substring"
    confidence: float


@lru_cache(maxsize=65536)
def _date_rank(d: str | None) -> tuple[int, int]:
    """Sort key putting the newest date first and None last ('2025-04' counts as 2025-04-00)."""
    if not d:
        return (1, 0)
    nums = [int(x) for x in re.findall(r"\d+", d)[:3]] + [0, 0, 0]
    return (0, -(nums[0] * 10000 + nums[1] * 100 + nums[2]))


def _static_key(r: AliasRow) -> tuple:
    return (r.status == "sunset", _date_rank(r.release_date), r.model_slug, r.source,
            r.position, r.alias)


class _ExactView:
    """index.exact[q]: the rows whose alias is exactly q, found in the bucket of q's normalized form."""

    def __init__(self, index: "AliasIndex"):
        self._index = index

    def get(self, q: str, default=None):
        return self._index.exact_rows(q) or default

    def __contains__(self, q: str) -> bool:
        return bool(self._index.exact_rows(q))


class AliasIndex:
    """The three stages' lookup structures over a list of AliasRows (one per worker process).

    Memory matters (a 50k-model registry has ~200k aliases): buckets hold the rows themselves
    (tuples: nearly all hold one row), tie-break keys are computed for the few candidates a query
    meets, the exact stage looks in the bucket of q's normalized form (an alias and q normalize
    alike when equal), the loose stage maps to the normalized keys of `norm`, and postings are
    int arrays.
    """

    def __init__(self, rows: Iterable[AliasRow]):
        self.norm: dict[str, tuple[AliasRow, ...]] = {}
        self.loose: dict[str, tuple[str, ...]] = {}    # loose key -> the normalized keys that have it
        self.unnormalized: dict[str, tuple[AliasRow, ...]] = {}   # aliases normalize() empties
        self.size = 0
        for r in rows:
            self.size += 1
            n = normalize(r.alias)
            if not n:
                self.unnormalized[r.alias] = self.unnormalized.get(r.alias, ()) + (r,)
                continue
            if n == r.alias:   # already normal: keep one string, not two equal ones
                n = r.alias
            bucket = self.norm.get(n)
            if bucket is None:
                lk = loose_key(n)
                if lk:
                    lk = n if lk == n else lk
                    self.loose[lk] = self.loose.get(lk, ()) + (n,)
            self.norm[n] = (bucket or ()) + (r,)
        self.exact = _ExactView(self)
        self.substring = SubstringIndex(self.norm)
        self.forms = FormIndex(self.substring.keys)

    def exact_rows(self, q: str, n: str | None = None) -> tuple[AliasRow, ...]:
        """The rows whose alias is exactly q (n: normalize(q), when the caller has it)."""
        n = normalize(q) if n is None else n
        if not n:
            return self.unnormalized.get(q, ())
        return tuple(r for r in self.norm.get(n, ()) if r.alias == q)

    def _loose_rows(self, lk: str, want: set) -> list[AliasRow]:
        """Rows whose normalized alias has loose key lk and every pin in want."""
        return [r for n in self.loose.get(lk, ()) if want <= set(pins(n)) for r in self.norm[n]]

    def __len__(self) -> int:
        return self.size

    # -- stages -------------------------------------------------------------------------
    def match(self, q: str) -> Match | None:
        if not q:
            return None
        guess = guess_source(q)
        n = normalize(q)
        entries = self.exact_rows(q, n)
        if entries:
            return Match(_best(entries, guess), "exact", CONFIDENCE["exact"])
        if not n:
            return None
        if n.isalpha():
            # A bare word ('claude', 'grok', 'embedding') names a product, a tier or a kind, not a model:
            # it matches only an alias that is that word (any case, any prefix), else at the substring
            # stage; never an alias that normalization reduced to it ('anthropic.claude-v2:1').
            same = [r for r in self.norm.get(n, ()) if not any(c.isdigit() for c in r.alias)]
            if same:
                return Match(_best(same, guess), "normalized", CONFIDENCE["normalized"])
            row = self.substring.match(n, guess, _static_key, self.forms.names_another)
            return Match(row, "substring", CONFIDENCE["substring"]) if row is not None else None
        lk = loose_key(n)
        want = set(pins(n))
        loose = self._loose_rows(lk, want)
        if not loose and guess == "cloud-b" and drop_revision(lk) != lk:
            loose = self._loose_rows(drop_revision(lk), want)
        entries = self.norm.get(n)
        if entries:
            row = _best(entries, guess)
            # keep the query's format: an alias of the guessed source *of the same model*
            # that matches loosely ('vertex_ai/claude-3-7-sonnet' -> 'claude-3-7-sonnet@...')
            if row.source != guess:
                same = [r for r in loose if r.model_slug == row.model_slug and r.source == guess]
                row = _best(same, guess) if same else row
            return Match(row, "normalized", CONFIDENCE["normalized"])
        if loose:
            return Match(_best(loose, guess), "normalized", CONFIDENCE["normalized"])
        forms = [r for a in self.forms.lookup(n) for r in self.norm[a]]
        if not forms:
            # Ollama's 'deepseek-v3.1:671b': a size on a model named without one, which the
            # registry knows has that many parameters
            aliases, size = self.forms.without_size(n)
            forms = [r for a in aliases for r in self.norm[a] if r.params and same_size(r.params, size)]
        if forms:
            return Match(_best(forms, guess), "normalized", CONFIDENCE["normalized"])
        row = self.substring.match(n, guess, _static_key, self.forms.names_another)
        if row is not None:
            return Match(row, "substring", CONFIDENCE["substring"])
        typo = [r for a in self.forms.typo(n) for r in self.norm[a]]
        return Match(_best(typo, guess), "typo", CONFIDENCE["typo"]) if typo else None


def _best(entries: list[AliasRow], guess: str | None) -> AliasRow:
    return min(entries, key=lambda r: (r.source != guess,) + _static_key(r))

"""The alias index: match a model identifier string to a known alias (pure, DB-free).

Stages (docs/api-decisions.md#resolve):
  1 exact       q equals a known alias (case-sensitive)                          1.0
  2 normalized  normalize(q) equals normalize(alias); if none, loose_key(...)    0.8
                equal (a pinned q only matches aliases with the same pins; a Vertex-style
                q may also drop a trailing re-release tag: 'claude-3-5-sonnet-v2')
  3 substring   normalize(q) is a substring of a normalized alias or the         0.5
                reverse, as whole '-' tokens (at least two, >= MIN_SUBSTRING chars)
                and without cutting a version number ('gpt-5' is not in 'gpt-5-6')
Tie-breaks inside a stage: the alias whose source == guess_source(q) (in stage 2 also an
alias of that source of the same model that matches only loosely); (substring only)
length closest to q; a model that is not sunset; newest release_date (None last); slug;
then source, position, alias, so the answer is deterministic.

Every stage is a dict lookup, except the substring stage, which uses a 4-gram index over
the distinct normalized aliases (postings sorted by length, so the scan can stop at the
closest length) and, for the reverse direction, dict lookups of q's own token spans.
"""
from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .normalize import drop_revision, guess_source, loose_key, normalize, pin_at, pins

CONFIDENCE = {"exact": 1.0, "normalized": 0.8, "substring": 0.5}
MIN_SUBSTRING = 4          # shorter side of a substring match, in normalized characters
GRAM = 4                   # n of the n-gram index; must be <= MIN_SUBSTRING


@dataclass(frozen=True, slots=True)   # slots: one index holds a row per alias (200k at 50k models)
class AliasRow:
    alias: str
    source: str
    model_slug: str
    position: int              # 0 = primary alias of that source for the model
    release_date: str | None   # the model's, for tie-breaks
    status: str                # the model's: active / latest / deprecated / sunset


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
        # substring structure: distinct normalized keys sorted by length, 4-gram postings
        self.keys = sorted(self.norm, key=lambda k: (len(k), k))
        self.max_len = len(self.keys[-1]) if self.keys else 0
        postings: dict[str, array] = {}
        for i, k in enumerate(self.keys):
            for g in {k[j:j + GRAM] for j in range(len(k) - GRAM + 1)}:
                ids = postings.get(g)
                if ids is None:
                    ids = postings[g] = array("i")
                ids.append(i)
        self.postings = postings

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
        row = self._substring(n, guess)
        return Match(row, "substring", CONFIDENCE["substring"]) if row else None

    def _substring(self, n: str, guess: str | None) -> AliasRow | None:
        L = len(n)
        if L < MIN_SUBSTRING:
            return None
        best = None            # (tie-break key, row)
        stop_diff = None       # length difference past which nothing can beat `best`

        def consider(entries: list[AliasRow], diff: int) -> None:
            nonlocal best, stop_diff
            for r in entries:
                same = r.source == guess
                key = (not same, diff) + _static_key(r)
                if best is None or key < best[0]:
                    best = (key, r)
                if same or guess is None:
                    stop_diff = diff if stop_diff is None else min(stop_diff, diff)

        # reverse: a normalized alias inside q, as whole tokens; longest first
        bounds = [0] + [i + 1 for i, c in enumerate(n) if c == "-"]
        ends = [i for i, c in enumerate(n) if c == "-"] + [L]
        top = min(L - 1, self.max_len)
        spans = sorted((b - e, b, e) for b in bounds for e in ends
                       if MIN_SUBSTRING <= e - b <= top)
        for _, b, e in spans:
            diff = L - (e - b)
            if stop_diff is not None and diff > stop_diff:
                break
            entries = self.norm.get(n[b:e])
            if entries and _valid_at(n, n[b:e], b):
                consider(entries, diff)
        # forward: q inside a normalized alias; scan the rarest gram's postings by length
        if "-" not in n:
            return best[1] if best else None
        grams = {n[j:j + GRAM] for j in range(L - GRAM + 1)}
        lists = []
        for g in grams:
            p = self.postings.get(g)
            if p is None:
                return best[1] if best else None
            lists.append(p)
        keys = self.keys
        for i in min(lists, key=len):
            k = keys[i]
            diff = len(k) - L
            if diff <= 0:
                continue
            if stop_diff is not None and diff > stop_diff:
                break
            if n in k and _valid_in(k, n):
                consider(self.norm[k], diff)
        return best[1] if best else None


def _valid_at(longer: str, shorter: str, i: int) -> bool:
    """Is shorter, found in longer at i, a whole-token match that does not cut a version?

    Whole tokens: the match starts and ends at '-' boundaries. It must hold at least two
    tokens (so 'claude' or 'embed' alone match nothing). A version is cut when the match
    ends in a digit and longer goes on with a numeric token ('gpt-5' in 'gpt-5-6-luna',
    'grok-4' in 'grok-4-20'), a snapshot pin excepted ('gpt-5' in 'gpt-5-20250807',
    'gpt-4' in 'gpt-4-0613'); or when
    it starts with a digit right after a numeric token.
    """
    j = i + len(shorter)
    if (i and longer[i - 1] != "-") or (j < len(longer) and longer[j] != "-"):
        return False
    if "-" not in shorter:
        return False
    if j < len(longer) and shorter[-1].isdigit():
        if longer[j + 1:j + 2].isdigit() and not pin_at(longer, j):
            return False
    if i and shorter[0].isdigit() and longer[i - 2:i - 1].isdigit():
        return False
    return True


def _valid_in(longer: str, shorter: str) -> bool:
    i = longer.find(shorter)
    while i != -1:
        if _valid_at(longer, shorter, i):
            return True
        i = longer.find(shorter, i + 1)
    return False


def _best(entries: list[AliasRow], guess: str | None) -> AliasRow:
    return min(entries, key=lambda r: (r.source != guess,) + _static_key(r))

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

from dataclasses import dataclass
from typing import Iterable

from ..normalize import drop_revision, guess_source, loose_key, normalize, pins
from .platform_forms import FormIndex, same_size
from .substring import SubstringIndex
from .table import AliasRow, AliasTable, HashedIds

# "form": normalized too, through another platform's spelling (platform_forms.py: Groq, Ollama, Together, ...).
CONFIDENCE = {"exact": 1.0, "normalized": 0.8, "form": 0.8, "substring": 0.5, "typo": 0.5}
__all__ = ["AliasIndex", "AliasRow", "CONFIDENCE", "Match"]


@dataclass(frozen=True, slots=True)
class Match:
    row: AliasRow
    stage: str                 # "exact" | "normalized" | "form" | "substring" | "typo"
    confidence: float


class _ExactView:
    """index.exact[q]: the rows whose alias is exactly q, found in the bucket of q's normalized form."""

    def __init__(self, index: "AliasIndex"):
        self._index = index

    def get(self, q: str, default=None):
        return self._index.exact_rows(q) or default

    def __contains__(self, q: str) -> bool:
        return bool(self._index.exact_rows(q))


class AliasIndex:
    """The three stages' lookup structures over AliasRows or 7-tuples (one index per worker process).

    Memory matters (a 50k-model registry has ~185k aliases): the rows are columns of an AliasTable
    (table.py: no object per alias), a row is made only for the candidates a query weighs, the exact
    stage looks among the rows of q's normalized form (an alias and q normalize alike when equal), the
    loose stage maps loose keys to normalized forms by hash, and postings are one int array.
    """

    def __init__(self, rows: Iterable):
        table = self.table = AliasTable(rows)
        # loose key -> the normalized forms that have it (checked on use: hashes may collide)
        self.loose = HashedIds((lk, i) for i, n in enumerate(table.keys) if (lk := loose_key(n)))
        self.exact = _ExactView(self)
        self.substring = SubstringIndex(table)
        self.forms = FormIndex(table.keys)

    def exact_rows(self, q: str, n: str | None = None) -> tuple[AliasRow, ...]:
        """The rows whose alias is exactly q (n: normalize(q), when the caller has it)."""
        return tuple(map(self.table.row, self._exact(q, normalize(q) if n is None else n)))

    def _exact(self, q: str, n: str) -> list[int]:
        if not n:
            return list(self.table.unnormalized.get(q, ()))
        i = self.table.find(n)
        return [] if i < 0 else [r for r in self.table.rows_of(i) if self.table.alias(r) == q]

    def _loose_rows(self, lk: str, want: set, unpinned: bool = False) -> list[int]:
        """Rows whose normalized alias has loose key lk and every pin in want; unpinned: only those with no pin,
        where there are such."""
        keys = self.table.keys
        found = [i for i in self.loose.get(lk) if loose_key(keys[i]) == lk and want <= set(pins(keys[i]))]
        if unpinned:
            found = [i for i in found if not pins(keys[i])] or found
        return [r for i in found for r in self.table.rows_of(i)]

    def _rows(self, forms: Iterable[int]) -> list[int]:
        return [r for i in forms for r in self.table.rows_of(i)]

    def __len__(self) -> int:
        return len(self.table)

    # -- stages -------------------------------------------------------------------------
    def match(self, q: str) -> Match | None:
        if not q:
            return None
        found = self._match(q)
        return None if found is None else Match(self.table.row(found[0]), found[1], CONFIDENCE[found[1]])

    def _match(self, q: str) -> tuple[int, str] | None:
        """(the row, its stage) q matches, or None."""
        table = self.table
        guess = guess_source(q)
        n = normalize(q)
        entries = self._exact(q, n)
        if entries:
            return self._best(entries, guess), "exact"
        if not n:
            return None
        i = table.find(n)
        if n.isalpha():
            # A bare word ('claude', 'grok', 'embedding') names a product, a tier or a kind, not a model:
            # it matches only an alias that is that word (any case, any prefix), else at the substring
            # stage; never an alias that normalization reduced to it ('anthropic.claude-v2:1').
            same = [r for r in (table.rows_of(i) if i >= 0 else ())
                    if not any(c.isdigit() for c in table.alias(r))]
            if same:
                return self._best(same, guess), "normalized"
            row = self.substring.match(n, guess, self.forms.names_another)
            return (row, "substring") if row is not None else None
        lk = loose_key(n)
        want = set(pins(n))
        loose = self._loose_rows(lk, want)
        if not loose and guess == "cloud-b" and drop_revision(lk) != lk:
            lk = drop_revision(lk)
            loose = self._loose_rows(lk, want)
        if i >= 0:
            row = self._best(table.rows_of(i), guess)
            # keep the query's format: an alias of the guessed source *of the same model*
            # that matches loosely ('vertex_ai/claude-3-7-sonnet' -> 'claude-3-7-sonnet@...')
            if table.source_of(row) != guess:
                slug = table.slug(row)
                same = [r for r in loose if table.slug(r) == slug and table.source_of(r) == guess]
                row = self._best(same, guess) if same else row
            return row, "normalized"
        if loose:
            # A query with no date pin names the floating id, not one of its snapshots ('gpt4o' is gpt-4o).
            return self._best(loose if want else self._loose_rows(lk, want, unpinned=True), guess), "normalized"
        forms = self._rows(self.forms.lookup(n))
        if not forms:
            # Ollama's 'deepseek-v3.1:671b': a size on a model named without one, which the
            # registry knows has that many parameters
            numbers, size = self.forms.without_size(n)
            forms = [r for r in self._rows(numbers) if table.params(r) and same_size(table.params(r), size)]
        if forms:
            return self._best(forms, guess), "form"
        row = self.substring.match(n, guess, self.forms.names_another)
        if row is not None:
            return row, "substring"
        typo = self._rows(self.forms.typo(n))
        return (self._best(typo, guess), "typo") if typo else None

    def _best(self, rows: Iterable[int], guess: str | None) -> int:
        table = self.table
        return min(rows, key=lambda r: (table.source_of(r) != guess,) + table.static_key(r))

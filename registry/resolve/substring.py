"""Stage 3 of resolve, substring (confidence 0.5): q is a substring of a known alias, or the reverse.

Both sides are compared in normalize() form. Which substrings count (docs/api-decisions.md#resolve):
  - the shorter side has at least MIN_SUBSTRING characters and two '-' tokens (one word, 'claude',
    names no model);
  - a match never cuts a number: no digit right at an edge that falls inside a token ('llama-3-7'
    is not in 'llama-3-70b', 'gpt-4' not in 'gpt-4o'), except the end of a date ('chat-2-2020'
    in 'acme-chat-2-20200301'), and never ends a version whose next token is a number that is not
    a snapshot pin ('gpt-5' is not in 'gpt-5-6', but is in 'gpt-5-20250807'; 'llama3-3' is in
    'llama3-3-70b');
  - the longer side holds no word that makes another model of the shorter one ('distill'), and
    when q is the longer side, no size the alias lacks ('gemini-1.5-flash-8b' is not 1.5 Flash)
    and no word that names another model of the alias's family ('gpt-4-turbo' is not 'gpt-4';
    platform_forms.FormIndex.names_another).
Among the matches: whole-token matches before ones that cut a token (the word-boundary guard is
a preference, not a filter), then the alias of the source q looks like, then the closest length,
then the index's static order (not sunset, newest, slug...).

The forward direction scans the postings of q's rarest 4-gram (keys sorted by length, so the
scan stops at the closest length); the reverse direction looks up q's own spans in a dict.
"""
from __future__ import annotations

import re
from array import array
from typing import Callable

from ..normalize import pin_at
from .platform_forms import derived, is_size

MIN_SUBSTRING = 4          # shorter side of a substring match, in normalized characters
GRAM = 4                   # n of the n-gram index; must be <= MIN_SUBSTRING
_DATE = re.compile(r"20\d{6}")


def occurrence(longer: str, shorter: str, i: int, q_longer: bool = False) -> bool | None:
    """shorter found in longer at i: False for a whole-token match, True for one that cuts a
    token, None when it may not match at all (see the module docstring). q_longer: longer is
    the query, whose extra tokens may then not hold a size ('gemini-1.5-flash-8b')."""
    j = i + len(shorter)
    if "-" not in shorter:
        return None
    start_cut = i > 0 and longer[i - 1] != "-"
    end_cut = j < len(longer) and longer[j] != "-"
    if start_cut and (longer[i - 1].isdigit() or shorter[0].isdigit()):
        return None
    if end_cut and (longer[j].isdigit() or shorter[-1].isdigit()):
        if not (longer[j].isdigit() and shorter[-1].isdigit() and _in_date(longer, j)):
            return None
    if not end_cut and j < len(longer) and shorter[-1].isdigit() and not pin_at(longer, j):
        following = longer[j + 1:].split("-", 1)[0]
        if following.isdigit():          # a version goes on ('gpt-5' in 'gpt-5-6'); a size is fine
            return None
    if not start_cut and i > 1 and shorter[0].isdigit() and longer[i - 2].isdigit():
        return None
    extra = _outside(longer, i, j)
    if derived(extra) or (q_longer and any(is_size(t) for t in extra)):
        return None
    return start_cut or end_cut


def _in_date(s: str, j: int) -> bool:
    """Is position j inside a date token ('20200301')?"""
    start = s.rfind("-", 0, j) + 1
    end = s.find("-", j)
    return _DATE.fullmatch(s, start, len(s) if end == -1 else end) is not None


def _outside(s: str, b: int, e: int) -> list[str]:
    """The tokens of s outside s[b:e]."""
    return [t for t in (s[:b] + "-" + s[e:]).split("-") if t]


def best_occurrence(longer: str, shorter: str) -> bool | None:
    """The best occurrence class of shorter in longer: False (whole tokens), True (cut) or None."""
    found = None
    i = longer.find(shorter)
    while i != -1:
        kind = occurrence(longer, shorter, i)
        if kind is False:
            return False
        if kind:
            found = True
        i = longer.find(shorter, i + 1)
    return found


class SubstringIndex:
    """4-gram postings over the distinct normalized aliases (the table's forms, sorted by length).

    The postings are one int array, each gram's a slice of it (a per-gram array would add its header
    and its growth room to each of ~8k grams)."""

    def __init__(self, table):
        self.table = table
        keys = table.keys
        self.max_len = len(keys[len(keys) - 1]) if len(keys) else 0
        self.heads = {k[:GRAM] for k in keys}
        lists: dict[str, array] = {}
        for i, k in enumerate(keys):
            if k.startswith("~"):
                # A gateway's floating id of a line is found by its own spelling only: the words inside it are
                # the provider's ids of that line too (registry/normalize.py names_a_line).
                continue
            for g in {k[j:j + GRAM] for j in range(len(k) - GRAM + 1)}:
                ids = lists.get(g)
                if ids is None:
                    ids = lists[g] = array("i")
                ids.append(i)
        self.grams: dict[str, tuple[int, int]] = {}   # gram -> (start, end) in postings
        postings = array("i", bytes(4 * sum(map(len, lists.values()))))
        end = 0
        for g in sorted(lists):
            ids = lists.pop(g)    # freed as it is copied: no second copy of every posting at once
            postings[end:end + len(ids)] = ids
            self.grams[g] = (end, end + len(ids))
            end += len(ids)
        self.postings = memoryview(postings)

    def match(self, n: str, guess: str | None, names_another: Callable = lambda alias, extra: False) -> int | None:
        """The best row whose normalized alias contains n or lies inside it; None if there is none.
        names_another(alias, extra tokens): q holds alias and words that name another model."""
        L = len(n)
        if L < MIN_SUBSTRING:
            return None
        table = self.table
        source, names, static_key = table.source, table.source_names, table.static_key
        best = None            # (tie-break key, row)
        stop = [None, None]    # [cut] = length difference past which no match of that kind can win

        def consider(rows, cut: bool, diff: int) -> None:
            nonlocal best
            for r in rows:
                same = names[source[r]] == guess
                key = (cut, not same, diff) + static_key(r)
                if best is None or key < best[0]:
                    best = (key, r)
                if same or guess is None:
                    stop[cut] = diff if stop[cut] is None else min(stop[cut], diff)

        # reverse, whole tokens: a normalized alias inside q; longest first
        bounds = [0] + [i + 1 for i, c in enumerate(n) if c == "-"]
        ends = [i for i, c in enumerate(n) if c == "-"] + [L]
        top = min(L - 1, self.max_len)
        spans = sorted((b - e, b, e) for b in bounds for e in ends if MIN_SUBSTRING <= e - b <= top)
        for _, b, e in spans:
            diff = L - (e - b)
            if stop[False] is not None and diff > stop[False]:
                break
            i = table.find(n[b:e])
            if i >= 0 and occurrence(n, n[b:e], b, True) is False \
                    and not names_another(n[b:e], _outside(n, b, e)):
                consider(table.rows_of(i), False, diff)
        # forward: q inside a normalized alias; scan the rarest gram's postings by length
        if "-" in n:
            self._forward(n, consider, stop)
        # reverse, cutting a token of q: only when no whole-token match was found
        if best is None or best[0][0]:
            heads = self.heads
            for b in range(L - MIN_SUBSTRING + 1):
                if n[b:b + GRAM] not in heads:
                    continue
                for e in range(b + MIN_SUBSTRING, min(L, b + self.max_len) + 1):
                    if e - b < L:
                        i = table.find(n[b:e])
                        if i >= 0 and occurrence(n, n[b:e], b, True) \
                                and not names_another(n[b:e], _outside(n, b, e)):
                            consider(table.rows_of(i), True, L - (e - b))
        return best[1] if best else None

    def _forward(self, n: str, consider: Callable, stop: list) -> None:
        """q inside a normalized alias, in the postings of q's rarest 4-gram (sorted by length, so
        each scan stops at the closest length that can win): whole tokens first, then, if none,
        anywhere."""
        L = len(n)
        table = self.table
        text, offsets = table.keys.text, table.keys.offsets
        grams = self._grams(n)
        pre, suf, mid = n + "-", "-" + n, "-" + n + "-"
        for i in grams:
            k = text[offsets[i]:offsets[i + 1]]
            diff = len(k) - L
            if diff <= 0:
                continue
            if stop[False] is not None and diff > stop[False]:
                break
            if (k.startswith(pre) or k.endswith(suf) or mid in k) and best_occurrence(k, n) is False:
                consider(table.rows_of(i), False, diff)
        if stop[False] is not None:
            return
        for i in grams:
            k = text[offsets[i]:offsets[i + 1]]
            diff = len(k) - L
            if diff <= 0:
                continue
            if stop[True] is not None and diff > stop[True]:
                break
            if n in k:
                kind = best_occurrence(k, n)
                if kind is not None:
                    consider(table.rows_of(i), kind, diff)

    def _grams(self, n: str):
        """The postings of n's rarest 4-gram (empty when one of its grams is in no alias)."""
        spans = []
        for g in {n[j:j + GRAM] for j in range(len(n) - GRAM + 1)}:
            span = self.grams.get(g)
            if span is None:
                return ()
            spans.append(span)
        start, end = min(spans, key=lambda s: s[1] - s[0])
        return self.postings[start:end]

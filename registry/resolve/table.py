"""The alias index's rows as columns: no Python object per alias (pure, standard library only).

A 50k-model registry has ~185k aliases under ~82k distinct normalized forms. Held as one AliasRow
object and one string per alias, and a dict of normalized strings to tuples of rows, they took ~60 MB
of each worker (issue 31). Here every alias is a row number, its text a slice of one string, its
source, position and model entries of int arrays, the model's facts (slug, date, status, parameter
count) held once per model, and the normalized forms one string too, sorted by length (the substring
stage scans them in that order). Rows are grouped by their normalized form, so a form's rows are a
range of row numbers. An AliasRow is made only for the rows a query weighs.
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..normalize import normalize

ID_BITS = 24                       # ids below 16M: rows, models and normalized forms alike
ID_MASK = (1 << ID_BITS) - 1
_HASH_MASK = (1 << 39) - 1         # 39 + 24 bits: one signed 64-bit int an entry
_NO_COUNT = -1 << 63               # a model without a parameter count
_CHUNK = 4096                      # strings joined at a time while building (no list of them all)


@dataclass(frozen=True, slots=True)
class AliasRow:
    """One alias and the facts of its model that resolve weighs (made for the rows a query weighs)."""
    alias: str
    source: str
    model_slug: str
    position: int              # 0 = primary alias of that source for the model
    release_date: str | None   # the model's, for tie-breaks
    status: str                # the model's: active / latest / deprecated / sunset
    params: int | None = None  # the model's parameter count, when the registry knows it
    listed: bool | None = None  # an automated listing names it (read for an upgrade's aliases; None: not read)


class Strings:
    """Many short strings kept as one string and the offsets between them (a str object costs ~50
    bytes on top of its text; a 30-character alias would take three times its size)."""

    class Builder:
        """Strings added one at a time (joined a few thousand at a time: no list of them all)."""

        def __init__(self):
            self.offsets = array("I", [0])
            self.chunks, self.part, self.end = [], [], 0

        def add(self, s: str) -> None:
            self.part.append(s)
            self.end += len(s)
            self.offsets.append(self.end)
            if len(self.part) == _CHUNK:
                self.chunks.append("".join(self.part))
                self.part = []

        def build(self) -> "Strings":
            self.chunks.append("".join(self.part))
            return Strings((), text="".join(self.chunks), offsets=self.offsets)

    def __init__(self, items: Iterable[str], text: str = "", offsets: array | None = None):
        if offsets is None:
            built = Strings.Builder()
            for s in items:
                built.add(s)
            text, offsets = "".join(built.chunks + ["".join(built.part)]), built.offsets
        self.text = text
        self.offsets = offsets

    def __getitem__(self, i: int) -> str:
        return self.text[self.offsets[i]:self.offsets[i + 1]]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __iter__(self) -> Iterator[str]:
        text, offsets = self.text, self.offsets
        return (text[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1))


class HashedIds:
    """string -> ids, as one sorted array of 64-bit ints: 39 bits of the string's hash above the id
    (8 bytes an entry instead of ~100 in a dict of strings). A collision is harmless: callers check
    each candidate against the string itself. A bitmap of the hashes answers most misses without a
    search (the substring stage looks up many spans of a query that are no alias)."""

    BITMAP_BITS = 1 << 21          # 256 KB: ~4% of misses searched at 82k strings

    def __init__(self, pairs: Iterable[tuple[str, int]]):
        packed = array("q")            # no int object per entry while the pairs are made
        bitmap = bytearray(self.BITMAP_BITS >> 3)
        for s, i in pairs:
            h = hash(s) & _HASH_MASK
            packed.append(h << ID_BITS | i)
            bit = h & (self.BITMAP_BITS - 1)
            bitmap[bit >> 3] |= 1 << (bit & 7)
        self.packed = array("q", sorted(packed))
        self.bitmap = bytes(bitmap)

    def __len__(self) -> int:
        return len(self.packed)

    def get(self, s: str) -> list[int]:
        """The ids stored under s's hash (s's own among them, if any)."""
        h = hash(s) & _HASH_MASK
        bit = h & (self.BITMAP_BITS - 1)
        if not self.bitmap[bit >> 3] >> (bit & 7) & 1:
            return []
        packed = self.packed
        i = bisect_left(packed, h << ID_BITS)
        found = []
        while i < len(packed) and packed[i] >> ID_BITS == h:
            found.append(packed[i] & ID_MASK)
            i += 1
        return found


def date_rank(d: str | None) -> tuple[int, int]:
    """Sort key putting the newest date first and None last ('2025-04' counts as 2025-04-00)."""
    if not d:
        return (1, 0)
    nums = [int(x) for x in re.findall(r"\d+", d)[:3]] + [0, 0, 0]
    return (0, -(nums[0] * 10000 + nums[1] * 100 + nums[2]))


def _fields(r) -> tuple:
    """(alias, source, model_slug, position, release_date, status, params) of an AliasRow, or of a row of
    those seven columns (a tuple, an sqlite3.Row)."""
    if isinstance(r, AliasRow):
        return (r.alias, r.source, r.model_slug, r.position, r.release_date, r.status, r.params)
    return tuple(r)


def _copy(s: str | None) -> str | None:
    """A new string equal to s. A value read while building would keep its memory block where the
    build's short-lived objects were, and with it a whole allocator arena (docs/running.md#memory)."""
    return None if s is None else s.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")


class _Names:
    """A few distinct strings (sources, statuses) as small codes into one list."""

    def __init__(self):
        self.code: dict[str | None, int] = {}

    def __call__(self, value: str | None) -> int:
        code = self.code.get(value)
        if code is None:
            code = self.code[value] = len(self.code)
        return code

    def names(self) -> list[str | None]:
        return [_copy(value) for value in self.code]


class _Models:
    """The facts of each model, once: slug, release date, status and parameter count as columns (no
    object per model), and its rank in the tie-break order (not sunset, newest, slug:
    docs/api-decisions.md#resolve). Filled as the rows are read: a model whose rows come one after
    another (the index's query orders them so) is one entry; one seen again later is a second, equal
    entry (the same rank, so the same answers)."""

    def __init__(self):
        self._slugs, self._dates = Strings.Builder(), Strings.Builder()
        self.dated, self.status, self.params = array("B"), array("B"), array("q")
        self._last = None

    def add(self, slug: str, date: str | None, status: int, params: int | None) -> int:
        """The number of the model with these facts (a new one unless the previous row's)."""
        facts = (slug, date, status, params)
        if facts != self._last:
            self._last = facts
            self._slugs.add(slug)
            self._dates.add(date or "")
            self.dated.append(date is not None)          # '' and None are both kept as given
            self.status.append(status)
            self.params.append(_NO_COUNT if params is None else params)
        return len(self.status) - 1

    def finish(self, statuses: list) -> None:
        """Close the columns and rank the models."""
        self.slugs, self.dates = self._slugs.build(), self._dates.build()
        del self._slugs, self._dates, self._last
        self.status_names = statuses
        count = len(self.status)
        ranks = {d: date_rank(d) for d in set(self.dates)}
        # (not sunset, newest) as one small number per model: no tuple per model while sorting
        order_of = sorted({(statuses[self.status[m]] == "sunset", ranks[self.dates[m]]) for m in range(count)})
        code = {key: i for i, key in enumerate(order_of)}
        codes = array("i", (code[(statuses[self.status[m]] == "sunset", ranks[self.dates[m]])] for m in range(count)))
        del ranks, order_of, code
        order = sorted(range(count), key=self.slugs.__getitem__)
        order.sort(key=codes.__getitem__)                 # stable: by slug within one (sunset, date)
        self.rank = array("i", bytes(4 * count))
        rank, last = -1, None
        for m in order:
            key = (codes[m], self.slugs[m])
            if key != last:        # equal keys, equal ranks: the next tie-breaks decide as before
                rank, last = rank + 1, key
            self.rank[m] = rank

    def date(self, m: int) -> str | None:
        return self.dates[m] if self.dated[m] else None

    def param_count(self, m: int) -> int | None:
        value = self.params[m]
        return None if value == _NO_COUNT else value


def _read(rows: Iterable) -> tuple:
    """One pass over the rows: (aliases, their forms' first-seen numbers (-1: normalizes to nothing),
    the forms, sources, source names, models, the models' facts, positions)."""
    form_of: dict[str, int] = {}
    forms, sources, models, positions = array("i"), array("B"), array("i"), array("i")
    source_code, status_code = _Names(), _Names()
    facts = _Models()
    aliases = Strings.Builder()
    for r in rows:
        alias, source, slug, position, date, status, params = _fields(r)
        n = normalize(alias)
        forms.append(form_of.setdefault(n, len(form_of)) if n else -1)
        sources.append(source_code(source))
        models.append(facts.add(slug, date, status_code(status), params))
        positions.append(position)
        aliases.add(alias)
    facts.finish(status_code.names())
    return aliases.build(), forms, form_of, sources, source_code.names(), models, facts, positions


class AliasTable:
    """Every alias as a row number, grouped by normalized form; forms numbered by length."""

    def __init__(self, rows: Iterable):
        given, forms, form_of, sources, self.source_names, models, self.models, positions = _read(rows)
        # the distinct normalized forms by length (the substring stage scans them in that order)
        self.keys = Strings(sorted(form_of, key=lambda k: (len(k), k)))
        number = array("i", bytes(4 * len(form_of)))                       # first-seen number -> sorted one
        for i, k in enumerate(self.keys):
            number[form_of[k]] = i
        del form_of
        # rows grouped by form, in the order given inside a form; the unnormalizable ones last
        last = len(self.keys)
        start = array("I", bytes(4 * (last + 2)))
        for f in forms:
            start[(number[f] if f >= 0 else last) + 1] += 1
        for i in range(1, len(start)):
            start[i] += start[i - 1]
        order = array("i", bytes(4 * len(forms)))
        cursor = array("I", start)
        for row, f in enumerate(forms):
            k = number[f] if f >= 0 else last
            order[cursor[k]] = row
            cursor[k] += 1
        del cursor, number, forms
        self.start = start                 # form i's rows: start[i] .. start[i + 1] - 1
        self.aliases = Strings(given[row] for row in order)
        del given
        self.source = array("B", (sources[row] for row in order))
        self.model = array("i", (models[row] for row in order))
        self.position = array("i", (positions[row] for row in order))
        del order, sources, models, positions
        self.unnormalized: dict[str, tuple[int, ...]] = {}   # aliases normalize() empties -> rows
        for row in range(start[last], start[last + 1]):
            alias = self.aliases[row]
            self.unnormalized[alias] = self.unnormalized.get(alias, ()) + (row,)
        self.lookup = HashedIds((k, i) for i, k in enumerate(self.keys))

    def __len__(self) -> int:
        return len(self.model)

    def find(self, n: str) -> int:
        """The number of normalized form n, or -1."""
        for i in self.lookup.get(n):
            if self.keys[i] == n:
                return i
        return -1

    def rows_of(self, i: int) -> range:
        """The rows of normalized form i."""
        return range(self.start[i], self.start[i + 1])

    def alias(self, row: int) -> str:
        """A row's alias text."""
        return self.aliases[row]

    def source_of(self, row: int) -> str:
        """A row's source."""
        return self.source_names[self.source[row]]

    def slug(self, row: int) -> str:
        """The slug of a row's model."""
        return self.models.slugs[self.model[row]]

    def params(self, row: int) -> int | None:
        """The parameter count of a row's model."""
        return self.models.param_count(self.model[row])

    def static_key(self, row: int) -> tuple:
        """The tie-break order after the source: not sunset, newest, slug (the model's rank), then the
        provider's own id before another platform's (an id no platform's format claims is written as the provider
        writes it), source, position, alias."""
        source = self.source_names[self.source[row]]
        return (self.models.rank[self.model[row]], source != "official", source, self.position[row],
                self.aliases[row])

    def row(self, row: int) -> AliasRow:
        """A row as an AliasRow (made for the answer, not kept)."""
        m = self.model[row]
        models = self.models
        return AliasRow(self.aliases[row], self.source_names[self.source[row]], models.slugs[m],
                        self.position[row], models.date(m), models.status_names[models.status[m]],
                        models.param_count(m))

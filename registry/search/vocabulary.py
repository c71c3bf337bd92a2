"""The words search knows, per data generation: provider names for intent, and model words for typos.

A query whose words find nothing has each unknown word of four or more letters corrected to a known word
one edit away (two for words of eight letters or more): a letter added, dropped, changed, or two swapped,
as resolve's last stage does; numbers are never corrected (docs/api-decisions.md#search). Known words are
the terms of the names, slugs, aliases and family names in the search index (FTS5's own vocabulary),
plus the intent table's words; among equally near ones, the word more models use wins.
"""
import os
import threading
from bisect import bisect_left
from itertools import combinations

from ..db import generation
from ..generations import GenerationCache
from ..documents import WORD_RUN
from .intent import KNOWN

TYPO_MIN = 4        # shortest word corrected
TYPO_MAX = 32       # longest: no model word is longer, and a long word's deletions grow with its square
LONG_WORD = 8       # words this long may be two edits away
_INTENT_WEIGHT = 10**9   # an intent word is always a likely word
# A word in more than COMMON_SHARE of the documents (and at least COMMON_MIN of them) is common: matching it
# reads a long posting list ("0", "v1", "us" of Bedrock ids), so a query holding one is looked up by its
# rarest words and checked whole in the few candidates' document words (candidates.words_match). Words in
# at most RARE_SHARE of the documents are not counted: any of them is rare enough.
COMMON_SHARE, COMMON_MIN = 0.02, 500
RARE_SHARE = 0.002

_lexicons = GenerationCache(max_cost=8)   # db path -> its Lexicon


def deletions(word: str, edits: int) -> set:
    """Every string made by dropping up to `edits` letters of word (the word itself excluded)."""
    out = set()
    for n in range(1, min(edits, len(word) - 1) + 1):
        for gone in combinations(range(len(word)), n):
            out.add("".join(ch for i, ch in enumerate(word) if i not in gone))
    return out


def distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def allowed_edits(word: str) -> int:
    """How many edits a word of this length may be corrected by."""
    return 2 if len(word) >= LONG_WORD else 1


class Words:
    """Known words with how many models use each, and a deletion index to find near ones (SymSpell)."""

    def __init__(self, counts: dict):
        self.counts = counts
        self.sorted = sorted(counts)
        self.near = {}
        for word in counts:
            if TYPO_MIN - 1 <= len(word) <= TYPO_MAX and word.isalpha():
                for key in deletions(word, 2) | {word}:
                    self.near.setdefault(key, []).append(word)

    def known(self, word: str, prefix: bool = False) -> bool:
        """Is word a known word (or, while typing, the start of one)?"""
        if word in self.counts:
            return True
        if not prefix:
            return False
        i = bisect_left(self.sorted, word)
        return i < len(self.sorted) and self.sorted[i].startswith(word)

    def correct(self, word: str) -> str | None:
        """The known word nearest to an unknown one, or None (short words and numbers are never corrected)."""
        if not TYPO_MIN <= len(word) <= TYPO_MAX or not word.isalpha():
            return None
        edits = allowed_edits(word)
        found = {w for key in deletions(word, edits) | {word} for w in self.near.get(key, ())}
        ranked = sorted((distance(word, w), -self.counts[w], w) for w in found)
        return next((w for d, _, w in ranked if 0 < d <= edits), None)


class Lexicon:
    """What search reads from the registry besides the index: providers' words, and (built on first use)
    the known words."""

    def __init__(self, conn):
        self.providers = {}
        for slug, name in conn.execute("SELECT slug, name FROM providers"):
            for text in (slug, name):
                words = tuple(w for w in text.lower().replace(".", " ").replace("-", " ").split() if w)
                if words and all(w.isalnum() for w in words):
                    self.providers.setdefault(words, slug)
                    self.providers.setdefault(("".join(words),), slug)
        # The first word of every family's and provider's name: the words that name a line ("claude", "llama");
        # and every word of those names, which come together in the documents (candidates.words_match).
        self.lines = {w for words in self.providers for w in words[:1]}
        names = {w for words in self.providers for w in words}
        started: dict = {}    # a family name's first word -> {provider: families whose name it starts}
        for name, provider in conn.execute(
                "SELECT DISTINCT f.name, p.slug FROM families f JOIN providers p ON p.id = f.provider_id"):
            runs = WORD_RUN.findall(name.lower())
            self.lines.update(runs[:1])
            names.update(runs)
            if runs:
                counts = started.setdefault(runs[0], {})
                counts[provider] = counts.get(provider, 0) + 1
        self.line_names = frozenset(names)
        # The provider a line word is the name of: the one owning most of the lines it starts ("llama": Meta's,
        # though NVIDIA's Llama Nemotron lines start with it too).
        self.line_owner = {word: max(counts, key=counts.get) for word, counts in started.items()
                           if max(counts.values()) * 2 > sum(counts.values())}
        self.common, self.frequent = frequent_words(conn)
        self._conn_words = None
        self._words_lock = threading.Lock()

    def words(self, conn) -> Words:
        """The known words (FTS5's vocabulary of every column but the squashed one, and the intent words)."""
        if self._conn_words is None:
            with self._words_lock:
                if self._conn_words is None:
                    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms"
                                 " USING fts5vocab(main, 'search_fts', 'col')")
                    counts = {term: n for term, n in conn.execute(
                        "SELECT term, sum(doc) FROM temp.search_terms WHERE col != 'squashed' GROUP BY term")}
                    for word in KNOWN:
                        counts[word] = counts.get(word, 0) + _INTENT_WEIGHT
                    for words in self.providers:
                        for word in words:
                            counts[word] = counts.get(word, 0) + 1
                    self._conn_words = Words(counts)
        return self._conn_words


def frequent_words(conn, least: int = COMMON_MIN, common_share: float = COMMON_SHARE,
                   rare_share: float = RARE_SHARE) -> tuple[frozenset, dict]:
    """(common words, {word that is not rare: the share of documents holding it}) of the index: in more than
    `common_share` of the documents and at least `least` of them; in more than `rare_share` of them."""
    documents = conn.execute("SELECT count(*) FROM search_docs").fetchone()[0]
    if documents < least:
        return frozenset(), {}
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_rows USING fts5vocab(main, 'search_fts', 'row')")
    counts = dict(conn.execute("SELECT term, doc FROM temp.search_rows WHERE doc > ?",
                               (int(documents * rare_share),)).fetchall())
    common = frozenset(t for t, n in counts.items() if n > documents * common_share and n >= least)
    return common, {t: n / documents for t, n in counts.items()}


def lexicon(conn, path: str | None = None, current: int | None = None) -> Lexicon:
    """The lexicon of conn's database at its current data generation (built once per generation).

    path, current: the database's path and the generation the caller already read (else read here).
    """
    # One key per file, whichever way the caller names it (a relative path, or SQLite's own absolute one).
    path = os.path.abspath(conn.execute("PRAGMA database_list").fetchone()[2] if path is None else path)
    current = generation(conn) if current is None else current
    found = _lexicons.get(path, current)
    if found is not None:
        return found
    with _lexicons.building(path):
        found = _lexicons.get(path, current)   # another thread built it while this one waited
        if found is None:
            found = Lexicon(conn)
            _lexicons.put(path, current, found)
        return found

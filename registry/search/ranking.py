"""Search: query escaping, FTS5 ranking and score normalization (docs/api-decisions.md#search).

A query is matched several ways, and each model takes its best score:

1. exact:     q equals (case-insensitively) a slug or an alias           -> 1.0
2. name:      q equals a display name (also without a "Provider: " label) -> 0.95
3. squashed:  q without punctuation, spaces and case equals the squashed
              form of a display name, slug or alias ("gpt4o", "claude haiku 3.5") -> 0.9
4. typing:    q is the start of a display name, slug or alias             -> 0.7 to 0.88,
              or, squashed, the start of a squashed one ("qwen3 coder fla") -> 0.5 to 0.69;
              within each, the more of the shortest such name q already covers (in steps
              of 0.05), the higher. A q ending in "-", "." and the like is still being
              typed: "claude sonnet 4." is the start of "4.5", not the whole "4".
5. words:     every word of q occurs in the names, slug, aliases or family
              (the last word as a prefix), ranked by bm25 with column weights -> 0.1 to 0.45

Ties are broken by status (latest, active, deprecated, sunset), then newest release
date, then slug. User text never reaches FTS5 as query syntax: each word becomes a
quoted phrase of its letter/digit runs (Datasette's escape_fts, one step stricter).
A query matching more than RANK_WINDOW models is ranked among the most recently added
RANK_WINDOW of them (exact and whole squashed names are always looked up in full).
"""
import json
import re
import unicodedata

from .documents import ALIAS_SEPARATOR, squash

DEFAULT_LIMIT = 20
MAX_LIMIT = 100

# bm25 weights, in the column order of search_fts: display_name, slug, aliases, family, squashed.
WEIGHTS = (10.0, 6.0, 3.0, 1.5, 4.0)
EXACT, NAME_EXACT, SQUASHED_EXACT = 1.0, 0.95, 0.9
LITERAL_PREFIX = (0.7, 0.88)     # (floor, score when q covers the whole name)
SQUASHED_PREFIX = (0.5, 0.69)
WORDS = (0.1, 0.45)              # the best words-only match of a query scores 0.45
STEP = 0.05                      # coverage is rounded to this: near-equal ones tie, and ties go
                                 # by status, then release date (bm25 differences are kept: they tell)
MIN_CANDIDATES = 60              # best bm25 rows re-ranked by the tiers above (3 * limit when larger)
RANK_WINDOW = 500                # most matching rows bm25 is computed for (see _candidates)
STATUS_ORDER = {"latest": 0, "active": 1, "deprecated": 2, "sunset": 3}

_WORD_PART = re.compile(r"[^\W_]+")
# A query ending in one of these is still being typed ("claude sonnet 4." wants 4.5, not 4).
_CONTINUED = ("-", ".", "_", "/", ":", "@")


def normalize_query(q: str) -> str:
    """q in NFKC form (full-width letters become ASCII), without surrounding whitespace."""
    return unicodedata.normalize("NFKC", q).strip()


def query_words(q: str) -> list:
    """Each whitespace-separated word of q as its lowercase letter/digit runs; words without any dropped."""
    words = []
    for word in normalize_query(q).split():
        parts = _WORD_PART.findall(word.lower())
        if parts:
            words.append(parts)
    return words


def quote(text: str) -> str:
    """An FTS5 string literal: text in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def words_expression(q: str) -> str | None:
    """The FTS5 query for the words of q: quoted phrases ANDed, the last one a prefix while typing."""
    words = query_words(q)
    if not words:
        return None
    phrases = [quote(" ".join(parts)) for parts in words]
    if not q[-1:].isspace():
        phrases[-1] += "*"
    return " AND ".join(phrases)


def fts_expression(q: str) -> str | None:
    """The candidate query: the words of q, or q squashed as the start of a squashed name."""
    parts = []
    words = words_expression(q)
    if words:
        parts.append(f"({words})")
    squashed = squash(normalize_query(q))
    if squashed:
        parts.append(f"squashed : {quote(squashed)}*")
    return " OR ".join(parts) or None


def _candidates(conn, q: str, squashed: str, limit: int) -> dict:
    """model id -> bm25 (None when found by a whole-name lookup) of every candidate model."""
    found = {}
    expression = fts_expression(q)
    if expression is not None:
        # bm25 costs time per matching row: a query matching more than RANK_WINDOW models (a
        # first keystroke, a bare "3") is ranked among the most recently added RANK_WINDOW of them.
        weights = ", ".join(str(w) for w in WEIGHTS)
        ranked = conn.execute(
            f"SELECT rowid, bm25(search_fts, {weights}) FROM search_fts WHERE search_fts MATCH ?"
            " ORDER BY rowid DESC LIMIT ?", (expression, RANK_WINDOW)).fetchall()
        ranked.sort(key=lambda row: row[1])
        found.update(ranked[:max(MIN_CANDIDATES, 3 * limit)])
    if squashed:
        # Whole squashed names (and so every exact alias) are looked up apart from the ranking,
        # so a broad query's cut-off never drops them.
        for (model_id,) in conn.execute(
                "SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?",
                (f"squashed : {quote(squashed)}", MAX_LIMIT * 2)):
            found.setdefault(model_id, None)
    lowered = normalize_query(q).lower()
    for (model_id,) in conn.execute(
            "SELECT id FROM models WHERE slug = ? UNION SELECT model_id FROM aliases WHERE alias IN (?, ?)",
            (lowered, q.strip(), lowered)):
        found.setdefault(model_id, None)
    return found


_SCORING = """
SELECT d.model_id AS id, d.display_name, d.slug, d.aliases, d.squashed, m.status, m.release_date
FROM search_docs d JOIN models m ON m.id = d.model_id
WHERE d.model_id IN (SELECT value FROM json_each(?))
"""

_DETAILS = """
SELECT m.id, m.slug, m.display_name, m.version, m.status,
       f.slug AS family_slug, f.name AS family_name, p.slug AS provider_slug, p.name AS provider_name
FROM models m JOIN families f ON f.id = m.family_id JOIN providers p ON p.id = f.provider_id
WHERE m.id IN (SELECT value FROM json_each(?))
"""


def words_score(bm25: float | None, best: float) -> float:
    """A words-only match's score in [0.1, 0.45]: its bm25 relative to the query's best bm25."""
    if not bm25 or not best:
        return WORDS[0]
    return WORDS[0] + (WORDS[1] - WORDS[0]) * min(1.0, bm25 / best)


def _band(band: tuple, fraction: float) -> float:
    """A score within band (floor, ceiling), fraction rounded to STEP."""
    return band[0] + (band[1] - band[0]) * round(fraction / STEP) * STEP


def _literal_names(row, aliases: list) -> list:
    """Lowercase display name, slug and aliases, also without a "Label: " or an "org/" path."""
    display = row["display_name"].lower()
    names = [display, display.split(": ", 1)[-1], row["slug"]]
    for alias in aliases:
        alias = alias.lower()
        names += [alias, alias.rsplit("/", 1)[-1]]
    return names


def score(row, text: str, squashed: str, bm25: float | None, best: float) -> float:
    """The score of one candidate model for q (lowercase, spaces collapsed; and squashed), in [0, 1]."""
    aliases = row["aliases"].split(ALIAS_SEPARATOR) if row["aliases"] else []
    if text == row["slug"] or any(text == a.lower() for a in aliases):
        return EXACT
    display = row["display_name"].lower()
    if text == display or text == display.split(": ", 1)[-1]:
        return NAME_EXACT
    squashed_names = row["squashed"].split()
    if squashed and squashed in squashed_names and not text.endswith(_CONTINUED):
        return SQUASHED_EXACT
    completions = [len(n) for n in squashed_names if squashed and n.startswith(squashed)]
    if not completions:
        return words_score(bm25, best)
    # Typed literally (hyphens and dots as in the name) is a stronger hint than squashed.
    literal = [len(n) for n in _literal_names(row, aliases) if n.startswith(text)]
    if literal:
        return _band(LITERAL_PREFIX, len(text) / min(literal))
    return _band(SQUASHED_PREFIX, len(squashed) / min(completions))


def search(conn, q: str, limit: int = DEFAULT_LIMIT) -> list:
    """Models matching q, most relevant first, as the spec's search result objects (at most limit)."""
    limit = max(1, min(int(limit), MAX_LIMIT))
    squashed = squash(normalize_query(q))
    found = _candidates(conn, q, squashed, limit)
    if not found:
        return []
    rows = conn.execute(_SCORING, (json.dumps(list(found)),)).fetchall()
    text = " ".join(normalize_query(q).lower().split())
    best = min((b for b in found.values() if b is not None), default=0.0)
    scored = [(round(score(r, text, squashed, found[r["id"]], best), 4), r) for r in rows]
    # Stable sorts, least significant key first: slug, newest release (none last), status, score.
    scored.sort(key=lambda item: item[1]["slug"])
    scored.sort(key=lambda item: item[1]["release_date"] or "", reverse=True)
    scored.sort(key=lambda item: (-item[0], STATUS_ORDER.get(item[1]["status"], len(STATUS_ORDER))))
    top = scored[:limit]
    details = {r["id"]: r for r in conn.execute(_DETAILS, (json.dumps([r["id"] for _, r in top]),))}
    return [result(details[r["id"]], value) for value, r in top if r["id"] in details]


def result(row, value: float) -> dict:
    """One element of the search response."""
    return {
        "slug": row["slug"], "display_name": row["display_name"], "version": row["version"],
        "status": row["status"],
        "family": {"slug": row["family_slug"], "name": row["family_name"]},
        "provider": {"slug": row["provider_slug"], "name": row["provider_name"]},
        "score": value,
    }

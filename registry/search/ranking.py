"""Search: what a query names or asks for, ranked (docs/api-decisions.md#search).

A query is read first (intent.py): words that ask for a task, open weights, a size, recency, a
capability or a provider become terms; the other words are matched against names. Each model takes its
best score:

1. exact:     q equals (case-insensitively) a slug or an alias           -> 1.0
2. name:      q equals a display name (also without a "Provider: " label) -> 0.95
3. squashed:  q without punctuation, spaces and case equals the squashed
              form of a display name, slug or alias ("gpt4o", "claude haiku 3.5") -> 0.9
4. typing:    q is the start of a display name, slug or alias             -> 0.7 to 0.88,
              or, squashed, the start of a squashed one ("qwen3 coder fla") -> 0.5 to 0.69;
              within each, the more of the shortest such name q already covers (in steps
              of 0.05), the higher. A q ending in "-", "." and the like is still being
              typed: "claude sonnet 4." is the start of "4.5", not the whole "4". A query of one
              intent word ("embedding") asks for a task, not for names that start with it.
   A start (4), or a versionless id without punctuation (3: "gemini pro"), scores 0.15 less for a
   deprecated model and 0.35 less for a sunset one (never below 0.3): among results of similar
   relevance working models come first, so a retired name that q only starts can fall below a
   working model that holds q's words. A name typed exactly (1, 2, or 3 with a version or the
   model's own name) finds a retired model first.
5. words:     every remaining word occurs in the names, slug, aliases or family (the last one
              as a prefix), and the model meets every term (its own data, or the term's word
              in its names)                                                -> 0.18 to 0.45:
              0.45, less 0.12 when the query's first name or provider word does not start the
              model's name, family or provider, 0.06 when a word is only in its aliases or family, 0.03 per status step
              below working (deprecated, sunset), 0.02 when a term is met only by its word, 0.01
              for a special type (embedding, image, ...) no word asked for, 0.025 when a size typed
              as a number ("405b") is not in its names (a model named with the size a person typed
              comes before one whose data only is near it, working before retired still).

Ties go by status (latest, active, deprecated, sunset), then the largest context window when the query
asks for a long one, then the newest release, then slug. A query whose words find nothing has its
unknown words corrected to known ones (vocabulary.py) and is read again; a corrected query never
counts as naming a model exactly. User text never reaches FTS5 as query syntax: each word becomes a
quoted phrase of its letter/digit runs (Datasette's escape_fts, one step stricter).
"""
import re
import unicodedata
from dataclasses import dataclass, replace

from ..fields import STATUS_RANK, WORKING
from . import candidates, intent
from ..documents import ALIAS_SEPARATOR, WORD_RUN, squash
from .vocabulary import Lexicon, lexicon

DEFAULT_LIMIT = 20
MAX_LIMIT = 100

EXACT, NAME_EXACT, SQUASHED_EXACT = 1.0, 0.95, 0.9
LITERAL_PREFIX = (0.7, 0.88)     # (floor, score when q covers the whole name)
SQUASHED_PREFIX = (0.5, 0.69)
CUT_NUMBER = 0.49                # a start of a name whose number the query cuts short ("2" of "2512")
STEP = 0.05                      # coverage is rounded to this: near-equal ones tie, and ties go by status
NAME_FLOOR = 0.3                  # a name match lowered for status may fall below a working words match
# How much a name match's score drops for a model that is not working (a start, or a versionless id typed loosely).
PREFIX_PENALTY = {"deprecated": 0.15, "sunset": 0.35}
# The words match (5): its top score, and what it loses per shortfall (candidates.word_ids computes it in SQL).
WORDS_WEIGHTS = {"top": 0.45, "off_line": 0.12, "not_own": 0.06, "status": 0.03, "word_only": 0.02,
                 "special": 0.01, "size_unnamed": 0.025, "other_owner": 0.01}
STATUS_ORDER = {status: i for i, status in enumerate(STATUS_RANK)}

# A query ending in one of these is still being typed ("claude sonnet 4." wants 4.5, not 4).
_CONTINUED = ("-", ".", "_", "/", ":", "@")


def normalize_query(q: str) -> str:
    """q in NFKC form (full-width letters become ASCII), without surrounding whitespace."""
    return unicodedata.normalize("NFKC", q).strip()


@dataclass
class _Query:
    """One reading of q, with what scoring needs."""

    q: str
    text: str                    # lowercase, spaces collapsed
    squashed: str
    plan: intent.Plan
    words: list                  # the plan's remaining words, as letter/digit runs
    typing: bool                 # the last word is still being typed (matched as a prefix)
    lexicon: Lexicon             # the registry's words it was read with: providers, lines, typos, frequencies
    corrected: bool = False

    @property
    def one_intent_word(self) -> bool:
        return self.plan.intent_only and len(self.q.split()) == 1


def search(conn, q: str, limit: int = DEFAULT_LIMIT, filters: dict | None = None, words: Lexicon | None = None) -> list:
    """Models matching q, most relevant first, as the spec's search result objects (at most limit).

    filters: the API's model_type (a list) and capability filters (docs/api-decisions.md#capabilities);
    words: the database's lexicon at the generation the caller read (else looked up here).
    """
    limit = max(1, min(int(limit), MAX_LIMIT))
    words = words or lexicon(conn)
    query = _read(q, words)
    found = _ranked(conn, query, filters, limit)
    if not found:
        fixed = _corrected(conn, query)
        if fixed is not None:
            query = _read(fixed, words, corrected=True)
            found = _ranked(conn, query, filters, limit)
    cheap = [t for t in query.plan.terms if (t.kind, t.value) == (intent.PRICE, intent.CHEAP)]
    if not found and cheap:
        # Nothing of what was asked has a price ("cheap embedding"): what was asked, in its own order.
        query = replace(query, plan=replace(query.plan, terms=[t for t in query.plan.terms if t not in cheap]))
        found = _ranked(conn, query, filters, limit) if query.plan.terms or query.plan.text else []
    either = intent.either_type(query.plan) if not found else None
    if either is not None:
        # Tasks no one model is ("reranker for rag"): models that are either, each by its data or its word.
        query = replace(query, plan=either, corrected=True)
        found = _ranked(conn, query, filters, limit)
    if not found and query.plan.intent_only and len(query.plan.terms) > 1 and query.plan.of(intent.PROVIDER):
        # A provider with nothing of what else was asked ("coding model from anthropic"): its models, then.
        query.plan.terms = query.plan.of(intent.PROVIDER)
        query.corrected = True
        found = _ranked(conn, query, filters, limit)
    if query.plan.terms and query.plan.text and (not found or _only_retired_by_words(found)):
        # Nothing has both the words and what the query asks for, or only retired models have them
        # ("embeddings for search": code-search-ada-*): read again without what held it back. For the
        # latter, only when no word names a line or a number: a query of what it asks for and stray words.
        # A line's name ("gemma 1 3b flash") or what a query asks for ("ministral 8 405b") is never let go.
        loose = _loosened(query)
        if not found:
            found = _ranked(conn, loose, filters, limit)
        elif loose.plan.terms and not loose.plan.text:
            again = _ranked(conn, loose, filters, limit)
            if again and again[0][1]["status"] in WORKING:
                shown = {row["id"] for _, row in again}
                found = again + [item for item in found if item[1]["id"] not in shown]
    if not filters:
        found = _successor_after_a_named_retiree(conn, found)
    top = found[:limit]
    return [result(row, value) for value, row in top]


def _successor_after_a_named_retiree(conn, found: list) -> list:
    """A shut-down model the query names exactly stays first, and its upgrade comes right after it ("grok4": grok-4,
    then Grok 4.7), at the score of what followed it (issue 45)."""
    if not found or found[0][0] < SQUASHED_EXACT or found[0][1]["status"] != "sunset":
        return found
    upgrade = candidates.upgrade_row(conn, found[0][1]["id"])
    if upgrade is None:
        return found
    rest = [item for item in found[1:] if item[1]["id"] != upgrade["id"]]
    return [found[0], (rest[0][0] if rest else WORDS_WEIGHTS["top"], upgrade), *rest]


def _only_retired_by_words(found: list) -> bool:
    """Did the query find only models that are not working, none of them by a name it typed?"""
    return (found[0][0] <= WORDS_WEIGHTS["top"]
            and not any(row["status"] in WORKING for _, row in found))


def _loosened(query: _Query) -> _Query:
    """The query without what keeps it from a working answer: its words that name no line ("content
    moderation"); when every word names one ("claude for coding"), its terms. An id or a number ("gpt-99
    embedding") is never let go. A loosened query never counts as naming a model exactly."""
    text = list(query.plan.text)
    kept = [w for w in text if not w.isalpha() or w.lower() in query.lexicon.lines]
    plan = intent.Plan(terms=list(query.plan.terms), text=text, last_is_text=query.plan.last_is_text)
    if len(kept) < len(text):
        plan.text = kept
    else:
        plan.terms = []
    return replace(query, plan=plan, words=[WORD_RUN.findall(w.lower()) for w in plan.text], corrected=True)


def _read(q: str, words_known: Lexicon, corrected: bool = False) -> _Query:
    plan = intent.parse(q, words_known.providers)
    words = [WORD_RUN.findall(w.lower()) for w in plan.text]
    return _Query(q=q, text=" ".join(normalize_query(q).lower().split()), squashed=squash(normalize_query(q)),
                  plan=plan, words=[w for w in words if w], typing=not q[-1:].isspace() and plan.last_is_text,
                  lexicon=words_known, corrected=corrected)


def _corrected(conn, query: _Query) -> str | None:
    """q with each unknown word corrected, or dropped when nothing is near it (a word no model carries
    cannot help); None when every word is known."""
    known = query.lexicon.words(conn)
    out, changed = [], False
    raw = normalize_query(query.q).split()
    for i, word in enumerate(raw):
        parts = WORD_RUN.findall(word.lower())
        last = i == len(raw) - 1 and query.typing
        if len(parts) != 1 or not parts[0].isalpha() or known.known(parts[0], prefix=last):
            out.append(word)
            continue
        fixed = known.correct(parts[0])
        if fixed is not None:
            out.append(fixed)
            changed = True
        elif query.plan.terms:
            changed = True      # beside what the query asks for, a word no model carries cannot help
        else:
            out.append(word)
    if not changed or not out or out == raw:
        return None
    return " ".join(out) + ("" if query.typing else " ")


def _ranked(conn, query: _Query, filters: dict | None, limit: int) -> list:
    """(score, row) of the best candidates, best first (enough of them to cut to limit)."""
    terms = query.plan.terms
    wanted = limit + 10              # a few more than the page: both pre-rankings are close to the final one
    named = {}
    for row in candidates.name_rows(conn, query.q, query.text, wanted, terms, filters):
        score = name_score(row, query)
        if score is not None:
            named[row["id"]] = (score, row)
    best = {}
    # A words match scores at most WORDS_WEIGHTS["top"]: when a page of names already scores above it, no words
    # match can reach the page (a name typed in part, "gemini 2.", is most queries), and its SQL is not run.
    above = sum(1 for score, _ in named.values() if round(score, 4) > WORDS_WEIGHTS["top"])
    if (query.words or terms) and above < limit:
        asked_type = bool(query.plan.of(intent.TYPE) or (filters or {}).get("model_type"))
        for row in candidates.word_rows(conn, query.words, query.typing, terms, filters, wanted, WORDS_WEIGHTS,
                                        asked_type, bool(query.plan.of(intent.CONTEXT)), _line_word(query),
                                        query.lexicon):
            best[row["id"]] = (row["score"], row)
    for model_id, (score, row) in named.items():
        if score > best.get(model_id, (0.0,))[0]:
            best[model_id] = (score, row)
    scored = _floating_as_target(_lines_as_one([(round(value, 4), row) for value, row in best.values()]))
    long_context = bool(query.plan.of(intent.CONTEXT))
    # Stable sorts, least significant key first: slug, newest release (none last), context or price, status, score.
    scored.sort(key=lambda item: item[1]["slug"])
    scored.sort(key=lambda item: item[1]["release_date"] or "", reverse=True)
    if long_context:
        scored.sort(key=lambda item: item[1]["input_context_window"] or 0, reverse=True)
    if query.plan.of(intent.PRICE):   # "cheap", "under $1": the cheapest (per 1M input tokens, anywhere) first
        price = candidates.lowest_input_prices(conn, [row["id"] for _, row in scored])
        scored.sort(key=lambda item: price.get(item[1]["id"], float("inf")))
    # General before specialised: of two lines the query matches alike, the one whose name another's extends
    # ("gemini flash": Gemini Flash before Gemini Flash Cyber).
    lines = {row["family_slug"] for _, row in scored}
    variant = {line for line in lines if any(line[:i] in lines for i, ch in enumerate(line) if ch == "-")}
    # A query asking for the cheapest ranks working models by price alone: latest before active is no price.
    order = ({s: (0 if s in WORKING else STATUS_ORDER[s]) for s in STATUS_ORDER} if query.plan.of(intent.PRICE)
             else STATUS_ORDER)
    scored.sort(key=lambda item: (-item[0], order.get(item[1]["status"], len(order)),
                                  item[1]["family_slug"] in variant))
    return scored


def _lines_as_one(scored: list) -> list:
    """Among the working models whose names q starts (match 4), one line ranks as one: each takes the best such
    score of its family, so status and the newest release order them ("claude sonnet": Claude Sonnet 5.5, the
    line's latest, before Claude Sonnet 5, whose shorter name q covers more)."""
    def typing(score, row):
        return SQUASHED_PREFIX[0] <= score <= LITERAL_PREFIX[1] and row["status"] in WORKING
    best = {}
    for score, row in scored:
        if typing(score, row):
            best[row["family_slug"]] = max(best.get(row["family_slug"], 0.0), score)
    return [(best[row["family_slug"]] if typing(score, row) else score, row) for score, row in scored]


def _floating_as_target(scored: list) -> list:
    """A floating id answers its target (issue 45: "gemini pro" is Gemini Pro Latest, which is Gemini 3.1 Pro
    Preview): the target, when among the candidates, takes the floating id's score and the floating id follows it;
    a floating id named exactly ("gpt-4o") stays first, its target right after it."""
    # Only a name's match can be a floating id standing for its target: a words match names no model (and scores
    # at most WORDS_WEIGHTS["top"]); names' rows say what a floating id points at (candidates.rows).
    targets = {row["id"]: row["points_to"] for score, row in scored
               if score > WORDS_WEIGHTS["top"] and row["points_to"] is not None}
    if not targets:
        return scored
    by_slug = {row["slug"]: i for i, (_, row) in enumerate(scored)}
    scored = list(scored)
    for i, (score, row) in enumerate(scored):
        at = by_slug.get(targets.get(row["id"]))
        if at is None or scored[at][0] >= score:
            continue
        below = round(score - 0.0001, 4)
        if score >= SQUASHED_EXACT:
            scored[at] = (below, scored[at][1])
        else:
            scored[at], scored[i] = (score, scored[at][1]), (below, row)
    return scored


def _line_word(query: _Query) -> str | None:
    """The word that names the line a query is about: its first word left for names or naming a provider
    ("qwen vl": qwen, whose models' names start with it), or None."""
    providers = {t.said.lower() for t in query.plan.of(intent.PROVIDER)}
    for word in normalize_query(query.q).lower().split():
        runs = WORD_RUN.findall(word)
        if runs and (word in providers or any(runs == w for w in query.words)):
            return runs[0]
    return None


def _literal_names(row, aliases: list) -> list:
    """Lowercase display name, slug and aliases, also without a "Label: " or an "org/" path."""
    display = row["display_name"].lower()
    names = [display, display.split(": ", 1)[-1], row["slug"]]
    for alias in aliases:
        alias = alias.lower()
        names += [alias, alias.rsplit("/", 1)[-1]]
    return names


def _band(band: tuple, fraction: float) -> float:
    """A score within band (floor, ceiling), fraction rounded to STEP."""
    return band[0] + (band[1] - band[0]) * round(fraction / STEP) * STEP


def _lowered(value: float, status: str, penalty: dict) -> float:
    """A name match's score lowered for a model that is not working, never below NAME_FLOOR."""
    return max(NAME_FLOOR, value - penalty[status]) if status in penalty else value


def name_score(row, query: _Query) -> float | None:
    """The score of a model whose names q is, or starts (matches 1 to 4 of this module's docstring), or None."""
    text, squashed = query.text, query.squashed
    aliases = row["aliases"].split(ALIAS_SEPARATOR) if row["aliases"] else []
    status = row["status"]
    display = row["display_name"].lower()
    squashed_names = row["squashed"].split()
    if not query.corrected:
        if text == row["slug"] or any(text == a.lower() for a in aliases):
            return EXACT
        if text == display or text == display.split(": ", 1)[-1]:
            return NAME_EXACT
    # A loose match (a squashed name, a start) must not contradict a term: "qwen 27b" is not qwen2-7b.
    if query.one_intent_word or not _meets_terms(row, query):
        return None
    if squashed and squashed in squashed_names and not text.endswith(_CONTINUED):
        if query.corrected:    # a guess: a whole name it finds counts as a start that covers the name
            return _lowered(LITERAL_PREFIX[1], status, PREFIX_PENALTY)
        if any(ch.isdigit() for ch in squashed) or \
                squashed in (squash(display), squash(display.split(": ", 1)[-1]), squash(row["slug"])):
            return SQUASHED_EXACT      # the model's own name or a versioned id of it, typed loosely
        # An id without a version ("gemini pro" for gemini-pro, Gemini 1.0 Pro's floating id) names a line
        # as much as that model: a working model of the line may come first.
        return _lowered(SQUASHED_EXACT, status, PREFIX_PENALTY)
    completions = [n for n in squashed_names if squashed and n.startswith(squashed)]
    if not completions:
        return None
    # Typed literally (hyphens and dots as in the name) is a stronger hint than squashed.
    literal = [n for n in _literal_names(row, aliases) if n.startswith(text)]
    band, typed, names = (LITERAL_PREFIX, text, literal) if literal else (SQUASHED_PREFIX, squashed, completions)
    if _cuts_a_number(text, _literal_names(row, aliases)):
        # "mistral large 2" is Mistral Large 2.1 (its 2 whole) before mistral-large-2512 (2 of 2512): a number cut
        # short scores just below every other start of a name, and takes no share of its line's (_lines_as_one).
        return _lowered(CUT_NUMBER, status, PREFIX_PENALTY)
    return _lowered(_band(band, len(typed) / min(map(len, names))), status, PREFIX_PENALTY)


_SEPARATORS = re.compile(r"[^a-z0-9]+")


def _cuts_a_number(text: str, names: list) -> bool:
    """Does the query end in a number that every name it starts (separators read alike: "mistral large 2" starts
    mistral-large-2512) continues with another digit? A squashed query ("grok4") starts no name so: never cut."""
    typed = _SEPARATORS.sub(" ", text).strip()
    if not typed[-1:].isdigit():
        return False
    started = [n for n in (_SEPARATORS.sub(" ", name).strip() for name in names) if n.startswith(typed)]
    return bool(started) and all(len(n) > len(typed) and n[len(typed)].isdigit() for n in started)


def _holds(runs: list, word: list, prefix: bool) -> bool:
    """Do the letter/digit runs hold word's runs in order (the last one as a prefix when typing)?"""
    n = len(word)
    for i in range(len(runs) - n + 1):
        if runs[i:i + n - 1] == word[:-1] and (runs[i + n - 1].startswith(word[-1]) if prefix
                                               else runs[i + n - 1] == word[-1]):
            return True
    return False


def _named_by(row, names: tuple) -> bool:
    """Do the model's names (display name, slug, aliases, family) hold a term's word?"""
    words, prefix = names
    text = " ".join((row["display_name"], row["slug"], row["aliases"], row["family_name"])).lower()
    if words[0] not in text:
        return False
    return _holds(WORD_RUN.findall(text), list(words), prefix)


def _meets_terms(row, query: _Query) -> bool | None:
    """Does the model meet every term of q? True by its own data, "word" when a term is met only by its word
    in the model's names, None when a term is not met."""
    met = True
    for i, term in enumerate(query.plan.terms):
        if row[f"t{i}"]:
            continue
        if term.names is None or not _named_by(row, term.names):
            return None
        met = "word"
    return met


def result(row, value: float) -> dict:
    """One element of the search response."""
    return {
        "slug": row["slug"], "display_name": row["display_name"], "version": row["version"],
        "status": row["status"],
        "family": {"slug": row["family_slug"], "name": row["family_name"]},
        "provider": {"slug": row["provider_slug"], "name": row["provider_name"]},
        "score": value,
    }


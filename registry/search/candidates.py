"""The SQL of search: which models may answer a query, ranked far enough to cut (docs/api-decisions.md#search).

Two kinds of candidates:
- names: models whose squashed names start with the query squashed (the newest WINDOW of them), and
  exact slugs, aliases and whole squashed names (always); the only ones that can name the query;
- words: models holding the query's remaining words (the newest WINDOW), or, for a query that is all
  intent, the models an intent term points at (a type, a provider, a size, a capability, ...) and those
  whose names hold its word. Each must meet every term: by its own data (a SQL condition) or by the
  term's word in its names (an FTS5 match).
Both are ranked in SQL first, on the models table alone, and cut to a few times the page; ranking.py
scores what is left.
"""
import json

from .. import fields
from ..fields import RETIRING, sql_rank
from ..queries import packed, prices
from ..queries.capabilities import capability_condition, filter_conditions
from ..queries.model_list import from_ids
from ..queries.where import Where
from . import intent
from ..documents import HOLDS, squash, words_needle

WINDOW = 200                     # most rows a broad query's words or squashed start are ranked among
EXACT_LOOKUP = 200               # whole squashed names looked up apart from the window
# Runs a query must leave to the check before it is looked up by its rarest ones: one more posting list read
# costs less than checking the candidates its rarer words alone find (words_match).
DROPPED_MIN = 2
ANCHORS = 3                      # rarest runs such a query is asked of the index by (each more: one more posting list)
CHECKED_SHARE = 0.005            # most documents (a share, estimated) the runs asked may leave to check whole
TERM_WINDOW = 200                # newest models an intent term reads, by its data and by its word, when no word is left
STATUS_STEP = sql_rank("m.status", RETIRING, default=0, first=1)     # steps below working: 0, 1, 2
STATUS_RANK = sql_rank("m.status", fields.STATUS_RANK, default=len(fields.STATUS_RANK))   # best first
# Not `NOT IN (...)`: a list of three or more values is written into a temporary b-tree per statement
# (queries/model_list.py's from_ids says what that costs).
SPECIAL = ("(m.model_type IS NOT NULL AND m.model_type <> 'chat' AND m.model_type <> 'code'"
           " AND m.model_type <> 'unknown')")

# What a result shows and is ordered by.
RESULT = {"id": "m.id", "slug": "m.slug", "display_name": "m.display_name", "version": "m.version",
          "status": "m.status", "release_date": "m.release_date", "input_context_window": "m.input_context_window",
          "family_slug": "f.slug", "family_name": "f.name", "provider_slug": "p.slug", "provider_name": "p.name"}
# What a model's row adds for the name score: its search document's aliases and squashed names; and, read in the
# same statement (each one more hands the GIL to another thread and waits for it back), the model a floating id
# points at (docs/lifecycle.md#floating-ids).
_NAMES = {"aliases": "d.aliases", "squashed": "d.squashed", "points_to": "json_extract(m.metadata, '$.points_to')"}
_DOCUMENTS_JOIN = " JOIN search_docs d ON d.model_id = m.id"    # a model's search document, as d


def quote(text: str) -> str:
    """An FTS5 string literal: text in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def phrase(words, prefix: bool = False) -> str:
    """An FTS5 phrase of words (a prefix query of the last one when prefix)."""
    return quote(" ".join(words)) + ("*" if prefix else "")


def term_condition(term: intent.Term) -> tuple[str, list] | None:
    """The SQL condition a model's own data meets when it is what the term asks for (None: no condition)."""
    kind, value = term.kind, term.value
    if kind == intent.TYPE:
        return f"m.model_type IN ({', '.join('?' * len(value))})", list(value)
    if kind == intent.OPEN:
        return "f.is_open_source = ?", [int(value)]
    if kind == intent.PROVIDER:
        return "p.slug = ?", [value]
    if kind == intent.SIZE:
        low, high = value
        return "m.parameter_count BETWEEN ? AND ?", [int(low or 0), int(high or 10**15)]
    if kind == intent.CAPABILITY:
        return capability_condition(value[0], "true" if value[1] else "false")
    if kind == intent.CONTEXT:
        return "m.input_context_window >= ?", [value]
    if kind == intent.STATUS:
        return f"m.status IN ({', '.join('?' * len(value))})", list(value)
    if kind == intent.PLATFORM:
        return "m.id IN (SELECT model_id FROM aliases WHERE source = ?)", [value]
    if kind == intent.PRICE:   # priced somewhere; at most the amount said (per 1M input tokens, the lowest)
        price = prices.lowest_sql("input_per_mtok")
        return (f"{price} IS NOT NULL", []) if value == intent.CHEAP else (f"{price} <= ?", [value])
    return None


def name_rows(conn, q: str, lowered: str, wanted: int, terms: list, filters: dict | None) -> list:
    """The rows (as rows() gives them) of the models that may name q, passing the API's filters: those whose
    squashed names start with q squashed (the `wanted` likeliest of the newest WINDOW, by how much of their
    shortest name q covers and their status), and those q names whole (exact slugs, aliases and squashed
    names, looked up apart so a broad query's cut-off never drops them). One statement: each one more
    releases the GIL to the server's other threads and waits to take it back."""
    parts = ["SELECT id FROM models WHERE slug = ?", "SELECT model_id FROM aliases WHERE alias = ?"]
    args = [lowered, lowered]
    if q.strip() != lowered:
        parts.append("SELECT model_id FROM aliases WHERE alias = ?")
        args.append(q.strip())
    squashed = squash(q)
    if squashed:
        parts += ["SELECT * FROM (SELECT m.id FROM (SELECT rowid AS id FROM search_names WHERE search_names MATCH ?"
                  " ORDER BY rowid DESC LIMIT ?) AS s CROSS JOIN models m ON m.id = s.id ORDER BY min(1.0, ? * 1.0"
                  " / min(length(m.slug), length(m.display_name))) - 0.1 * " + STATUS_STEP
                  + " DESC, m.release_date DESC, m.id LIMIT ?)",     # ties: the older id, as ever
                  "SELECT * FROM (SELECT rowid FROM search_names WHERE search_names MATCH ? LIMIT ?)"]
        args += [f"{quote(squashed)}*", WINDOW, len(q.strip()), wanted, quote(squashed), EXACT_LOOKUP]
    # A model two parts find (its slug and its start, say) is read once: grouped by a sorter of a few ids, where
    # UNION would write them into a temporary b-tree (model_list.from_ids says what that costs).
    return rows(conn, "SELECT id FROM (" + " UNION ALL ".join(parts) + ") GROUP BY id", args, terms, filters)


# The index each kind of term reads its models' ids from (m.id), newest first, when a query has no words left.
_TERM_DRIVERS = {
    intent.TYPE: "FROM models m WHERE m.model_type IN ({marks}) ORDER BY m.release_date DESC LIMIT ?",
    # "+": read the provider's families' models (models_family_release) and sort them, rather than walk every
    # model newest first (models_release) looking for them.
    intent.PROVIDER: "FROM models m WHERE m.family_id IN (SELECT f.id FROM families f JOIN providers p"
                     " ON p.id = f.provider_id WHERE p.slug = ?) ORDER BY +m.release_date DESC LIMIT ?",
    intent.SIZE: "FROM models m WHERE m.parameter_count BETWEEN ? AND ? ORDER BY m.release_date DESC"
                 " LIMIT ?",
    intent.CAPABILITY: "FROM models m WHERE m.id IN (SELECT model_id FROM model_capabilities"
                       " WHERE capability = ? AND value = ?) ORDER BY m.release_date DESC LIMIT ?",
    intent.STATUS: "FROM models m WHERE m.status IN ({marks}) ORDER BY m.release_date DESC LIMIT ?",
    intent.OPEN: "FROM models m WHERE m.family_id IN (SELECT id FROM families WHERE is_open_source = ?)"
                 " ORDER BY +m.release_date DESC LIMIT ?",
    intent.CONTEXT: "FROM models m WHERE m.input_context_window >= ? ORDER BY m.release_date DESC LIMIT ?",
    intent.PLATFORM: "FROM models m WHERE m.id IN (SELECT model_id FROM aliases WHERE source = ?)"
                     " ORDER BY m.release_date DESC LIMIT ?",
}
# Which term leads when several could: the narrower kinds first.
_DRIVER_ORDER = (intent.CAPABILITY, intent.TYPE, intent.PROVIDER, intent.SIZE, intent.CONTEXT, intent.PLATFORM,
                 intent.OPEN, intent.STATUS)


def term_ids(conn, terms: list) -> list:
    """Models one of the terms points at, each once, for a query with no words left (the newest TERM_WINDOW): the
    term of the narrowest kind, by its word in names and, unless those already fill the window, by its data;
    with no such term, the newest models."""
    leading = sorted((t for t in terms if t.kind in _TERM_DRIVERS), key=lambda t: _DRIVER_ORDER.index(t.kind))
    if not leading:
        return packed.values(conn, "id", "FROM models ORDER BY release_date DESC LIMIT ?", (TERM_WINDOW,))
    term = leading[0]
    found = []
    if term.names:
        found = packed.values(conn, "rowid", "FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
                              (phrase(*term.names), TERM_WINDOW))
    if len(found) < TERM_WINDOW:
        _, args = term_condition(term)
        rest = _TERM_DRIVERS[term.kind].replace("{marks}", ", ".join("?" * len(args)))
        found += packed.values(conn, "m.id", rest, (*args, TERM_WINDOW))
    return list(dict.fromkeys(found))     # a model both by its word and by its data: word_rows reads each id once


def words_match(words: list, typing: bool, lexicon=None) -> tuple[str, list]:
    """(FTS5 expression, needles of documents' words) that together find the models holding every word
    (a phrase of its letter/digit runs; the last one a prefix while typing).

    A common run ("0", "v1", "us" of "us.qwen.qwen-vl-6.0-1b-v1:0", "7b") costs FTS5 its whole posting list,
    and a long phrase its position lists. So a query holding a common run is asked of the index by its ANCHORS
    rarest runs typed whole, and each word is checked in the candidates' document words, which hold a phrase
    exactly when FTS5 finds it (documents.words_needle). That is done when the runs asked leave few
    candidates to check: at most CHECKED_SHARE of the documents, were the runs independent (lexicon: the
    index's common words, the share of documents holding each word that is not rare, and the words of
    families' and providers' names; vocabulary.Lexicon). Otherwise, and for runs outside ASCII, the words are
    matched as they are.
    """
    common = lexicon.common if lexicon else frozenset()
    last = len(words) - 1
    prefixes = [typing and i == last for i in range(len(words))]
    whole = " AND ".join(phrase(parts, prefix) for parts, prefix in zip(words, prefixes, strict=True))
    runs = [run for parts in words for run in parts]
    if not any(run in common for run in runs) or not all(run.isascii() for run in runs):
        return whole, []
    frequent = lexicon.frequent
    typed = list(dict.fromkeys(run for parts, prefix in zip(words, prefixes, strict=True)
                               for run in parts[:len(parts) - prefix]))     # runs typed whole, each once
    anchors = _anchors(typed, frequent, lexicon.line_names)
    share = 1.0
    for run in anchors:
        share *= frequent.get(run, 0.0)
    if sum(map(len, words)) - len(anchors) < DROPPED_MIN or share > CHECKED_SHARE:
        return whole, []
    # A word that is one anchor is what the index found; every other is checked.
    checks = [words_needle(parts, prefix) for parts, prefix in zip(words, prefixes, strict=True)
              if prefix or len(parts) > 1 or parts[0] not in anchors]
    return " AND ".join(phrase([run]) for run in anchors), checks


def _anchors(runs: list, frequent: dict, line_names=frozenset()) -> list:
    """The ANCHORS runs a query is asked of the index by: its rarest word and its rarest number (a line's words
    come together, "stable diffusion", and a size or date lies across them), then the rarest of the rest.
    When one of the first two is a word of a family's or provider's name (line_names), the rest is taken from
    the words of no such name first: a provider's and its families' words come together too ("x ai grok")."""
    ranked = sorted(runs, key=lambda run: frequent.get(run, 0.0))
    lead = [next((r for r in ranked if r.isalpha()), None), next((r for r in ranked if not r.isalpha()), None)]
    lead = [r for r in lead if r is not None]
    rest = [r for r in ranked if r not in lead]
    if any(r in line_names for r in lead):
        rest.sort(key=lambda run: run in line_names)      # stable: each part still rarest first
    return (lead + rest)[:ANCHORS]


def word_rows(conn, words: list, typing: bool, terms: list, filters: dict | None, wanted: int,
              penalties: dict, asked_type: bool, long_context: bool, line: str | None = None,
              lexicon=None) -> list:
    """The rows (RESULT and the words score) of the `wanted` best models that hold every word (the
    last one as a prefix while typing) and meet every term, ranked in SQL by ranking.py's words match score
    (penalties: its weights; lexicon: what words_match reads of the index's words)."""
    if words:
        text, checks = words_match(words, typing, lexicon)
        bound = "" if filters else f" ORDER BY search_fts.rowid DESC LIMIT {WINDOW}"
        held = "".join(" AND " + HOLDS.format(words="w.words") for _ in checks)
        documents = " JOIN search_docs w ON w.model_id = search_fts.rowid" if checks else ""
        ids = f"SELECT search_fts.rowid AS id FROM search_fts{documents} WHERE search_fts MATCH ?{held}{bound}"
        where_args = [text, *checks]
    else:
        ids = "SELECT value AS id FROM json_each(?)"
        where_args = [json.dumps(term_ids(conn, terms))]
    where, met, met_args = [], [], []
    reads_words = False          # a term's word is looked for in the documents' words (joined only then)
    for term in terms:
        condition = term_condition(term)
        if condition is None:
            continue
        if term.names is None:
            where.append(condition[0])
            where_args += condition[1]
            continue
        # Met by the model's data, or by the term's word in its names: among the few holding the words, read
        # in their documents' words (not by matching the index again); else in the window term_ids read.
        if words:
            where.append(f"({condition[0]} OR {HOLDS.format(words='d.words')})")
            reads_words = True
            where_args += condition[1] + [words_needle(*term.names)]
        else:
            where.append(f"({condition[0]} OR m.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?"
                         f" ORDER BY rowid DESC LIMIT {TERM_WINDOW}))")
            where_args += condition[1] + [phrase(*term.names)]
        met.append(f"coalesce({condition[0]}, 0)")
        met_args += condition[1]
    # A size typed as a number ("llama 405b") is in the names of the model it means, not only in its data.
    sizes = [words_needle(*t.names) for t in terms if t.kind == intent.SIZE and t.names
             and intent.SIZE_WORD.match(t.said)]
    reads_words = reads_words or bool(sizes)
    filtered = filter_conditions(filters)
    owner = lexicon.line_owner.get(line) if lexicon is not None and line else None
    score, score_args = _words_score(words, met, met_args, penalties, asked_type, line, sizes, owner)
    order = "score DESC, " + STATUS_RANK + (", m.input_context_window DESC" if long_context else "")
    documents = _DOCUMENTS_JOIN if reads_words else ""
    sql = (packed.select({**RESULT, "score": score}) + from_ids(ids) + documents
           + Where(where + filtered.conditions).sql() + f" ORDER BY {order}, m.release_date DESC, m.slug LIMIT ?")
    return conn.execute(sql, (*score_args, *where_args, *filtered.args, wanted)).fetchall()


def _words_score(words: list, met: list, met_args: list, penalties: dict, asked_type: bool,
                 line: str | None, sizes: list, owner: str | None = None) -> tuple[str, list]:
    """The words match score as a SQL expression (ranking.py's docstring says it in words); line: the word that
    should start the model's name, family or provider (the query's first name or provider word); sizes: the
    needles of the sizes the query typed, which the model's names should hold; owner: the provider whose lines
    the line word names."""
    parts, args = [f"{penalties['top']}", f"- {penalties['status']} * {STATUS_STEP}"], []
    if met:
        parts.append(f"- {penalties['word_only']} * (NOT ({' AND '.join(met)}))")
        args += met_args
    if not asked_type:
        parts.append(f"- {penalties['special']} * {SPECIAL}")
    if line:
        parts.append(f"- {penalties['off_line']} * (NOT (m.display_name LIKE ? OR m.display_name LIKE ?"
                     " OR f.name LIKE ? OR p.slug LIKE ? OR p.name LIKE ?))")
        args += [f"{line}%", f"%: {line}%", f"{line}%", f"{line}%", f"{line}%"]
    if owner:
        parts.append(f"- {penalties['other_owner']} * (p.slug <> ?)")
        args.append(owner)
    if words:
        owned = " AND ".join("(m.display_name || ' ' || m.slug) LIKE ?" for _ in words)
        parts.append(f"- {penalties['not_own']} * (NOT ({owned}))")
        args += ["%" + "%".join(parts_) + "%" for parts_ in words]
    if sizes:
        held = " AND ".join(HOLDS.format(words="d.words") for _ in sizes)
        parts.append(f"- {penalties['size_unnamed']} * (NOT ({held}))")
        args += sizes
    return " ".join(parts), args


def rows(conn, ids: str, ids_args: list, terms: list, filters: dict | None = None) -> list:
    """The full rows of the models the query `ids` selects (with their search documents' aliases and squashed
    names) that pass the API's filters, with t0, t1, ...: whether the model's own data meets each term's
    condition (1 for a term with no condition)."""
    columns, args = {**RESULT, **_NAMES}, []
    for i, term in enumerate(terms):
        condition = term_condition(term)
        if condition is None:
            columns[f"t{i}"] = "1"
        else:
            columns[f"t{i}"] = f"coalesce({condition[0]}, 0)"
            args += condition[1]
    filtered = filter_conditions(filters)
    rest = from_ids(ids) + _DOCUMENTS_JOIN + filtered.sql()
    # A term's condition is a 0 or 1 that binds its words: left out of the checked columns (queries/packed.py).
    return packed.every(conn, packed.Columns(columns, checked=[*RESULT.values(), *_NAMES.values()]), rest,
                        (*args, *ids_args, *filtered.args))


def lowest_input_prices(conn, model_ids) -> dict:
    """model id -> its lowest price per 1M input tokens on any platform, for the priced ones among model_ids."""
    ids = list(model_ids)
    if not ids:
        return {}
    price = prices.lowest_sql("input_per_mtok")
    return {i: p for i, p in conn.execute(f"SELECT m.id, {price} FROM models m WHERE m.id IN"
                                          f" ({', '.join('?' * len(ids))})", ids) if p is not None}


def upgrade_row(conn, model_id: int):
    """The RESULT row of a model's upgrade on its own API (platform_lifecycles), or None."""
    return conn.execute(packed.select(RESULT) + " FROM platform_lifecycles pl JOIN models m ON m.id = pl.upgrade_id"
                        " JOIN families f ON f.id = m.family_id JOIN providers p ON p.id = f.provider_id"
                        " WHERE pl.model_id = ? AND pl.platform = 'official'", (model_id,)).fetchone()

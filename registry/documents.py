"""Keep the FTS5 search documents in step with the models (written in the same transaction)."""
import re
import unicodedata

from .normalize import names_a_line
from .sql import transaction, tuples, upsert_sql

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# Decorations a platform puts around a model name: a "Provider: " label on display names,
# an "org/" path, "us." / "anthropic." dotted prefixes, "@version" and "-v1:0" / ":free" tails.
_LABEL = re.compile(r"^[^:/]{1,40}:\s+")
_DOTTED_PREFIX = re.compile(r"^(?:[a-z]{2,}(?:-[a-z]+)*\.)+(?=[a-z])", re.IGNORECASE)
_AT_TAIL = re.compile(r"@.*$")
# Only a version (Bedrock's ":0") or a word (":free", ":thinking"): an Ollama tag such as ":14b" names another
# model (deepseek-r1:14b is a distill, not DeepSeek-R1), so it stays.
_COLON_TAIL = re.compile(r"(?:-v?\d+)?:(?:\d+|[a-z]+)$", re.IGNORECASE)
ALIAS_SEPARATOR = "\n"
# A word as search reads one: a run of letters and digits (unicode61's tokens; "_" parts words).
WORD_RUN = re.compile(r"[^\W_]+")
COLUMN_BREAK = " | "     # between the columns of a document's words: a phrase never runs from one into the next


def squash(text: str) -> str:
    """Lowercase text with every non-alphanumeric character removed: 'GPT-4o' -> 'gpt4o'."""
    if not text.isascii():   # NFKC leaves ASCII as it is: nearly every name skips it
        text = unicodedata.normalize("NFKC", text)
    return _NON_ALNUM.sub("", text.lower())


def tokens(text: str) -> list:
    """The words FTS5's unicode61 tokenizer reads in text: lowercase letter/digit runs, diacritics removed."""
    if text.isascii():   # nearly every name: no decomposition nor diacritic to take off (NFKD keeps ASCII as is)
        return WORD_RUN.findall(text.lower())
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))
    return WORD_RUN.findall(plain)


def words_text(columns) -> str:
    """The tokens of each column, space-separated and the columns apart, with a space at each end: the text in
    which ` word ` is found as FTS5 finds the word in the document (docs/api-decisions.md#search)."""
    return " " + COLUMN_BREAK.join(" ".join(tokens(column)) for column in columns) + " "


def words_needle(words, prefix: bool) -> str:
    """The text a document's words_text holds (`instr(words, needle) > 0`, HOLDS) when it holds the phrase of
    words (lowercase runs; the last one as a prefix when prefix), as the FTS5 phrase of the same words would."""
    return " " + " ".join(words) + ("" if prefix else " ")


# A document's words hold a needle: a byte search, not LIKE '% needle %', which folds the case of every
# character it compares and so cost about 3 µs per candidate on a 400-byte words text (the words and needles
# are lowercase already; docs/api-decisions.md#search).
HOLDS = "instr({words}, ?) > 0"


def name_variants(name: str) -> list:
    """The name and its forms without platform decorations, longest first."""
    variants = [name]
    bare = _LABEL.sub("", name)
    bare = bare.rsplit("/", 1)[-1]
    bare = _DOTTED_PREFIX.sub("", bare)
    bare = _AT_TAIL.sub("", bare)
    variants.append(bare)
    variants.append(_COLON_TAIL.sub("", bare))
    return variants


def squashed_names(names) -> list:
    """Unique squashed forms of names and their undecorated variants, in first-seen order."""
    out = {}
    for name in names:
        for variant in name_variants(name):
            key = squash(variant)
            if key:
                out[key] = None
    return list(out)


def _document(row, aliases: list) -> tuple:
    # A gateway's floating id of a line is no name of the model it reaches today: "gemini flash" is not
    # Gemini 3 Flash Preview's name because OpenRouter's ~google/gemini-flash-latest reaches it.
    aliases = [a for a in aliases if not names_a_line(a)]
    names = [row["display_name"], row["slug"], *aliases]
    # The family column holds the line's curated description too: what the line is for ("Google's Lyria music
    # generation models") is how a task word finds it (docs/api-decisions.md#search-by-intent).
    family = " ".join(filter(None, (row["family_name"], row["family_description"])))
    columns = (row["display_name"], row["slug"], ALIAS_SEPARATOR.join(aliases), family,
               " ".join(squashed_names(names)))
    return (row["id"], *columns, words_text(columns))


_COLUMNS = ("model_id", "display_name", "slug", "aliases", "family", "squashed", "words")
INDEXES = ("search_fts", "search_names")      # the FTS5 indexes of search_docs (schema.sql), kept by its triggers
# Past this many documents changed at once, and this share of all, the FTS5 indexes are rebuilt from search_docs
# in one pass ('rebuild') instead of kept in step row by row by the triggers: a first ingest of a 50k-repo hub
# writes nearly every document, and one pass is about ten times cheaper than 50k trigger inserts (with their
# prefix indexes). Either way the indexes hold the same documents.
REBUILD_MIN, REBUILD_SHARE = 1000, 0.1


def refresh(conn, model_ids=None) -> None:
    """Rewrite the search documents of the given models (all models when None)."""
    where, params = "", ()
    if model_ids is not None:
        model_ids = list(model_ids)
        if not model_ids:
            return
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS refresh_ids (id INTEGER PRIMARY KEY)")
        conn.execute("DELETE FROM refresh_ids")
        conn.executemany("INSERT OR IGNORE INTO refresh_ids VALUES (?)", [(i,) for i in model_ids])
        where = " WHERE m.id IN (SELECT id FROM refresh_ids)"
    aliases = {}
    for model_id, alias in conn.execute(
            "SELECT a.model_id, a.alias FROM aliases a" + (" WHERE a.model_id IN (SELECT id FROM refresh_ids)"
                                                          if where else "") + " ORDER BY a.source, a.position",
            params):
        aliases.setdefault(model_id, []).append(alias)
    rows = conn.execute(
        "SELECT m.id, m.slug, m.display_name, f.name AS family_name, f.description AS family_description FROM models m"
        " JOIN families f ON f.id = m.family_id" + where, params).fetchall()
    docs = [_document(r, aliases.get(r["id"], [])) for r in rows]
    # An unchanged document is not rewritten, so a re-run leaves the FTS index untouched.
    stored = set(tuples(conn).execute(f"SELECT {', '.join(_COLUMNS)} FROM search_docs"
                                + (" WHERE model_id IN (SELECT id FROM refresh_ids)" if where else "")))
    changed = [doc for doc in docs if doc not in stored]
    if not changed:
        return
    total = conn.execute("SELECT count(*) FROM search_docs").fetchone()[0]
    # An upsert keeps the FTS delete trigger firing for a changed document (db.upsert_sql).
    upsert = upsert_sql("search_docs", _COLUMNS, _COLUMNS[:1], _COLUMNS[1:])
    with transaction(conn):   # the triggers dropped for a rebuild come back, or nothing happened
        if len(changed) > max(REBUILD_MIN, REBUILD_SHARE * total):
            triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
                                    " AND tbl_name = 'search_docs' ORDER BY name").fetchall()
            for name, _ in triggers:
                conn.execute(f'DROP TRIGGER "{name}"')
            conn.executemany(upsert, changed)
            for index in INDEXES:
                conn.execute(f"INSERT INTO {index}({index}) VALUES ('rebuild')")
            for _, sql in triggers:
                conn.execute(sql)
        else:
            conn.executemany(upsert, changed)
        # One b-tree per term instead of one per write: a query reads each term's rows in one place
        # (FTS5 'optimize'; about 1 s at 50k models, only when a document changed).
        for index in INDEXES:
            conn.execute(f"INSERT INTO {index}({index}) VALUES ('optimize')")

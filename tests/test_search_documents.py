"""The search documents' words (documents.words_text) hold a phrase exactly when the FTS5 index finds it there:
search checks a candidate's names for a term's word in them (candidates.word_rows) instead of matching the index
again."""
import sqlite3

import pytest

from helpers import DATA, load_script
from registry.db import connect_ro
from registry.search import ranking
from registry.search.candidates import phrase, words_match
from registry.documents import HOLDS, words_needle, words_text
from registry.search.ranking import search
from registry.search.vocabulary import Lexicon, frequent_words

COLUMNS = ("display_name", "slug", "aliases", "family", "squashed")


def fts_and_words(document: tuple, words: tuple, prefix: bool) -> tuple[bool, bool]:
    """(does the FTS5 phrase match the document, do its words text hold the phrase's needle, as search asks)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"CREATE VIRTUAL TABLE f USING fts5({', '.join(COLUMNS)}, tokenize='unicode61')")
        conn.execute("INSERT INTO f VALUES (?, ?, ?, ?, ?)", document)
        by_fts = conn.execute("SELECT count(*) FROM f WHERE f MATCH ?", (phrase(words, prefix),)).fetchone()[0]
        by_words = conn.execute("SELECT " + HOLDS.format(words="?"),
                                (words_text(document), words_needle(words, prefix))).fetchone()[0]
        return bool(by_fts), bool(by_words)
    finally:
        conn.close()


CODER = ("Qwen: Qwen2.5 Coder 32B Instruct", "qwen2.5-coder-32b-instruct", "qwen/qwen2.5-coder-32b\nQwen2.5-Coder",
         "Qwen2.5 Coder", "qwen25coder32binstruct qwen25coder")
ACCENTED = ("Mistral: Ministral 3B Édition", "ministral-3b", "mistral_ministral-3b", "Ministral", "ministral3b")


@pytest.mark.parametrize("document, words, prefix, held", [
    (CODER, ("coder",), False, True),                  # a word of the display name
    (CODER, ("code",), True, True),                    # a word's start, while typing
    (CODER, ("code",), False, False),                  # not a whole word
    (CODER, ("oder",), True, False),                   # a prefix starts a word, never inside one
    (CODER, ("32b",), False, True),
    (CODER, ("qwen2", "5"), False, True),              # "Qwen2.5": two tokens, one phrase
    (CODER, ("2", "5"), False, False),
    (CODER, ("5", "coder"), False, True),
    (CODER, ("instruct", "qwen"), False, False),       # a phrase never runs from one column into the next
    (CODER, ("32b", "qwen2"), False, True),            # the aliases are one column: from one alias into the next
    (CODER, ("instruct", "qwen"), True, False),
    (CODER, ("qwen25coder",), False, True),            # a squashed name is a word of its own column
    (CODER, ("qwen25",), True, True),
    (ACCENTED, ("edition",), False, True),             # diacritics go, as unicode61 drops them
    (ACCENTED, ("mistral",), False, True),             # "_" parts words
    (ACCENTED, ("3b", "edition"), False, True),
    (ACCENTED, ("ministral", "3b"), False, True),
])
def test_words_hold_a_phrase_exactly_when_the_index_does(document, words, prefix, held):
    assert fts_and_words(document, words, prefix) == (held, held)



@pytest.fixture(scope="module")
def truth_db(tmp_path_factory):
    """The registry of tests/data/models_truth.jsonl (224 models): enough documents for some words to be rare."""
    path = tmp_path_factory.mktemp("truth") / "registry.db"
    load_script("truth_registry").build_truth_registry(path, truth_path=DATA / "models_truth.jsonl")
    return path


# A phrase holding common runs ("0", "v1", "3") is looked up by its rare runs and checked whole in the candidates'
# document words (candidates.words_match): it must find what the whole phrase finds, in the same order.
@pytest.mark.parametrize("q", [
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "meta.llama3-1-8b-instruct-v1:0",
    "us.meta.llama3-2-90b-instruct-v1:0",
    "llama-3.3-70b-instru",                          # typing: the last run a prefix
    "llama-3.3-8b-instru",                           # no such model: nothing either way
    "meta llama 3 8b instruct v1 0 ",                # words of one run each: the common ones checked, not asked
    "gpt 4o mini 2024 07 18",
])
def test_a_phrase_looked_up_by_its_rare_runs_finds_what_the_whole_phrase_finds(truth_db, q):
    conn = connect_ro(str(truth_db))
    try:
        plain = Lexicon(conn)
        plain.common, plain.frequent = frozenset(), {}
        split = Lexicon(conn)
        # shares for a registry of a few hundred models (the defaults are for tens of thousands)
        split.common, split.frequent = frequent_words(conn, least=1, common_share=0.1, rare_share=0.02)
        query = ranking._read(q, split)
        assert words_match(query.words, query.typing, split)[1], "the phrase was not split"
        assert search(conn, q, words=split) == search(conn, q, words=plain)
    finally:
        conn.close()


# A query is asked of the index by its rarest word and its rarest number first: a line's words come together
# ("stable diffusion"), so three of them would leave as many candidates as one.
@pytest.mark.parametrize("runs, shares, anchors", [
    (["stabilityai", "stable", "diffusion", "8", "70b", "max"],
     {"stabilityai": 0.04, "stable": 0.02, "diffusion": 0.02, "8": 0.16, "70b": 0.04, "max": 0.07},
     ["stable", "70b", "diffusion"]),
    (["us", "tulu", "4", "1", "7b"], {"us": 0.3, "4": 0.15, "1": 0.2, "7b": 0.04}, ["tulu", "7b", "4"]),
    (["gpt", "oss"], {"gpt": 0.1, "oss": 0.01}, ["oss", "gpt"]),          # no number
    (["3", "5"], {"3": 0.2, "5": 0.1}, ["5", "3"]),                      # no word
    # a provider's and its family's words come together: the third is a word of no such name
    (["x", "ai", "grok", "5", "4", "flash", "search"],
     {"x": 0.04, "ai": 0.14, "grok": 0.04, "5": 0.16, "4": 0.16, "flash": 0.07, "search": 0.067},
     ["x", "5", "search"]),
    (["x", "ai", "grok", "4"], {"x": 0.04, "ai": 0.14, "grok": 0.04, "4": 0.16}, ["x", "4", "grok"]),   # none left
])
def test_a_query_is_asked_by_its_rarest_word_and_number(runs, shares, anchors):
    from registry.search.candidates import _anchors
    assert _anchors(runs, shares, frozenset({"x", "ai", "xai", "grok"})) == anchors


@pytest.mark.parametrize("minimum, rebuilt", [
    (10 ** 9, False),   # few documents changed: the triggers keep the index in step
    (0, True),          # many (the fixture's three stand for a first 50k-repo ingest): rebuilt in one pass
])
def test_refreshed_documents_are_found_whichever_way_the_index_is_kept(app, monkeypatch, minimum, rebuilt):
    """A refresh leaves both FTS5 indexes holding exactly search_docs (FTS5's integrity check against the
    content) and the triggers as the schema made them, whether it wrote through them or rebuilt the indexes."""
    from registry.db import connect_rw, transaction
    from registry import documents
    monkeypatch.setattr(documents, "REBUILD_MIN", minimum)
    conn = connect_rw(app.config["DATABASE"])
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").fetchall()
        ids = [r[0] for r in conn.execute("SELECT id FROM models ORDER BY id LIMIT 3")]
        statements = []
        conn.set_trace_callback(statements.append)
        with transaction(conn):
            conn.executemany("UPDATE models SET display_name = 'Zyxwv ' || display_name WHERE id = ?",
                             [(i,) for i in ids])
            documents.refresh(conn, ids)
        conn.set_trace_callback(None)
        assert any("'rebuild'" in s for s in statements) is rebuilt
        for index in documents.INDEXES:
            conn.execute(f"INSERT INTO {index}({index}, rank) VALUES ('integrity-check', 1)")
        found = {r[0] for r in conn.execute("SELECT rowid FROM search_fts WHERE search_fts MATCH 'zyxwv'")}
        assert found == set(ids)
        # the squashed names' own index: the new names, typed in part
        names = {r[0] for r in conn.execute("SELECT rowid FROM search_names WHERE search_names MATCH 'zyxwv*'")}
        assert names == set(ids)
        assert conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
                            ).fetchall() == triggers
    finally:
        conn.close()

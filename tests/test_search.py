"""GET /search over the fixture registry: exact matches, squashed and while-typing queries,
score bounds and order, tie-breaks, limit, every 400, and hostile input (never a 500)."""
import pytest

from helpers import assert_error
from registry.db import connect_ro
from registry.search import candidates, ranking
from registry.search.ranking import search
from registry.search.vocabulary import Lexicon
from registry.documents import name_variants, squash, squashed_names

STATUS_RANK = {"latest": 0, "active": 1, "deprecated": 2, "sunset": 3}
RESULT_KEYS = {"slug", "display_name", "version", "status", "family", "provider", "score"}


def results(client, q, **params):
    response = client.get("/api/v1/search", query_string={"q": q, **params})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"query", "results"} and body["query"] == q
    return body["results"]


def slugs(client, q, **params):
    return [r["slug"] for r in results(client, q, **params)]


# --- exact slug or alias: first, score 1.0 -------------------------------------------------
@pytest.mark.parametrize("q, slug", [
    ("claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20241022"),            # slug
    ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022"),              # official alias
    ("CLAUDE-SONNET-4-0", "claude-sonnet-4-20250514"),                       # case-insensitive
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"),  # cloud-a
    ("claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet-20241022"),         # cloud-b
    ("anthropic/claude-3.5-sonnet", "claude-3-5-sonnet-20241022"),           # gateway
    ("meta.llama3-1-8b-instruct-v1:0", "llama-3.1-8b-instruct"),
    ("Llama-3.1-405B-Instruct", "llama-3.1-405b-instruct"),
    ("llama-3.1-405b-instruct", "llama-3.1-405b-instruct"),
    ("  claude-instant-1.2  ", "claude-instant-1-2"),                        # surrounding spaces
])
def test_exact_slug_or_alias_is_first_with_score_one(client, q, slug):
    found = results(client, q)
    assert found[0]["slug"] == slug and found[0]["score"] == 1.0
    assert all(r["score"] < 1.0 for r in found[1:])


# --- squashed queries: punctuation, spaces and case dropped --------------------------------
@pytest.mark.parametrize("q, slug", [
    ("claude35sonnet", "claude-3-5-sonnet-20241022"),
    ("claudesonnet45", "claude-sonnet-4-5-20250929"),
    ("claude3haiku", "claude-3-haiku-20240307"),
    ("claudeinstant12", "claude-instant-1-2"),
    ("llama318binstruct", "llama-3.1-8b-instruct"),
    ("Llama31405BInstruct", "llama-3.1-405b-instruct"),
    ("claude sonnet 4.5", "claude-sonnet-4-5-20250929"),                     # the display name
    ("claude 3.5 sonnet", "claude-3-5-sonnet-20241022"),
])
def test_squashed_query_finds_the_model(client, q, slug):
    found = results(client, q)
    assert found[0]["slug"] == slug
    assert found[0]["score"] >= 0.9


# --- prefix while typing --------------------------------------------------------------------
@pytest.mark.parametrize("q, slug", [
    ("claude inst", "claude-instant-1-2"),
    ("claude-3-5-son", "claude-3-5-sonnet-20241022"),
    ("claude sonnet 4.", "claude-sonnet-4-5-20250929"),
    ("llama 3.1 40", "llama-3.1-405b-instruct"),
    ("llama 3.1 70b instr", "llama-3.1-70b-instruct"),
    ("claude3hai", "claude-3-haiku-20240307"),
    ("Llama31405B", "llama-3.1-405b-instruct"),
    ("us.anthropic.claude-sonnet-4-5", "claude-sonnet-4-5-20250929"),
    ("haik", "claude-3-haiku-20240307"),
])
def test_prefix_while_typing(client, q, slug):
    assert slugs(client, q)[0] == slug


@pytest.mark.parametrize("q, expected", [
    ("sonnet", {"claude-3-sonnet-20240229", "claude-3-5-sonnet-20241022", "claude-sonnet-4-20250514",
                "claude-sonnet-4-5-20250929"}),
    ("instruct", {"llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "llama-3.1-405b-instruct"}),
    ("claude haiku", {"claude-3-haiku-20240307"}),                            # family name and words
    ("Llama 3.1 Instruct", {"llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "llama-3.1-405b-instruct"}),
    ("gpt-4o", set()),
    ("zzz", set()),
])
def test_result_sets(client, q, expected):
    assert set(slugs(client, q)) == expected


# --- scores: in [0, 1], never rising; ties by status, then newest release ----------------------
QUERIES = ["claude", "claude 3", "sonnet", "claude sonnet", "llama", "llama 3.1", "instruct", "c", "3",
           "claude-3-5-sonnet-latest", "claude35", "anthropic", "meta", "4"]


@pytest.mark.parametrize("q", QUERIES)
def test_scores_bounded_and_non_increasing(client, q):
    scores = [r["score"] for r in results(client, q)]
    assert all(isinstance(s, float) and 0.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("q", QUERIES)
def test_equal_scores_ordered_by_status_then_newest_release(client, app, q):
    found = results(client, q)
    with app.app_context():
        from registry.web.connection import get_db
        dates = dict(get_db().execute("SELECT slug, release_date FROM models").fetchall())
    for a, b in zip(found, found[1:], strict=False):
        if a["score"] != b["score"]:
            continue
        assert STATUS_RANK[a["status"]] <= STATUS_RANK[b["status"]], (a, b)
        if a["status"] == b["status"]:
            assert (dates[a["slug"]] or "") >= (dates[b["slug"]] or ""), (a, b)


@pytest.mark.parametrize("q, order", [
    # names of similar relevance: working (active, latest) before deprecated before sunset (issue 29)
    # and of one line's working models, its latest first, then the newer (issue 45: not the shortest name)
    ("claude", ["claude-sonnet-4-5-20250929", "claude-sonnet-4-20250514", "claude-3-5-sonnet-20241022",
                "claude-3-haiku-20240307", "claude-3-sonnet-20240229", "claude-instant-1-2"]),
    # equal scores and status: the dated release before the undated one
    ("llama 3.1", ["llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "llama-3.1-405b-instruct"]),
])
def test_tie_order(client, q, order):
    assert slugs(client, q) == order


def test_result_shape(client):
    first = results(client, "claude-sonnet-4-5")[0]
    assert set(first) == RESULT_KEYS
    assert first == {"slug": "claude-sonnet-4-5-20250929", "display_name": "Claude Sonnet 4.5",
                     "version": "20250929", "status": "latest",
                     "family": {"slug": "claude-sonnet", "name": "Claude Sonnet"},
                     "provider": {"slug": "anthropic", "name": "Anthropic"}, "score": 1.0}


# --- limit ----------------------------------------------------------------------------------
@pytest.mark.parametrize("limit, count", [("1", 1), ("2", 2), ("20", 6), ("100", 6), (" 3 ", 3), ("+4", 4)])
def test_limit(client, limit, count):
    assert len(results(client, "claude", limit=limit)) == count


def test_limit_defaults_to_twenty(client, rw):
    from registry.db import transaction
    from registry import documents
    family_id = rw.execute("SELECT id FROM families WHERE slug = 'claude-haiku'").fetchone()[0]
    with transaction(rw):
        rw.executemany(
            "INSERT INTO models (slug, family_id, display_name, created_at, updated_at) VALUES (?, ?, ?, '', '')",
            [(f"claude-haiku-x{i}", family_id, f"Claude Haiku X{i}") for i in range(30)])
        documents.refresh(rw)
    assert len(results(client, "claude haiku x")) == 20
    assert len(results(client, "claude haiku x", limit=25)) == 25


@pytest.mark.parametrize("query, name", [
    ({}, "q"),
    ({"q": ""}, "q"),
    ({"q": "   "}, "q"),
    ({"q": "a" * 201}, "q"),
    ({"q": "claude\x00"}, "q"),
    ({"q": "claude\tsonnet"}, "q"),
    ({"q": "claude\nsonnet"}, "q"),
    ({"q": "\x7f"}, "q"),
    ({"q": ["claude", "llama"]}, "q"),
    ({"q": "claude", "limit": "0"}, "limit"),
    ({"q": "claude", "limit": "-1"}, "limit"),
    ({"q": "claude", "limit": "101"}, "limit"),
    ({"q": "claude", "limit": "abc"}, "limit"),
    ({"q": "claude", "limit": "1.5"}, "limit"),
    ({"q": "claude", "limit": ""}, "limit"),
    ({"q": "claude", "limit": "99999999999999999999999"}, "limit"),
    ({"q": "claude", "limit": ["1", "2"]}, "limit"),
])
def test_bad_requests_name_the_parameter(client, query, name):
    assert_error(client.get("/api/v1/search", query_string=query), 400, "bad_request", f"'{name}'")


def test_two_hundred_characters_is_allowed(client):
    assert results(client, "claude " + "x" * 193) == []


# --- hostile input: 200 or 400, never 500, always JSON ---------------------------------------
HOSTILE = [
    '"', '""', '"claude', 'claude"', "'", "''", "claude'", 'a"b', "NOT", "NOT claude", "claude NOT sonnet",
    "AND", "OR", "claude OR llama", "NEAR", "NEAR(claude sonnet)", "NEAR(claude sonnet, 2)", "*", "**",
    "claude*", "*claude", "^claude", "claude^", "+claude", "-claude", "claude -sonnet", ":", "slug:claude",
    "display_name:claude", "squashed : claude", "{slug aliases}:claude", "{", "}", "(", ")", "()", "(claude",
    "claude)", "((((", "[claude]", "\\", "\\x00", "%00", "%", "_", "__", "claude_sonnet", "a" * 200,
    "\" OR 1=1 --", "'; DROP TABLE models; --", "claude; DELETE FROM search_fts", "rank:bm25",
    "é", "ｃｌａｕｄｅ", "ＣＬＡＵＤＥ－３", "克劳德", "🤖", "claude 🤖", "Ω", "\u200b", "claude\u200bsonnet",
    "\u202eclaude", "\ufeffclaude", "\u0301", "e\u0301", "ß", "İ", "ﬁ", "Ⅻ", "١٢٣", "claude\u00a0sonnet",
    "\U0001F600" * 50, "claude\x00", "\x1b[31m", "\ud7ff", "\ue000", ". . .", "...", "-", "--", "-- --",
    "0", "0x", "1e9", "-1", "NaN", "null", "undefined", "<script>alert(1)</script>",
]


@pytest.mark.parametrize("q", HOSTILE)
def test_hostile_input_never_breaks_search(client, q):
    response = client.get("/api/v1/search", query_string={"q": q})
    assert response.status_code in (200, 400), response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    if response.status_code == 400:
        assert_error(response, 400, "bad_request")
        return
    assert body["query"] == q
    for r in body["results"]:
        assert set(r) == RESULT_KEYS and 0.0 <= r["score"] <= 1.0


@pytest.mark.parametrize("q, expected", [
    ("ｃｌａｕｄｅ－ｉｎｓｔａｎｔ－１．２", "claude-instant-1-2"),      # full-width forms fold (NFKC)
    ("CLAUDE_INSTANT", "claude-instant-1-2"),                           # '_' separates words
    ("claude NOT instant", None),                                       # NOT is a word, not an operator
    ("claude OR llama", None),
])
def test_operators_are_words_and_unicode_folds(client, q, expected):
    found = slugs(client, q)
    assert (found[0] if found else None) == expected


# --- query escaping (unit) ------------------------------------------------------------------
# A query's words reach FTS5 only as quoted phrases of their letter/digit runs: its operators, quotes and
# column filters are words like any other.
@pytest.mark.parametrize("q, expression", [
    ("gemini 2.5 fla", '"gemini" AND "2 5" AND "fla"*'),
    ("gpt-4o ", '"gpt 4o"'),                                        # a finished word: no prefix
    ('say "NOT" col:x (z*)', '"say" AND "not" AND "col x" AND "z"*'),
    ("a_b c", '"a b" AND "c"*'),                                   # "_" parts words, as unicode61 does
    ("-- ( ) *", None),
])
def test_a_query_s_words_reach_the_index_as_quoted_phrases(app, q, expression):
    conn = connect_ro(app.config["DATABASE"])
    try:
        query = ranking._read(q, Lexicon(conn))
    finally:
        conn.close()
    found = candidates.words_match(query.words, query.typing)[0] if query.words else None
    assert found == expression


@pytest.mark.parametrize("name, forms", [
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", ["claudesonnet4520250929"]),
    ("anthropic/claude-3.5-sonnet", ["claude35sonnet"]),
    ("claude-3-5-sonnet-v2@20241022", ["claude35sonnetv2"]),
    ("DeepSeek: DeepSeek V3.1", ["deepseekv31"]),
    ("openai/gpt-oss-20b:free", ["gptoss20b"]),
    ("gpt-5.4", ["gpt54"]),
])
def test_squashed_names_drop_platform_decorations(name, forms):
    assert squash(name) in squashed_names([name])
    assert set(forms) <= set(squashed_names([name]))
    assert name_variants(name)[0] == name


# --- the index follows every write -------------------------------------------------------------
def test_search_follows_curation_changes(client, app, curation_dir):
    from helpers import build_db
    text = (curation_dir / "meta.yaml").read_text()
    text = text.replace("display_name: Llama 3.1 405B Instruct", "display_name: Llama Colossus")
    text = text.replace("official: [Llama-3.1-405B-Instruct]", "official: [Llama-3.1-405B-Instruct, llama-big]")
    (curation_dir / "meta.yaml").write_text(text)
    build_db(app.config["DATABASE"], curation_dir)
    assert results(client, "llama-big")[0]["slug"] == "llama-3.1-405b-instruct"
    assert slugs(client, "colossus") == ["llama-3.1-405b-instruct"]
    assert slugs(client, "llama 3.1 405b instruct")[0] == "llama-3.1-405b-instruct"


def test_search_function_clamps_limit(app):
    from registry.web.connection import get_db
    with app.app_context():
        assert len(search(get_db(), "claude", limit=500)) == 6
        assert len(search(get_db(), "claude", limit=0)) == 1


# --- what a search costs SQLite ----------------------------------------------------------------
@pytest.mark.parametrize("q, params, kept", [
    ("claude-3-5-sonnet-20241022", {}, 1),      # exact: a slug, its squashed name and its start all find it
    ("claude son", {}, 1),                      # while typing
    ("sonnet 3.5", {}, 1),                      # words
    ("claude", {"model_type": "chat,embedding"}, 1),   # with the API's filters
    # No words left: a term met by its word in names looks the model up in that word's newest matches, kept apart.
    ("open weights models", {}, 2),
])
def test_search_writes_no_candidate_ids_into_temporary_btrees(app, client, q, params, kept):
    # Each temporary b-tree costs a statement a page cache of its own (~90 KB, mapped and unmapped per statement in
    # a worker: docs/running.md#memory). Candidates are stepped from co-routines; a cut (ORDER BY ... LIMIT) keeps
    # its top rows in one.
    from registry.web.connection import thread_connection
    conn, statements = thread_connection(app.config["DATABASE"]), []
    conn.set_trace_callback(statements.append)
    try:
        found = slugs(client, q, **params)
    finally:
        conn.set_trace_callback(None)
    assert found and len(found) == len(set(found))     # a model that several parts find is one result
    ranked = [sql for sql in statements if "MATCH" in sql or "json_each" in sql]
    assert ranked
    for sql in ranked:
        opcodes = [row[1] for row in conn.execute("EXPLAIN " + sql)]
        assert opcodes.count("OpenEphemeral") <= kept, sql

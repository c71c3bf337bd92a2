import json

import pytest

from helpers import assert_error, rewrite

ALL_BY_RELEASE = [
    "claude-sonnet-4-5-20250929", "claude-sonnet-4-20250514", "claude-3-5-sonnet-20241022",
    "llama-3.1-70b-instruct", "llama-3.1-8b-instruct", "claude-3-haiku-20240307", "claude-3-sonnet-20240229",
    "claude-instant-1-2", "llama-3.1-405b-instruct"]


@pytest.mark.parametrize("query,expected", [
    ("", ALL_BY_RELEASE),
    ("?provider=meta", ["llama-3.1-70b-instruct", "llama-3.1-8b-instruct", "llama-3.1-405b-instruct"]),
    ("?family=claude-haiku", ["claude-3-haiku-20240307"]),
    ("?status=latest", ["claude-sonnet-4-5-20250929", "llama-3.1-8b-instruct"]),
    ("?status=sunset", ["claude-3-haiku-20240307", "claude-3-sonnet-20240229", "claude-instant-1-2"]),
    ("?status=deprecated", ["claude-3-5-sonnet-20241022"]),
    ("?status=active&provider=meta", ["llama-3.1-70b-instruct", "llama-3.1-405b-instruct"]),
    ("?open_source=true", ["llama-3.1-70b-instruct", "llama-3.1-8b-instruct", "llama-3.1-405b-instruct"]),
    ("?open_source=false&status=latest", ["claude-sonnet-4-5-20250929"]),
    ("?min_params=10000000000", ["llama-3.1-70b-instruct", "llama-3.1-405b-instruct"]),
    ("?max_params=10000000000", ["llama-3.1-8b-instruct"]),
    ("?min_params=0&max_params=70553706496", ["llama-3.1-70b-instruct", "llama-3.1-8b-instruct"]),
    ("?sort=parameter_count", ["llama-3.1-405b-instruct", "llama-3.1-70b-instruct", "llama-3.1-8b-instruct",
                               "claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-3-sonnet-20240229",
                               "claude-instant-1-2", "claude-sonnet-4-20250514", "claude-sonnet-4-5-20250929"]),
    ("?provider=nobody", []),
])
def test_model_filters_and_sorts(client, query, expected):
    body = client.get("/api/v1/models" + query).get_json()
    assert [m["slug"] for m in body["models"]] == expected
    assert body["pagination"]["total"] == len(expected)


BY_PARAMETERS = ["llama-3.1-405b-instruct", "llama-3.1-70b-instruct", "llama-3.1-8b-instruct",
                 "claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-3-sonnet-20240229",
                 "claude-instant-1-2", "claude-sonnet-4-20250514", "claude-sonnet-4-5-20250929"]


# A page in the far half of its list is walked from the list's end (queries/model_list.py _pages): every page is
# still its slice of the list, NULLs last and ties (the two Llamas of 2024-07-23) by slug.
@pytest.mark.parametrize("query, expected", [
    ("", ALL_BY_RELEASE),
    ("&sort=parameter_count", BY_PARAMETERS),
    ("&status=sunset", ["claude-3-haiku-20240307", "claude-3-sonnet-20240229", "claude-instant-1-2"]),
    ("&status=active,latest", [s for s in ALL_BY_RELEASE if s not in (
        "claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-3-sonnet-20240229", "claude-instant-1-2")]),
    ("&provider=anthropic&sort=parameter_count", [s for s in BY_PARAMETERS if s.startswith("claude")]),
    ("&provider=anthropic", [s for s in ALL_BY_RELEASE if s.startswith("claude")]),
    ("&open_source=true&status=active", ["llama-3.1-70b-instruct", "llama-3.1-405b-instruct"]),
])
def test_every_page_is_its_slice_of_the_list(client, query, expected):
    for per_page in (1, 2, 3, 4, 5):
        pages = -(-len(expected) // per_page)
        for page in range(1, pages + 2):
            body = client.get(f"/api/v1/models?per_page={per_page}&page={page}{query}").get_json()
            assert [m["slug"] for m in body["models"]] == expected[(page - 1) * per_page:page * per_page], \
                (per_page, page)
            assert body["pagination"]["total_pages"] == pages


@pytest.mark.parametrize("page, from_end", [(1, False), (2, False), (3, True), (4, True)])
def test_a_far_page_counted_before_the_data_changed_is_walked_from_the_start(app, page, from_end):
    """The walk from the end takes its position from the count; a count read at another data generation (the
    memo's, just before an ingest added a model) reads no row there, and the page is walked from the start."""
    from registry.db import generation
    from registry.queries import model_list
    from registry.web.connection import thread_connection
    conn, statements = thread_connection(app.config["DATABASE"]), []
    now = generation(conn)
    for counted_at, reads, missing in ((now, 1, 0), (now - 1, 2, 1)):
        def count(sql, args, counted_at=counted_at, missing=missing):
            return conn.execute(sql, args).fetchone()[0] - missing, counted_at
        conn.set_trace_callback(statements.append)
        try:
            models, total = model_list.list_models(conn, {}, "release_date", page, 2, count)
            text, _ = model_list.list_models_json(conn, {}, "release_date", page, 2, count)
        finally:
            conn.set_trace_callback(None)
        assert [m["slug"] for m in models] == ALL_BY_RELEASE[(page - 1) * 2:page * 2] and total == 9 - missing
        assert [m["slug"] for m in json.loads(text)] == ALL_BY_RELEASE[(page - 1) * 2:page * 2]
        walks = [sql for sql in statements if "AS c CROSS JOIN models m" in sql]
        assert len(walks) == 2 * (reads if from_end else 1)
        assert ("LIMIT CASE WHEN" in walks[0]) is from_end
        # The ids are stepped from the walk, not written into a temporary b-tree first (model_list.from_ids).
        assert not any(row[1] == "OpenEphemeral" for sql in walks for row in conn.execute("EXPLAIN " + sql))
        statements.clear()


@pytest.mark.parametrize("query,slugs,pagination", [
    ("?per_page=4", ALL_BY_RELEASE[:4], {"page": 1, "per_page": 4, "total": 9, "total_pages": 3}),
    ("?per_page=4&page=3", ALL_BY_RELEASE[8:], {"page": 3, "per_page": 4, "total": 9, "total_pages": 3}),
    ("?per_page=4&page=4", [], {"page": 4, "per_page": 4, "total": 9, "total_pages": 3}),
    ("?per_page=200", ALL_BY_RELEASE, {"page": 1, "per_page": 200, "total": 9, "total_pages": 1}),
    ("?provider=nobody", [], {"page": 1, "per_page": 50, "total": 0, "total_pages": 0}),
])
def test_pagination(client, query, slugs, pagination):
    body = client.get("/api/v1/models" + query).get_json()
    assert [m["slug"] for m in body["models"]] == slugs
    assert body["pagination"] == pagination


@pytest.mark.parametrize("query,name", [
    ("?per_page=201", "per_page"), ("?per_page=0", "per_page"), ("?per_page=-1", "per_page"),
    ("?per_page=ten", "per_page"), ("?per_page=1.5", "per_page"), ("?per_page=", "per_page"),
    ("?page=0", "page"), ("?page=-3", "page"), ("?page=x", "page"), ("?page=1&page=2", "page"),
    ("?page=99999999999999999999999", "page"),
    ("?status=retired", "status"), ("?status=", "status"), ("?sort=name", "sort"), ("?sort=", "sort"),
    ("?open_source=1", "open_source"), ("?open_source=yes", "open_source"),
    ("?min_params=abc", "min_params"), ("?max_params=-1", "max_params"), ("?min_params=1e9", "min_params"),
    ("?min_params=20&max_params=10", "min_params"),
    ("?provider=", "provider"), ("?family=", "family"),
])
def test_model_list_bad_parameters(client, query, name):
    assert_error(client.get("/api/v1/models" + query), 400, "bad_request", name)


def test_model_list_shape(client):
    model = client.get("/api/v1/models?family=claude-haiku").get_json()["models"][0]
    assert model == {
        "slug": "claude-3-haiku-20240307", "display_name": "Claude 3 Haiku", "version": "20240307",
        "status": "sunset", "model_type": "chat", "family": {"slug": "claude-haiku", "name": "Claude Haiku"},
        "provider": {"slug": "anthropic", "name": "Anthropic"}, "release_date": "2024-03-07",
        "deprecation_date": "2025-06-01", "sunset_date": "2025-12-01", "parameter_count": None,
        "parameter_label": None, "input_context_window": None, "output_context_window": None,
        "is_open_source": False}


def test_model_detail(client):
    model = client.get("/api/v1/models/claude-3-5-sonnet-20241022").get_json()
    assert model["successor"] == {"slug": "claude-sonnet-4-5-20250929", "display_name": "Claude Sonnet 4.5"}
    assert model["canonical_url"] is None
    assert model["aliases"][0] == {"alias": "claude-3-5-sonnet-20241022", "source": "official",
                                   "normalized": model["aliases"][0]["normalized"], "listed": False}
    assert [a["source"] for a in model["aliases"]] == ["official", "official", "cloud-a", "cloud-a", "cloud-b",
                                                      "gateway"]
    assert len({a["normalized"] for a in model["aliases"]}) == 1
    assert model["metadata"]["provenance"]["successor"] == "curation"
    assert model["created_at"].endswith("Z") and model["updated_at"].endswith("Z")
    assert model["is_open_source"] is False


def test_open_source_detail(client):
    model = client.get("/api/v1/models/llama-3.1-8b-instruct").get_json()
    assert (model["parameter_count"], model["parameter_label"], model["is_open_source"]) == (8030261248, "8B", True)
    assert model["canonical_url"] == "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct"


@pytest.mark.parametrize("slug,upgrade,is_latest,basis", [
    ("claude-3-sonnet-20240229", "claude-sonnet-4-5-20250929", False, "replacement"),   # the chain to its working end
    ("claude-3-5-sonnet-20241022", "claude-sonnet-4-5-20250929", False, "replacement"),   # the provider's replacement
    ("claude-sonnet-4-20250514", "claude-sonnet-4-5-20250929", False, "line"),   # no successor: the line's latest
    ("claude-sonnet-4-5-20250929", None, True, None),
    ("llama-3.1-70b-instruct", None, False, None),                     # the family's latest is smaller: none
    ("claude-3-haiku-20240307", None, False, None),                    # family has no latest
])
def test_upgrade(client, slug, upgrade, is_latest, basis):
    body = client.get(f"/api/v1/models/{slug}/upgrade").get_json()
    assert body["current"]["slug"] == slug
    assert set(body["current"]) == {"slug", "display_name", "status"}
    assert body["is_latest"] is is_latest
    if upgrade is None:
        assert body["upgrade"] is None
    else:
        assert body["upgrade"]["slug"] == upgrade
        assert set(body["upgrade"]) == {"slug", "display_name", "status", "release_date", "why"}
        why = body["upgrade"]["why"]
        assert why["basis"] == basis and set(why) == {"basis", "named_by", "keeps", "changes"}
        assert (why["named_by"] is not None) is (basis == "replacement")
        assert "model_type" in why["keeps"] and "model_type" not in why["changes"]   # a Sonnet stays a chat model


def test_upgrade_survives_a_successor_cycle(client, rw):
    rewrite(rw, "UPDATE models SET successor_id = (SELECT id FROM models WHERE slug = 'claude-3-sonnet-20240229')"
                " WHERE slug = 'claude-sonnet-4-20250514'")
    body = client.get("/api/v1/models/claude-3-sonnet-20240229/upgrade").get_json()
    assert body["upgrade"]["slug"] == "claude-sonnet-4-5-20250929"


def test_upgrade_skips_sunset_models_on_the_path(client, rw):
    rewrite(rw, "UPDATE models SET sunset_date = '2025-01-01' WHERE slug = 'claude-sonnet-4-5-20250929'")
    body = client.get("/api/v1/models/claude-3-sonnet-20240229/upgrade").get_json()
    assert body["upgrade"]["slug"] == "claude-sonnet-4-20250514"


def test_history(client):
    body = client.get("/api/v1/models/claude-sonnet-4-20250514/history").get_json()
    assert body["model"] == {"slug": "claude-sonnet-4-20250514", "display_name": "Claude Sonnet 4"}
    assert body["family"] == {"slug": "claude-sonnet", "name": "Claude Sonnet"}
    assert [h["slug"] for h in body["history"]][0] == "claude-3-sonnet-20240229"
    assert set(body["history"][0]) == {"slug", "display_name", "status", "release_date"}


@pytest.mark.parametrize("url", ["/api/v1/models/nope", "/api/v1/models/nope/upgrade",
                                 "/api/v1/models/nope/history"])
def test_model_not_found(client, url):
    assert_error(client.get(url), 404, "not_found", "Model 'nope' not found")


@pytest.mark.parametrize("filters", [
    {"provider": "meta", "status": ["active"]},
    {"provider": "anthropic", "status": ["sunset"]},
])
def test_a_page_of_one_status_of_a_provider_reads_no_model_rows(app, filters):
    # models_family_status_release holds the ids, statuses and sort keys: the page is sorted from the index,
    # not from every matching model's row (issue 31; a provider's 2,000 rows took 7 ms at 50k models).
    from registry.queries import model_list
    from registry.web.connection import thread_connection
    conn, statements = thread_connection(app.config["DATABASE"]), []
    conn.set_trace_callback(statements.append)
    try:
        model_list.list_models(conn, filters, "release_date", 1, 50)
    finally:
        conn.set_trace_callback(None)
    page = next(sql for sql in statements if "LIMIT" in sql)
    plan = " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + page))
    assert "COVERING INDEX models_family_status_release" in plan, plan


@pytest.mark.parametrize("sort, index", [("release_date", "models_release"), ("parameter_count", "models_params")])
def test_the_first_pages_of_a_big_provider_walk_the_sort_index(app, sort, index):
    # Anthropic holds 6 of the 9 models: a 1-model page walks the sort index, whose entries hold the family, about
    # 9 / 6 entries a model, rather than sort all 6 (model_list._few); the fixture's lists are small, so the page
    # is small too. At 50k models, the first page of a provider's ~2,100: 0.63 ms of SQL sorted, 0.31 ms walked.
    from registry.queries import model_list
    from registry.web.connection import thread_connection
    conn, statements = thread_connection(app.config["DATABASE"]), []
    conn.set_trace_callback(statements.append)
    try:
        models, total = model_list.list_models(conn, {"provider": "anthropic"}, sort, 1, 1)
    finally:
        conn.set_trace_callback(None)
    assert total == 6 and models[0]["slug"] == ("claude-sonnet-4-5-20250929" if sort == "release_date"
                                                  else "claude-3-5-sonnet-20241022")
    page = next(sql for sql in statements if "LIMIT" in sql)
    plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + page)]
    assert f"SCAN m USING COVERING INDEX {index}" in plan, plan
    assert plan.count("USE TEMP B-TREE FOR ORDER BY") == 1, plan   # the page's own 1 row, not the provider's 6


# The API's page is written by SQLite (model_list.list_models_json); it must be the bytes jsonify writes of the
# Python list (model_list.list_models), whatever the filters and whatever a name holds.
@pytest.mark.parametrize("query", [
    "", "?sort=parameter_count&per_page=2&page=2", "?provider=meta&status=active", "?status=active,latest",
    "?open_source=true&min_params=1",
])
@pytest.mark.parametrize("name, count", [
    (None, None),                                                                     # as curated
    ('Q "quoted" \\ back\nline\x01\x1f é \u2028 😀 </script>', None),                 # every kind of character
    (None, 12345.678901234567),                                                       # a REAL a hand left there
])
def test_a_listed_model_is_the_single_models_answer_key_for_key(client, rw, query, name, count):
    """One description of a model (queries/model_list.py SUMMARY): the list SQLite writes and the single model's
    answer built from the same table agree, value for value and type for type."""
    if name is not None:
        rw.execute("UPDATE families SET name = ? WHERE slug = 'claude-sonnet'", (name,))
        rw.execute("UPDATE models SET display_name = ? WHERE slug = 'claude-sonnet-4-5-20250929'", (name,))
    if count is not None:
        rw.execute("UPDATE models SET parameter_count = ? WHERE slug = 'llama-3.1-8b-instruct'", (count,))
    listed = client.get("/api/v1/models" + query).get_json()["models"]
    assert listed
    for model in listed:
        detail = client.get(f"/api/v1/models/{model['slug']}").get_json()
        assert {k: (detail[k], type(detail[k])) for k in model} == {k: (v, type(v)) for k, v in model.items()}


def test_past_the_last_page_is_an_empty_page(client):
    body = client.get("/api/v1/models?page=9").get_json()
    assert body["models"] == [] and body["pagination"]["page"] == 9


# A model's answer is read as JSON text SQLite writes (queries/packed.py); a value JSON would not carry exactly (a
# REAL) is read plainly, so the answer holds what the database holds, whatever a name holds.
@pytest.mark.parametrize("name, count", [
    ('Q "quoted" \\ back\nline\x01\x1f é \u2028 😀 </script>', 8030261248),
    ("Llama 3.1 8B Instruct", 12345.678901234567),
])
def test_a_model_answer_holds_what_the_database_holds(client, rw, name, count):
    rw.execute("UPDATE models SET display_name = ?, parameter_count = ? WHERE slug = 'llama-3.1-8b-instruct'",
               (name, count))
    model = client.get("/api/v1/models/llama-3.1-8b-instruct").get_json()
    assert (model["display_name"], model["parameter_count"]) == (name, count)
    assert type(model["parameter_count"]) is type(count)
    if isinstance(count, int):   # the alias index holds counts as integers (resolve/table.py)
        resolved = client.get("/api/v1/resolve?q=Llama-3.1-8B-Instruct")
        assert resolved.status_code == 200, resolved.get_json()
        assert resolved.get_json()["matched_model"]["display_name"] == name


@pytest.mark.parametrize("slug, named_by", [
    # a curated replacement cites the page that names it (curation's successor_url)
    ("claude-3-sonnet-20240229", {"source": "curation",
                                  "url": "https://docs.anthropic.com/en/docs/about-claude/model-deprecations"}),
    # no page curated: the source alone, never a made-up address
    ("claude-3-5-sonnet-20241022", {"source": "curation", "url": None}),
])
def test_a_named_replacement_says_who_named_it_and_where(client, slug, named_by):
    body = client.get("/api/v1/resolve", query_string={"q": slug}).get_json()
    assert body["upgrade"]["why"]["basis"] == "replacement"
    assert body["upgrade"]["why"]["named_by"] == named_by
    official = next(p for p in client.get(f"/api/v1/models/{slug}").get_json()["platforms"]
                    if p["platform"] == "official")
    assert official["upgrade"]["named_by"] == named_by and "successor_url" not in official["sources"]

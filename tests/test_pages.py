"""The pages in-process (registry/pages/): what each shows from the fixture curation, its Markdown twin,
errors for people, the shared rate limit, ETag/304 and the response cache, and every link answering."""
import re
from datetime import date

import pytest

from registry import create_app
from registry.curation.apply import apply_curation
from registry.curation.reader import read_curation
from registry.db import connect_rw
from registry.web.connection import close_thread_connections, get_db
from registry.pages import present
from registry.pages.timeline import MOST_ROWS, around, family_timeline
from registry.queries import catalog

from helpers import TODAY, assert_error, build_db

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}   # what a browser sends
SONNET_35 = "claude-3-5-sonnet-20241022"
DAYS_TO_2099_SHUTDOWN = (date(2099, 10, 22) - date.fromisoformat(TODAY)).days


@pytest.mark.parametrize("path,in_html,in_markdown", [
    ("/", ['action="/search"', 'action="/resolve"', "Shutdowns in the next 90 days"],
     ["# Model registry", "/resolve.md?q="]),
    (f"/models/{SONNET_35}",
     ['href="/models/claude-sonnet-4-5-20250929"', "us.anthropic.claude-3-5-sonnet-20241022-v2:0",
      "anthropic.claude-sonnet-4-5-20250929-v1:0", f"{DAYS_TO_2099_SHUTDOWN} days",
      'data-copy="claude-sonnet-4-5-20250929"',
      "curation/anthropic.yaml", '<svg class="timeline timeline-wide"',
      'href="/api/v1/feeds/changes.atom?model=claude-3-5-sonnet-20241022"'],
     ["| Amazon Bedrock | `anthropic.claude-3-5-sonnet-20241022-v2:0` | `anthropic.claude-sonnet-4-5-20250929-v1:0` |",
      f"shuts down in {DAYS_TO_2099_SHUTDOWN} days (2099-10-22)", "Status: **deprecated**"]),
    ("/families/claude-sonnet",
     ['<svg class="timeline timeline-wide"', 'class="today"', 'href="/models/claude-3-sonnet-20240229"'],
     # the family page says what the API says: the countdown and the upgrade, as on the model's page (issue 45)
     ["| [Claude 3 Sonnet](/models/claude-3-sonnet-20240229.md) | sunset | 2024-02-29 | 2025-01-21 | shut down on"
      " 2025-07-21 (488 days ago) | [Claude Sonnet 4.5](/models/claude-sonnet-4-5-20250929.md) |"]),
    ("/providers", ['href="/providers/anthropic"', 'href="/providers/meta"'],
     ["| [Anthropic](/providers/anthropic.md) |"]),
    ("/providers/anthropic", ['href="/models/claude-sonnet-4-5-20250929"', 'href="/families/claude-haiku"'],
     ["[Claude Haiku](/families/claude-haiku.md)"]),
    ("/deprecations", [f'href="/models/{SONNET_35}"', 'href="/models/claude-sonnet-4-5-20250929"'],
     [f"[Claude 3.5 Sonnet (2024-10-22)](/models/{SONNET_35}.md)"]),
    ("/resolve?q=us.anthropic.claude-3-5-sonnet-20241022-v2:0",
     [f'href="/models/{SONNET_35}"', "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "Amazon Bedrock"],
     ["- Upgrade id (Amazon Bedrock): `us.anthropic.claude-sonnet-4-5-20250929-v1:0`"]),
    ("/search?q=sonnet", [f'href="/models/{SONNET_35}"'], [f"(/models/{SONNET_35}.md)"]),
])
def test_each_page_and_its_markdown_twin(client, path, in_html, in_markdown):
    page = client.get(path, headers=HTML)
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert [s for s in in_html if s not in text] == []
    base, _, query = path.partition("?")
    twin = client.get(("/index" if base == "/" else base) + ".md" + ("?" + query if query else ""))
    asked = client.get(path, headers={"Accept": "text/markdown"})
    assert twin.mimetype == asked.mimetype == "text/markdown"
    assert twin.get_data() == asked.get_data()
    assert [s for s in in_markdown if s not in twin.get_data(as_text=True)] == []


def test_upgrade_ids_keep_each_platform_format(app):
    with app.app_context():
        db = get_db()
        row = catalog.model_by_slug(db, SONNET_35)
        upgrade = catalog.model_by_slug(db, "claude-sonnet-4-5-20250929")
        shown = present.upgrade_ids(db, row, upgrade)
    assert shown == [
        {"label": "Provider API", "current": SONNET_35, "upgrade": "claude-sonnet-4-5-20250929"},
        {"label": "Amazon Bedrock", "current": "anthropic.claude-3-5-sonnet-20241022-v2:0",
         "upgrade": "anthropic.claude-sonnet-4-5-20250929-v1:0"},
        {"label": "OpenRouter", "current": "anthropic/claude-3.5-sonnet", "upgrade": "anthropic/claude-sonnet-4.5"},
    ]


def _row(slug, release, deprecation=None, sunset=None, status="active"):
    return {"slug": slug, "display_name": slug.upper(), "status": status, "release_date": release,
            "deprecation_date": deprecation, "sunset_date": sunset}


@pytest.mark.parametrize("rows,today,expect", [
    # a retired model: its bar ends at its shutdown, before today, with both ticks in order
    ([_row("a", "2024-01-01", "2024-06-01", "2024-09-01", "sunset")], "2025-01-01",
     {"open": [False], "ends_before_today": [True], "marks": [["deprecated", "shutdown"]]}),
    # a working model without a shutdown day runs open past today
    ([_row("a", "2024-01-01")], "2025-01-01", {"open": [True], "ends_before_today": [False], "marks": [[]]}),
    # a shutdown decades away is drawn at the axis's end, open, without its tick
    ([_row("a", "2024-01-01", "2025-01-01", "2099-01-01", "deprecated")], "2025-06-01",
     {"open": [True], "ends_before_today": [False], "marks": [["deprecated"]]}),
    # an undated model has no bar; the dated one has
    ([_row("u", None), _row("b", "2025-01-01")], "2025-06-01",
     {"open": [True], "ends_before_today": [False], "marks": [[]]}),
])
@pytest.mark.parametrize("kind", ["wide", "narrow"])
def test_timeline_geometry(rows, today, expect, kind):
    t = family_timeline(rows, today)[kind]
    drawn = t["rows"]
    assert [r["open"] for r in drawn] == expect["open"]
    assert [r["x2"] < t["today_x"] for r in drawn] == expect["ends_before_today"]
    assert [[m["kind"] for m in r["marks"]] for r in drawn] == expect["marks"]
    for r in drawn:
        assert t["label_width"] <= r["x1"] < r["x2"] <= t["width"]
        assert [m["x"] for m in r["marks"]] == sorted(m["x"] for m in r["marks"])
    labels = [y["x"] for y in t["years"]]
    assert labels == sorted(labels) and all(b - a >= 40 for a, b in zip(labels, labels[1:], strict=False))


def test_timeline_of_a_family_without_dates_is_none():
    assert family_timeline([_row("u", None)], "2025-01-01") is None


@pytest.mark.parametrize("path,headers,status,mimetype,shows", [
    ("/no-such-page", HTML, 404, "text/html", "Not found"),
    ("/models/no-such-model", HTML, 404, "text/html", "Model &#39;no-such-model&#39; not found."),
    ("/models/no-such-model.md", {}, 404, "text/markdown", "Model 'no-such-model' not found."),
    ("/deprecations?sort=newest", HTML, 400, "text/html", "Parameter &#39;sort&#39; must be one of"),
    ("/deprecations?provider=a%01b", HTML, 400, "text/html", "Parameter &#39;provider&#39;"),
    ("/resolve?q=zz-no-such-model-zz", HTML, 404, "text/html", "No model matches"),
    ("/search?q=" + "x" * 201, HTML, 400, "text/html", "at most 200 characters"),
])
def test_errors_for_a_person_are_pages(client, path, headers, status, mimetype, shows):
    response = client.get(path, headers=headers)
    assert (response.status_code, response.mimetype) == (status, mimetype)
    text = response.get_data(as_text=True)
    assert shows in text and "Traceback" not in text
    assert "X-RateLimit-Remaining" in response.headers


@pytest.mark.parametrize("path,headers", [
    ("/no-such-page", {"Accept": "*/*"}),              # curl and scripts keep the JSON shape
    ("/no-such-page", {}),
    ("/api/v1/no-such-page", HTML),                    # /api/v1 stays JSON whoever asks
    ("/api/v1/models/no-such-model", HTML),
])
def test_json_errors_stay_json(client, path, headers):
    assert_error(client.get(path, headers=headers), 404, "not_found")


def test_pages_share_the_public_rate_limit_and_a_person_gets_a_page(app, client):
    app.config["RATELIMIT_PUBLIC"] = "3/minute"
    assert client.get("/api/v1/providers").status_code == 200
    assert client.get("/", headers=HTML).status_code == 200
    assert client.get("/models/" + SONNET_35, headers=HTML).status_code == 200
    limited = client.get("/families/claude-sonnet", headers=HTML)
    assert (limited.status_code, limited.mimetype) == (429, "text/html")
    assert "Rate limit exceeded; retry in" in limited.get_data(as_text=True)
    assert limited.headers["Retry-After"] and limited.headers["X-RateLimit-Remaining"] == "0"
    assert limited.headers["Cache-Control"] == "no-store"
    assert_error(client.get("/api/v1/providers"), 429, "rate_limited")


def test_etag_304_and_the_response_cache_keep_html_and_markdown_apart(client):
    path = "/models/" + SONNET_35
    page = client.get(path, headers=HTML)
    assert page.headers["Cache-Control"] == "public, max-age=60" and "Accept" in page.headers["Vary"]
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert client.get(path, headers={**HTML, "If-None-Match": page.headers["ETag"]}).status_code == 304
    twin = client.get(path, headers={"Accept": "text/markdown"})   # the same path, cached as HTML just now
    assert twin.mimetype == "text/markdown" and twin.headers["ETag"] != page.headers["ETag"]
    again = client.get(path, headers=HTML)                          # served from the cache
    assert again.mimetype == "text/html" and again.get_data() == page.get_data()


@pytest.mark.parametrize("query,slugs", [
    ("status=sunset", ["claude-instant-1-2", "claude-3-sonnet-20240229", "claude-3-haiku-20240307"]),
    ("status=sunset&sort=deprecation_date", ["claude-3-haiku-20240307", "claude-3-sonnet-20240229",
                                             "claude-instant-1-2"]),
    ("status=sunset&sort=name", ["claude-3-haiku-20240307", "claude-3-sonnet-20240229", "claude-instant-1-2"]),
    ("status=sunset&provider=meta", []),
    ("provider=anthropic", [SONNET_35]),
])
def test_deprecations_sort_and_filter(client, query, slugs):
    text = client.get("/deprecations.md?" + query).get_data(as_text=True)
    assert re.findall(r"^\| \[[^]]+\]\(/models/([^)]+)\.md\)", text, re.M) == slugs


@pytest.mark.parametrize("today,listed", [("2025-05-01", True), ("2025-07-22", False)])
def test_home_lists_the_shutdowns_of_the_next_90_days(client, monkeypatch, today, listed):
    monkeypatch.setenv("REGISTRY_TODAY", today)
    text = client.get("/", headers=HTML).get_data(as_text=True)
    soon = text[text.index('id="soon"'):text.index('id="changes"')]
    assert ('href="/models/claude-3-sonnet-20240229"' in soon) is listed


LINK = re.compile(r'href="(/[^"#]*)"|\]\((/[^)]*)\)')


@pytest.mark.parametrize("start", ["/", "/llms.txt"])
def test_every_link_of_the_pages_answers(client, start):
    seen, queue = set(), [start]
    while queue:
        path = queue.pop()
        if path in seen or path.startswith("/api/"):
            continue
        seen.add(path)
        response = client.get(path.replace("&amp;", "&"), headers=HTML)
        assert response.status_code == 200, path
        if response.mimetype in ("text/html", "text/markdown", "text/plain"):
            queue += [a or b for a, b in LINK.findall(response.get_data(as_text=True))]
    assert len(seen) > 20


@pytest.fixture
def cloud_client(tmp_path, curation_dir):
    """The fixture curation, with Bedrock retiring its id of Claude Sonnet 4.5 on 2026-12-31 (40 days on)."""
    path = curation_dir / "anthropic.yaml"
    text = path.read_text()
    anchor = "          official: [claude-sonnet-4-5-20250929, claude-sonnet-4-5]"
    assert anchor in text
    marker = text.index("        aliases:", text.index("slug: claude-sonnet-4-5-20250929"))
    path.write_text(text[:marker] + "        platforms:\n          cloud-a: {sunset_date: 2026-12-31}\n"
                    + text[marker:])
    build_db(tmp_path / "cloud.db", curation_dir)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "cloud.db")})
    yield app.test_client()
    close_thread_connections()


@pytest.mark.parametrize("path,shows", [
    # the status there, as the API answers for the Bedrock id (a scheduled shutdown is deprecated), not the model's
    # own on Anthropic's API (issue 45: the badge said one thing beside another platform's countdown)
    ("/index.md", "| [Claude Sonnet 4.5](/models/claude-sonnet-4-5-20250929.md) | Anthropic | deprecated"
                  " | Amazon Bedrock | 2026-12-31 |"),
    ("/deprecations.md", "| [Claude Sonnet 4.5](/models/claude-sonnet-4-5-20250929.md) | Anthropic"
                         " | Amazon Bedrock | 2026-12-31 |"),
    ("/models/claude-sonnet-4-5-20250929.md", "(own schedule: deprecated unknown, shutdown 2026-12-31)"),
    ("/", "in 40 days"),
])
def test_a_clouds_own_shutdown_is_shown_where_its_ids_stop_working(cloud_client, path, shows):
    assert shows in cloud_client.get(path, headers=HTML).get_data(as_text=True)


@pytest.fixture
def changed_client(app, curation_dir):
    """The fixture registry after a second curation run schedules Claude Sonnet 4's shutdown."""
    path = curation_dir / "anthropic.yaml"
    text = path.read_text()
    anchor = '        release_date: "2025-05-22"\n'
    assert text.count(anchor) == 1
    path.write_text(text.replace(anchor, anchor + '        sunset_date: "2027-03-01"\n'))
    cur = read_curation(curation_dir)
    conn = connect_rw(app.config["DATABASE"])
    try:
        apply_curation(conn, cur)
    finally:
        conn.close()
    return app.test_client()


@pytest.mark.parametrize("path,shown", [
    ("/models/claude-sonnet-4-20250514", True),
    ("/models/claude-sonnet-4-5-20250929", False),   # another model's page shows only its own changes
    ("/", True),
])
def test_recent_changes_on_the_home_and_model_pages(changed_client, path, shown):
    text = changed_client.get(path, headers=HTML).get_data(as_text=True)
    section = text[text.index('<ol class="changes">'):]
    items = section[:section.index("</ol>")].split("</li>")[:-1]
    scheduled = [i for i in items if "2027-03-01" in i and "claude-sonnet-4-20250514" in i]
    assert bool(scheduled) is shown
    if path == "/":   # the newest change is first, and leads to its model's page
        assert 'href="/models/claude-sonnet-4-20250514"' in items[0]


FAMILY = [_row(f"m{i:02}", f"20{10 + i // 12:02}-{i % 12 + 1:02}-01") for i in range(50)]


@pytest.mark.parametrize("slug,also,expected", [
    ("m00", None, ["m00", "m01", "m02", "m03"]),                       # the oldest: only newer neighbours
    ("m20", None, ["m17", "m18", "m19", "m20", "m21", "m22", "m23"]),
    ("m20", "m49", ["m17", "m18", "m19", "m20", "m21", "m22", "m23", "m49"]),   # and its upgrade
    ("m49", None, ["m46", "m47", "m48", "m49"]),
])
def test_a_model_page_draws_its_neighbours_and_its_upgrade(slug, also, expected):
    assert [r["slug"] for r in around(FAMILY, slug, also)] == expected


def test_a_family_page_draws_its_newest_releases():
    t = family_timeline(FAMILY, "2016-01-01")
    assert (t["drawn"], t["dated"]) == (MOST_ROWS, 50)
    assert [r["slug"] for r in t["wide"]["rows"]] == [r["slug"] for r in FAMILY[-MOST_ROWS:]]


@pytest.mark.parametrize("page_path", ["/", f"/models/{SONNET_35}"])
def test_the_feed_links_of_a_page_answer_their_feeds(client, page_path):
    text = client.get(page_path, headers=HTML).get_data(as_text=True)
    feeds = re.findall(r'href="(/api/v1/feeds/[^"]+)"', text)
    assert len(feeds) == 3
    for url in feeds:
        response = client.get(url.replace("&amp;", "&"))
        assert response.status_code == 200, url
        assert response.mimetype in ("application/atom+xml", "application/feed+json", "text/calendar")


# The pages' format by Accept header, asked twice: the second answer comes from the parsed headers kept per header
# (registry/web/negotiate.py), and must be the first one.
@pytest.mark.parametrize("accept, expected", [
    (None, "text/html"),
    ("*/*", "text/html"),
    ("text/markdown", "text/markdown"),
    ("text/markdown;q=0.9, text/html;q=0.8", "text/markdown"),
    ("text/html;q=0.5, text/markdown", "text/markdown"),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html"),
    ("application/json", "text/html"),
])
def test_the_page_format_of_an_accept_header_is_the_same_when_asked_again(monkeypatch, accept, expected):
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request
    from registry.web import negotiate
    monkeypatch.setattr(negotiate, "_FORMATS", {})
    environ = EnvironBuilder(path="/models/x", headers={"Accept": accept} if accept else {}).get_environ()
    assert [negotiate.page_format(Request(environ)) for _ in range(2)] == [expected, expected]
    monkeypatch.setattr(negotiate, "MAX_ACCEPT_HEADERS", 0)      # past the bound: parsed every time, not kept
    monkeypatch.setattr(negotiate, "_FORMATS", {})
    assert negotiate.page_format(Request(environ)) == expected and negotiate._FORMATS == {}


@pytest.mark.parametrize("url, status", [
    ("/?utm_source=x", 400),                        # each distinct ?x= would be another page kept (issue 44)
    ("/index.md?x=1", 400),
    ("/models/claude-sonnet-4-5-20250929?v=2", 400),
    ("/search?q=sonnet&page=2", 400),
    ("/deprecations?sort=sunset_date&colour=red", 400),
    ("/search?q=sonnet", 200),
    ("/deprecations?status=sunset&sort=sunset_date&provider=anthropic", 200),
])
def test_a_page_refuses_parameters_it_does_not_take_as_the_api_does(client, url, status):
    got = client.get(url)
    assert got.status_code == status
    if status == 400:
        assert "Unknown parameter" in got.get_data(as_text=True)


@pytest.mark.parametrize("url, says", [
    # the API's why in words (issue 45): the basis, who named it, what the move changes
    ("/models/claude-3-5-sonnet-20241022.md", "Why: the provider named it as the replacement (source: curation)"),
    ("/models/claude-sonnet-4-20250514.md", "Why: the newest working model of the same line"),
    ("/resolve.md?q=claude-3-5-sonnet-20241022", "Why: the provider named it as the replacement (source: curation)"),
])
def test_a_page_says_why_the_upgrade_as_the_api_does(client, url, says):
    assert says in client.get(url).get_data(as_text=True)


def test_the_home_pages_badge_says_what_the_api_says_for_that_platform(cloud_client):
    bedrock = cloud_client.get("/api/v1/resolve", query_string={"q": "anthropic.claude-sonnet-4-5-20250929-v1:0"})
    status = bedrock.get_json()["platform_lifecycle"]["status"]
    row = next(line for line in cloud_client.get("/index.md").get_data(as_text=True).splitlines()
               if "Amazon Bedrock" in line and "claude-sonnet-4-5-20250929" in line)
    assert f"| {status} | Amazon Bedrock |" in row


NONE = ("-", "\\-")   # an empty cell of a Markdown twin (a lone "-" escaped, as any value)


@pytest.mark.parametrize("family", ["claude-sonnet", "claude-haiku", "claude-instant", "llama-3-1-instruct"])
def test_a_family_page_says_what_the_api_says_of_each_model(client, family):
    """Issue 45: each model's status, shutdown countdown and upgrade on the family page are the API's."""
    page = client.get(f"/families/{family}.md").get_data(as_text=True)
    models = client.get(f"/api/v1/families/{family}").get_json()["models"]
    for entry in models:
        row = next(line for line in page.splitlines()
                   if line.startswith("|") and f"(/models/{entry['slug']}.md)" in line.split("|")[1])
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == entry["status"]
        shutdown = entry.get("sunset_date")
        assert (shutdown in cells[4]) if shutdown else cells[4] in NONE, (entry, cells)
        upgrade = client.get(f"/api/v1/models/{entry['slug']}/upgrade").get_json()
        named = (upgrade.get("upgrade") or {}).get("slug") if entry["status"] in ("deprecated", "sunset") else None
        assert (f"(/models/{named}.md)" in cells[5]) if named else cells[5] in NONE, (entry["slug"], upgrade)


def test_the_model_page_shows_each_platforms_price_as_the_api_gives_it(client):
    """Issue 46 item 4: the price today, its day and source, and a chart of its history, in HTML and Markdown."""
    api = client.get("/api/v1/models/claude-3-5-sonnet-20241022/prices").get_json()["prices"]
    assert [(p["platform"], p["input_per_mtok"], p["source"]) for p in api] == [("official", 3.0, "curation")]
    html = client.get("/models/claude-3-5-sonnet-20241022", headers=HTML).get_data(as_text=True)
    assert "$3 in / $15 out per 1M tokens" in html and '<svg class="price-chart"' in html
    markdown = client.get("/models/claude-3-5-sonnet-20241022.md").get_data(as_text=True)
    assert "- Provider API: $3 in / $15 out per 1M tokens, since 2024-10-22 (source: curation; 1 price)" in markdown


@pytest.mark.parametrize("periods, today, steps", [
    # one price: a flat step from its day to the right edge
    ([{"input_per_mtok": 3.0, "effective_from": "2026-01-01", "effective_to": None}], "2026-12-31",
     {"input": "44.0,8.0 316.0,8.0"}),
    # a cut: the first step ends where the second starts, lower
    ([{"input_per_mtok": 4.0, "effective_from": "2026-01-01", "effective_to": "2026-07-01"},
      {"input_per_mtok": 2.0, "effective_from": "2026-07-01", "effective_to": None}], "2026-12-31",
     {"input": "44.0,8.0 179.3,8.0 179.3,40.0 316.0,40.0"}),
])
def test_a_price_history_is_drawn_as_steps(periods, today, steps):
    from registry.pages.price_chart import chart
    drawn = chart(periods, today)
    assert {s["name"]: s["points"] for s in drawn["series"]} == steps


def test_no_chart_without_a_day_or_a_token_price():
    from registry.pages.price_chart import chart
    assert chart([{"input_per_mtok": 3.0, "effective_from": None}], "2026-12-31") is None
    assert chart([{"per_request": 0.01, "effective_from": "2026-01-01"}], "2026-12-31") is None


@pytest.mark.parametrize("query, status, shows", [
    ("models=claude-3-5-sonnet-20241022,claude-sonnet-4-5-20250929",
     200, ["| Status | deprecated | latest |", "| Price on Provider API | $3 in / $15 out per 1M tokens | \\- |"]),
    # a fact the first model lacks is still a row when another has it
    ("models=claude-sonnet-4-5-20250929,claude-3-5-sonnet-20241022",
     200, ["| Deprecated | \\- | 2025-08-13 |", "| Shutdown | \\- | 2099-10-22 |"]),
    ("models=claude-3-5-sonnet-20241022", 400, ["2 to 5 models"]),
    ("models=claude-3-5-sonnet-20241022,no-such-model", 404, ["no-such-model"]),
    ("models=a,b,c,d,e,f", 400, ["2 to 5 models"]),
    ("", 400, ["2 to 5 models"]),
])
def test_compare_puts_models_side_by_side_as_their_answers_say(client, query, status, shows):
    """Issue 46 item 4: /compare and its Markdown twin."""
    response = client.get(f"/compare.md?{query}")
    assert response.status_code == status
    text = response.get_data(as_text=True)
    assert all(s in text for s in shows), text


def test_compare_on_the_shipped_registry_gives_each_fact_and_capability_one_row(tmp_path):
    from helpers import shipped_ingested_app
    client = shipped_ingested_app(tmp_path / "registry.db", "2026-12-06").test_client()
    text = client.get("/compare.md?models=gpt-4o,gemini-2.5-pro").get_data(as_text=True)
    labels = [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| ")]
    assert len(labels) == len(set(labels)) and "| Tool calling |" in text, labels
    assert "| Deprecated | \\- | 2026-10-16 |" in text


@pytest.mark.parametrize("query, status, rows, says", [
    ("", 200, ["claude-3-sonnet-20240229", "claude-3-5-sonnet-20241022"],
     ['Models 1–2 of 4, oldest first (page 1 of 2).', '<a href="?page=2" rel="next">Newer</a>']),
    ("?page=2", 200, ["claude-sonnet-4-20250514", "claude-sonnet-4-5-20250929"],
     ['Models 3–4 of 4, oldest first (page 2 of 2).', '<a href="?page=1" rel="prev">Older</a>']),
    ("?page=3", 404, [], ["Page &#39;3 of family claude-sonnet, which has 2&#39; not found."]),
    ("?page=0", 400, [], ["&#39;page&#39;"]),
    ("?per_page=100", 400, [], ["Unknown parameter &#39;per_page&#39;"]),
])
def test_a_family_page_lists_its_models_a_page_at_a_time(client, monkeypatch, query, status, rows, says):
    """A family of hundreds (a 50k registry's) is paged, oldest first; FAMILY_PAGE models a page (2 here)."""
    from registry.pages import catalog as pages
    monkeypatch.setattr(pages, "FAMILY_PAGE", 2)
    response = client.get(f"/families/claude-sonnet{query}", headers=HTML)
    body = response.get_data(as_text=True)
    assert response.status_code == status
    table = body[body.find("<tbody>"):body.find("</tbody>")]
    assert re.findall(r'<tr><td><a href="/models/([^"]+)"', table) == rows
    assert all(said in body for said in says), body[-1500:]


def test_a_family_that_fits_on_a_page_has_no_pager(client):
    body = client.get("/families/claude-sonnet", headers=HTML).get_data(as_text=True)
    assert 'class="pager"' not in body and body.count('<tr><td><a href="/models/') == 4

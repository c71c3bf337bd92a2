"""Every field an upstream sends is untrusted (issue 28; docs/threat-model.md#upstreams).

One table: for each kind of field (id, name, URL, date, count, alias list, free text), hostile values
planted in a real upstream's own response shape and run through its real parser, with the outcome
the check of upstream values (registry/ingest/validate.py) must give: refused, with the run's
details saying why, or cleaned; and well-formed claims on another provider's lane, refused by
registry/ingest/match.py the same way. After each run every writer (JSON, HTML, the SVG timeline, Markdown,
Atom, JSON Feed, iCalendar, MCP) must still be what a strict reader accepts (tests/writers.py).
A second table plants hostile values straight into the database, as a value stored before a rule
existed would be: each writer must be safe on its own. A third sends hostile queries the Markdown
twins reflect.
"""
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import writers
from helpers import build_db, rewrite
from registry import create_app, url_policy
from registry.ingest.records import Page
from registry.ingest.runner import run_source
from registry.ingest.snapshots import save_pages
from registry.web.connection import close_thread_connections

ROOT = Path(__file__).resolve().parent.parent
SLUG = "claude-sonnet-hostile-1"          # a new Anthropic model; the claude-sonnet family's glob places it
FAMILY = "claude-sonnet"
MARKDOWN_BREAKOUT = "x` [click me](javascript:alert(4)) `y"
# A new model as Anthropic's listing gives it: released, deprecated, shutting down within 90 days of the
# pinned today (2026-11-21), so it is on the home page, /deprecations, the calendar and the timeline.
ANTHROPIC = {"type": "model", "id": SLUG, "display_name": "Claude Sonnet Hostile", "created_at": "2026-10-01T00:00:00Z",
             "max_input_tokens": 200000, "max_tokens": 64000, "lifecycle": "deprecated",
             "deprecated_at": "2026-11-01T00:00:00Z", "retires_at": "2027-01-15T00:00:00Z", "line": "sonnet"}
GEMINI = {"name": "models/gemini-hostile-1", "version": "001", "displayName": "Gemini Hostile",
          "description": "A model.", "inputTokenLimit": 1048576, "outputTokenLimit": 65536}
XAI = {"id": "grok-hostile-1", "created": 1791676800, "object": "model", "owned_by": "xai", "version": "1.0",
       "aliases": ["grok-hostile-latest"]}
# The feed's Bedrock row for a Bedrock id of the fixture: that cloud's own shutdown of it, with its page.
BEDROCK = {"provider": "AWS Bedrock", "model_id": "anthropic.claude-3-5-sonnet-20241022-v2:0",
           "announcement_date": "2026-11-01", "shutdown_date": "2027-01-10", "replacement_models": None,
           "url": "https://docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle.html"}
FEED_ANTHROPIC = {"provider": "Anthropic", "model_id": "claude-sonnet-4-20250514", "announcement_date": "2026-11-01",
                  "shutdown_date": "2027-02-01", "replacement_models": ["claude-sonnet-4-5-20250929"]}
HUB = {"id": "meta-llama/Llama-3.1-8B-Instruct", "createdAt": "2024-07-18T08:56:00.000Z",
       "pipeline_tag": "text-generation", "tags": ["llama", "conversational"], "safetensors": {"total": 8030261248}}


def wrapped(source: str, items: list):
    """A one-page listing of a source holding items, in that upstream's own response shape."""
    return {"vendor-b-api": lambda: {"data": items, "has_more": False}, "vendor-c-api": lambda: {"models": items},
            "vendor-f-api": lambda: {"models": items}, "deprecation-feed": lambda: items,
            "model-hub": lambda: items}[source]()


@dataclass
class Case:
    """One hostile value: where it is planted, and what must come of it.

    outcome "refused": the value (or the record, for an id) is refused and `refused` is in a line of the
    run's details; "cleaned": `path` of the API's model answer reads `expected` (None: absent).
    """

    name: str
    kind: str
    source: str
    item: dict
    outcome: str
    refused: str = ""
    path: str = ""
    expected: object = None
    slug: str = SLUG
    shown: list = field(default_factory=list)   # (url, text) the writer must show, escaped as it writes

    def __str__(self):
        return self.name


def anthropic(**fields):
    return {**ANTHROPIC, **fields}


CASES = [
    # id: never cleaned (a cleaned id is another id): the whole record is refused
    Case("id with a Markdown break-out", "id", "vendor-b-api", anthropic(id=MARKDOWN_BREAKOUT), "refused",
         "its id 'x` [click me](javascript:alert(4)) `y' is not an identifier"),
    Case("id with a line break", "id", "vendor-b-api", anthropic(id="claude-x\n# Injected"), "refused",
         "is not an identifier"),
    Case("id with a pipe", "id", "vendor-b-api", anthropic(id="claude-x|y"), "refused", "is not an identifier"),
    Case("id with HTML", "id", "vendor-b-api", anthropic(id="<img src=x onerror=alert(1)>"), "refused",
         "is not an identifier"),
    Case("id of 300 characters", "id", "vendor-b-api", anthropic(id="claude-" + "x" * 300), "refused",
         "longer than 200 characters"),
    Case("id with a control character", "id", "vendor-f-api", {**XAI, "id": "grok\u0001x"}, "refused",
         "is not an identifier"),
    # name: one line, no control or invisible characters; Markdown and HTML kept as text, escaped by writers
    Case("name with control characters", "name", "vendor-b-api", anthropic(display_name="Evil\u0001\u0008\u000cName"),
         "cleaned", path="display_name", expected="EvilName"),
    Case("name with CRLF and Markdown blocks", "name", "vendor-b-api",
         anthropic(display_name="Line\r\n# Heading\r\n- item"), "cleaned", path="display_name",
         expected="Line # Heading - item", shown=[(f"/models/{SLUG}.md", "# Line \\# Heading - item")]),
    Case("name with a Markdown link and a pipe", "name", "vendor-b-api",
         anthropic(display_name="x` [click me](javascript:alert(4)) | y"), "cleaned", path="display_name",
         expected="x` [click me](javascript:alert(4)) | y",
         shown=[(f"/models/{SLUG}.md", "x\\` \\[click me\\](javascript:alert(4)) \\| y"),
                (f"/models/{SLUG}", "x` [click me](javascript:alert(4)) | y")]),
    Case("name with HTML", "name", "vendor-b-api", anthropic(display_name="<script>alert(1)</script>"), "cleaned",
         path="display_name", expected="<script>alert(1)</script>",
         shown=[(f"/models/{SLUG}", "&lt;script&gt;alert(1)&lt;/script&gt;")]),
    Case("name with a right-to-left override", "name", "vendor-b-api", anthropic(display_name="Claude \u202eevil"),
         "cleaned", path="display_name", expected="Claude evil"),
    Case("name of 500 characters", "name", "vendor-b-api", anthropic(display_name="N" * 500), "refused",
         "display_name 'NNN", path="display_name", expected=SLUG),   # no name stated: the slug is shown
    # URL: http(s) only, everywhere a URL is stored
    Case("javascript: URL", "URL", "deprecation-feed", {**BEDROCK, "url": "javascript:alert(document.domain)//"},
         "refused", "platforms.cloud-a.deprecation_url 'javascript:alert(document.domain)//' is not a link",
         path="metadata.platforms.cloud-a.deprecation_url", expected=None, slug="claude-3-5-sonnet-20241022"),
    Case("data: URL", "URL", "deprecation-feed", {**BEDROCK, "url": "data:text/html,<script>alert(1)</script>"},
         "refused", "deprecation_url", path="metadata.platforms.cloud-a.deprecation_url", expected=None,
         slug="claude-3-5-sonnet-20241022"),
    Case("URL that leaves an attribute", "URL", "deprecation-feed", {**BEDROCK, "url": 'https://x.test/"onmouseover="x'},
         "refused", "must percent-encode", path="metadata.platforms.cloud-a.deprecation_url", expected=None,
         slug="claude-3-5-sonnet-20241022"),
    Case("http URL (kept)", "URL", "deprecation-feed", BEDROCK, "cleaned",
         path="metadata.platforms.cloud-a.deprecation_url", expected=BEDROCK["url"], slug="claude-3-5-sonnet-20241022",
         shown=[("/", f'<a href="{BEDROCK["url"]}">Amazon Bedrock</a>')]),
    # date: a day in 1990..2100, else refused and the run says why
    Case("shutdown on 9999-12-31", "date", "vendor-b-api", anthropic(retires_at="9999-12-31T00:00:00Z"), "refused",
         "sunset_date '9999-12-31' is outside 1990-01-01..2100-12-31", path="sunset_date", expected=None),
    Case("deprecation in 2101", "date", "vendor-b-api", anthropic(deprecated_at="2101-01-01T00:00:00Z"), "refused",
         "deprecation_date '2101-01-01' is outside", path="deprecation_date", expected=None),
    Case("release in 1989", "date", "vendor-b-api", anthropic(created_at="1989-12-31T00:00:00Z"), "refused",
         "release_date '1989-12-31' is outside", path="release_date", expected=None),
    Case("feed shutdown on 9999-12-31", "date", "deprecation-feed", {**FEED_ANTHROPIC, "shutdown_date": "9999-12-31"},
         "refused", "sunset_date '9999-12-31' is outside", path="sunset_date", expected=None,
         slug="claude-sonnet-4-20250514"),
    Case("creation time past year 9999", "date", "vendor-f-api", {**XAI, "created": 10**20}, "refused",
         "created 100000000000000000000 is not a UTC timestamp", path="metadata.created", expected=None,
         slug="grok-hostile-1"),
    Case("creation time before 1990", "date", "vendor-f-api", {**XAI, "created": 86400}, "refused",
         "created '1970-01-02T00:00:00Z' is outside", path="metadata.created", expected=None, slug="grok-hostile-1"),
    Case("platform shutdown on 9999-12-31", "date", "deprecation-feed", {**BEDROCK, "shutdown_date": "9999-12-31"},
         "refused", "platforms.cloud-a.sunset_date '9999-12-31' is outside",
         path="metadata.platforms.cloud-a.sunset_date", expected=None, slug="claude-3-5-sonnet-20241022"),
    # count: bounded, whole
    Case("negative context window", "count", "vendor-b-api", anthropic(max_input_tokens=-5), "refused",
         "input_context_window -5 is outside 1..100,000,000", path="input_context_window", expected=None),
    # a zero is no window either, and is said so like a negative one (issue 44)
    Case("zero output window", "count", "vendor-b-api", anthropic(max_tokens=0), "refused",
         "output_context_window 0 is outside 1..100,000,000", path="output_context_window", expected=None),
    Case("zero context window (Gemini)", "count", "vendor-c-api", {**GEMINI, "inputTokenLimit": 0}, "refused",
         "input_context_window 0 is outside", path="input_context_window", expected=None, slug="gemini-hostile-1"),
    Case("output window of a trillion", "count", "vendor-b-api", anthropic(max_tokens=10**12), "refused",
         "output_context_window", path="output_context_window", expected=None),
    Case("window past 64 bits", "count", "vendor-c-api", {**GEMINI, "inputTokenLimit": 2**70}, "refused",
         "input_context_window", path="input_context_window", expected=None, slug="gemini-hostile-1"),
    Case("negative parameter count", "count", "model-hub", {**HUB, "safetensors": {"total": -5}}, "refused",
         "parameter_count -5 is outside", path="parameter_count", expected=8030261248,   # curation's count stands
         slug="llama-3.1-8b-instruct"),
    # alias list: each alias an identifier, the bad ones refused one by one
    Case("alias list with hostile ids", "alias list", "vendor-f-api",
         {**XAI, "aliases": ["grok-hostile-latest", MARKDOWN_BREAKOUT, "grok x", "g" * 300, "grok\u202elatest"]},
         "refused", "alias 'x` [click me](javascript:alert(4)) `y' is not an identifier", path="aliases",
         expected=["grok-hostile-1", "grok-hostile-latest"], slug="grok-hostile-1"),
    # free text: controls out (lines kept), bounded
    Case("description with controls", "free text", "vendor-c-api",
         {**GEMINI, "description": "one\u0000two\r\nthree ``` [x](javascript:1) \u202e"}, "cleaned",
         path="metadata.description", expected="onetwo\nthree ``` [x](javascript:1)", slug="gemini-hostile-1"),
    Case("description of 10,000 characters", "free text", "vendor-c-api", {**GEMINI, "description": "d" * 10000},
         "refused", "description 'ddd", path="metadata.description", expected=None, slug="gemini-hostile-1"),
    # every part within its own bound (200 keys, 200 characters a name, nested 3), together ~4 MB: the record's
    # own bound drops it, the model's other facts stay (issue 44 hole 4)
    Case("metadata of megabytes, each part in bounds", "free text", "vendor-b-api",
         anthropic(capabilities={f"k{i}": {f"j{j}": "x" * 190 for j in range(100)} for i in range(200)}), "refused",
         "capabilities (", path="metadata.capabilities", expected=None),
    Case("metadata nested 10 deep", "free text", "vendor-b-api",
         anthropic(capabilities={"a": json.loads('{"b":' * 9 + "1" + "}" * 9)}), "refused",
         "capabilities", path="metadata.capabilities", expected=None),
    Case("tag with a line break", "free text", "model-hub", {**HUB, "tags": ["llama", "conversational", "x\ny"]},
         "cleaned", path="metadata.tags", expected=["llama", "conversational", "x y"], slug="llama-3.1-8b-instruct"),
    # lane: a well-formed record on another provider's model, alias or replacement (decisions 11; match.py)
    Case("a listing retiring another provider's model", "lane", "vendor-b-api",
         anthropic(id="Llama-3.1-8B-Instruct", retires_at="2026-12-01T00:00:00Z"), "refused",
         "a model of meta, not of anthropic", path="sunset_date", expected=None, slug="llama-3.1-8b-instruct"),
    Case("an alias list taking another provider's alias", "lane", "vendor-f-api",
         {**XAI, "aliases": ["claude-3-5-sonnet-latest"]}, "refused", "alias claude-3-5-sonnet-latest is",
         path="aliases", expected=["claude-3-5-sonnet-20241022", "claude-3-5-sonnet-latest",
                                   "anthropic.claude-3-5-sonnet-20241022-v2:0",
                                   "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-v2@20241022",
                                   "anthropic/claude-3.5-sonnet"], slug="claude-3-5-sonnet-20241022"),
    Case("a feed row naming another provider's replacement", "lane", "deprecation-feed",
         {**FEED_ANTHROPIC, "replacement_models": ["Llama-3.1-70B-Instruct"]}, "refused",
         "replacement llama-3.1-70b-instruct is meta's", path="successor", expected=None,
         slug="claude-sonnet-4-20250514"),
]


@pytest.fixture
def hostile_app(tmp_path, curation_dir):
    """The fixture curation with Google and xAI as providers too (their listings' models have a home)."""
    with open(curation_dir / "providers.yaml", "a", encoding="utf-8") as providers:
        providers.write("- slug: google\n  name: Google\n  website_url: https://ai.google.dev\n  api_models_url: null\n"
                        "- slug: xai\n  name: xAI\n  website_url: https://x.ai\n  api_models_url: null\n")
    build_db(tmp_path / "registry.db", curation_dir)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "registry.db"), "ADMIN_API_KEYS": []})
    yield app
    close_thread_connections()


def plant(app, tmp_path, source: str, item: dict):
    """Run a source over a one-page snapshot holding item, through its real parser; return the result."""
    seeds = tmp_path / f"seeds-{source}"
    save_pages(str(seeds), source, [Page(wrapped(source, [item]))])
    result = run_source(app.config["DATABASE"], source, offline=True, seeds_dir=str(seeds))
    assert result.status == "completed", result.error
    return result


def dig(answer: dict, path: str):
    value = answer
    for part in path.split("."):
        if value is None:
            return None
        value = value.get(part) if isinstance(value, dict) else None
    return value


def benign(case: Case) -> dict:
    """The same record without the hostile value: planted first, so the hostile run is a change too."""
    return {"vendor-b-api": ANTHROPIC, "vendor-c-api": GEMINI, "vendor-f-api": XAI, "deprecation-feed":
            BEDROCK if case.item.get("provider") == "AWS Bedrock" else FEED_ANTHROPIC, "model-hub": HUB}[case.source]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_hostile_upstream_value_is_refused_or_cleaned_and_every_writer_holds(hostile_app, tmp_path, case):
    client = hostile_app.test_client()
    if case.kind not in ("id", "lane"):
        plant(hostile_app, tmp_path, case.source, benign(case))
    before = client.get("/api/v1/changes?limit=200").get_json()["changes"]
    result = plant(hostile_app, tmp_path, case.source, case.item)
    details = result.details
    if case.outcome == "refused":
        assert any(case.refused in line for line in details.get("refused", [])), details
        if case.kind == "id":
            assert details["outcomes"] == {"refused: its id is not an identifier": 1}, details
        elif case.kind == "lane":   # counted with the records (match.py), as tests/test_lanes.py has it
            assert sum(n for why, n in details["outcomes"].items() if why.startswith("refused")) >= 1, details
        else:
            assert sum(details["refused_values"].values()) >= 1, details
    else:
        assert "refused" not in details, details
    if case.kind == "id":
        writers.everywhere(client)
        assert client.get("/api/v1/changes?limit=200").get_json()["changes"] == before   # nothing was written
        return
    model = client.get(f"/api/v1/models/{case.slug}").get_json()
    got = [a["alias"] for a in model["aliases"]] if case.path == "aliases" else dig(model, case.path)
    assert got == case.expected, model
    bodies = writers.everywhere(client, case.slug, model["family"]["slug"])
    for url, text in case.shown:
        body = bodies[url] if url in bodies else client.get(url).data
        assert text in body.decode("utf-8"), (url, text)


# Values stored before a rule existed (or curated, or by hand): each writer must hold on its own.
STORED = [
    ("display name with controls", "UPDATE models SET display_name = ? WHERE slug = ?",
     "Evil\u0001\u0008\u000c\u001bName\u202e"),
    ("display name breaking Markdown", "UPDATE models SET display_name = ? WHERE slug = ?",
     "x` [click me](javascript:alert(4)) |\r\n# y"),
    ("shutdown on 9999-12-31", "UPDATE models SET sunset_date = ? WHERE slug = ?", "9999-12-31"),
    ("release on 0001-01-01", "UPDATE models SET release_date = ? WHERE slug = ?", "0001-01-01"),
    ("javascript: canonical URL", "UPDATE models SET canonical_url = ? WHERE slug = ?", "javascript:alert(1)//"),
    ("javascript: platform page", "UPDATE models SET metadata = json_set(coalesce(metadata, '{}'),"
     " '$.platforms', json(?)) WHERE slug = ?",
     json.dumps({"cloud-a": {"sunset_date": "2026-12-01", "deprecation_url": "javascript:alert(document.domain)//",
                             "source": "deprecation-feed"}})),
    ("change with controls", "INSERT INTO changes (occurred_at, kind, model_slug, family_slug, provider_slug,"
     " field, old, new, source, title) SELECT '2026-11-20T00:00:00Z', 'field_changed', slug, 'claude-sonnet',"
     " 'anthropic', 'display_name', json_quote('a' || char(1)), json_quote(?1), 'vendor-b-api', ?1"
     " FROM models WHERE slug = ?2",
     "t\u0001i\u0008t\u000cl\u001be [x](javascript:1)\r\n# z"),
]


@pytest.mark.parametrize("name, sql, value", STORED, ids=[s[0] for s in STORED])
def test_every_writer_is_safe_on_its_own(app, client, rw, name, sql, value):
    slug = "claude-3-5-sonnet-20241022"
    rewrite(rw, sql, value, slug)
    writers.everywhere(client, slug, FAMILY)


# Queries the twins echo back (issue 28, item 6): never a link, a code span break-out or a new line.
REFLECTED = ["x` [click](javascript:alert(1)) `", "``` <img src=x onerror=alert(1)>", "a | b | c", "# heading",
             "[x]: javascript:alert(1)", "<javascript:alert(1)>", "x\\` [y](javascript:z) \\`"]


@pytest.mark.parametrize("path", ["/resolve.md", "/search.md", "/resolve", "/search"])
@pytest.mark.parametrize("q", REFLECTED)
def test_a_reflected_query_stays_text(client, path, q):
    response = client.get(path, query_string={"q": q})
    assert response.status_code in (200, 404), response.get_data(as_text=True)[:300]
    check = writers.check_markdown if path.endswith(".md") else writers.check_html
    check(response.data, f"{path}?q={q}")


def test_no_markdown_template_writes_a_value_into_a_code_span_by_hand():
    """Inside backticks the escaping of every value would show, and a backtick in the value would close the
    span: a value that belongs in a code span goes through the `code` filter (registry/pages/escaping.py)."""
    templates = ROOT / "registry" / "pages" / "templates"
    by_hand = [(path.name, line) for path in sorted(templates.glob("*.md")) + [templates / "llms.txt"]
               for line in path.read_text(encoding="utf-8").splitlines()
               for span in re.findall(r"`[^`]*`", line) if "{{" in span and "|safe }}" not in span]
    assert by_hand == []


@settings(max_examples=300, deadline=None)
@given(st.from_regex(url_policy.PLAIN_URL, fullmatch=True).filter(lambda u: len(u) <= url_policy.MAX_URL))
def test_the_url_policys_fast_path_accepts_only_what_the_long_way_accepts(url):
    """The one URL policy skips parsing for the usual shape (registry/url_policy.py): never for a URL the
    parse would refuse."""
    assert url_policy.parsed_problem(url) is None


# The transport (issue 28; docs/threat-model.md#upstreams): what no page may be. Each is the upstream's fault:
# the run fails with a message saying so, as a SourceError (no trace), and nothing it had is lost.
TRANSPORT = [
    ("nested 100,000 deep", b"[" * 100_000, "malformed JSON: nested deeper"),
    ("NaN", b'{"data": [{"id": "gpt-x", "created": NaN}]}', "malformed JSON: NaN is not JSON"),
    ("1e400", b'{"data": [{"id": "gpt-x", "created": 1e400}]}', "malformed JSON: 1e400 is not a finite number"),
    ("larger than the bound", b'{"data": [' + b'{"id": "gpt-x"},' * 4000 + b'{"id": "gpt-y"}]}',
     "the response is larger than 50,000 bytes"),
]


@pytest.mark.parametrize("case, body, message", TRANSPORT, ids=[t[0] for t in TRANSPORT])
def test_a_page_no_reader_agrees_on_fails_only_its_run(app, client, monkeypatch, case, body, message):
    import responses as mock

    from registry.ingest import http
    from registry.ingest.http import make_session
    from registry.ingest.sources import load
    if case == "larger than the bound":
        monkeypatch.setattr(http, "MAX_BODY", 50_000)   # its page of 4,000 items is 64 KB
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    before = client.get("/api/v1/models?per_page=200").get_json()
    module = load("vendor-a-api")
    with mock.RequestsMock() as upstream:
        upstream.add(mock.GET, module.BASE_URL + module.PATH, body=body, content_type="application/json")
        result = run_source(app.config["DATABASE"], "vendor-a-api", session=make_session(retries=0))
    assert (result.status, result.trace) == ("failed", None), result
    assert message in result.error
    assert client.get("/api/v1/models?per_page=200").get_json() == before


# -- a listing that floods memory (issue 44 hole 5) ------------------------------------------------------------

@pytest.fixture
def flooding_upstream():
    """A real HTTP server answering every GET with one 15 MB OpenRouter-shaped page of 400,000 tiny items (under
    the 16 MiB page bound; parsed, it takes some 700 MB)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    body = ('{"data":[' + ",".join('{"id":"openai/m%07d","n":[1,2,3,4]}' % i for i in range(400000)) + ']}').encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_an_admin_triggered_run_that_floods_memory_fails_alone(app, rw, flooding_upstream, monkeypatch):
    """The run is done in a child process of REGISTRY_INGEST_MEMORY_MB: it fails in words, nothing is written,
    and the server that triggered it keeps answering (it went down with the run before)."""
    import time
    monkeypatch.setenv("REGISTRY_OPENROUTER_CATALOG_URL", flooding_upstream)
    app.config.update(ADMIN_API_KEYS=["k"], INGEST_MEMORY_MB=400)
    client = app.test_client()
    before = client.get("/api/v1/changes?limit=200").get_json()["changes"]
    started = client.post("/api/v1/admin/ingest/openrouter-catalog", headers={"Authorization": "Bearer k"})
    assert started.status_code == 202
    run_id = started.get_json()["ingestion_run"]["id"]
    deadline = time.time() + 120
    while rw.execute("SELECT status FROM ingestion_runs WHERE id = ?", (run_id,)).fetchone()[0] == "running":
        assert client.get("/api/v1/providers").status_code == 200   # the server answers all along
        assert time.time() < deadline
        time.sleep(0.2)
    status, message = rw.execute("SELECT status, error_message FROM ingestion_runs WHERE id = ?", (run_id,)).fetchone()
    assert (status, message) == ("failed", "the run needed more memory than it may use (REGISTRY_INGEST_MEMORY_MB);"
                                           " nothing was written")
    assert client.get("/api/v1/changes?limit=200").get_json()["changes"] == before


def test_a_runs_pages_are_bounded_in_all(monkeypatch):
    """Each page within its bound, together past the run's: the run fails with what it met, before more is read."""
    import responses as mocked

    from registry.ingest import http
    from registry.ingest.records import SourceError
    monkeypatch.setattr(http, "MAX_RUN_BODY", 3 * 2**20)
    page = {"data": [{"id": f"openai/m{i}", "pad": "x" * 900} for i in range(1000)]}   # ~1 MB each
    session = http.make_session(retries=0)
    with mocked.RequestsMock() as rsps:
        rsps.get("http://upstream.test/page", json=page)
        with pytest.raises(SourceError, match="the run's pages are larger than 3,145,728 bytes in all"):
            for _ in range(5):
                http.get_json(session, "http://upstream.test/page")

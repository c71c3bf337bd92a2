"""Hostile and malformed input: always a JSON answer in the spec's shape, never a 500."""
import pytest

from helpers import assert_error

LONG = "a" * 10_000
HUGE = "9" * 40
CODES = {400: "bad_request", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed"}


def check(response, allowed):
    """The status is one of allowed; errors have the spec's shape; successes are JSON."""
    assert response.status_code in allowed, (response.status_code, response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        assert_error(response, response.status_code, CODES[response.status_code])
    else:
        assert response.mimetype == "application/json"
        assert response.get_json() is not None
    assert "X-RateLimit-Limit" in response.headers


# (case, URL with its raw query string, statuses the answer may have)
@pytest.mark.parametrize("case,url,allowed", [
    # NUL and other control characters
    ("nul in q (search)", "/api/v1/search?q=a%00b", {400}),
    ("nul alone in q (resolve)", "/api/v1/resolve?q=%00", {400}),
    ("nul in a filter", "/api/v1/models?provider=anth%00ropic", {400}),
    ("nul in a slug", "/api/v1/models/claude%00", {404}),
    ("C1 control in q", "/api/v1/search?q=a%C2%85b", {400}),
    ("newline in q", "/api/v1/resolve?q=gpt-4%0A", {400}),
    # length
    ("10,000-character q (search)", f"/api/v1/search?q={LONG}", {400}),
    ("10,000-character q (resolve)", f"/api/v1/resolve?q={LONG}", {400}),
    ("10,000-character filter", f"/api/v1/families?provider={LONG}", {400}),
    ("~20k-character path", "/api/v1/models/" + "x" * 20_000, {404}),
    ("~20k-character query", "/api/v1/models?family=" + "x" * 20_000, {400}),
    ("~20k-character unknown parameter", "/api/v1/providers?" + "x" * 20_000 + "=1", {200}),
    # blank and missing
    ("empty q", "/api/v1/search?q=", {400}),
    ("blank q", "/api/v1/resolve?q=%20%20%09", {400}),
    ("missing q", "/api/v1/search", {400}),
    # invalid percent-encoding and non-UTF-8 bytes (refused: hardening decodes each parameter strictly)
    ("bad escape %zz", "/api/v1/search?q=%zz", {200, 400}),
    ("truncated escape", "/api/v1/resolve?q=abc%", {200, 400, 404}),
    ("non-UTF-8 q", "/api/v1/search?q=%ff%fe", {400}),
    ("non-UTF-8 q (resolve)", "/api/v1/resolve?q=%ff%fe", {400}),
    ("overlong UTF-8 slash", "/api/v1/models/%c0%af", {404}),
    ("non-UTF-8 slug", "/api/v1/providers/%ff", {404}),
    ("non-UTF-8 parameter name", "/api/v1/models?%ff=1", {400}),
    # integers: huge, negative, fractional, not numbers, other scripts' digits
    ("huge page", f"/api/v1/models?page={HUGE}", {400}),
    ("huge per_page", f"/api/v1/models?per_page={HUGE}", {400}),
    ("huge min_params", f"/api/v1/models?min_params={HUGE}", {400}),
    ("page 0", "/api/v1/models?page=0", {400}),
    ("negative page", "/api/v1/models?page=-1", {400}),
    ("negative per_page", "/api/v1/models?per_page=-50", {400}),
    ("negative min_params", "/api/v1/models?min_params=-1", {400}),
    ("per_page over 200", "/api/v1/models?per_page=201", {400}),
    ("fractional page", "/api/v1/models?page=1.5", {400}),
    ("exponent per_page", "/api/v1/models?per_page=1e2", {400}),
    ("hex page", "/api/v1/models?page=0x10", {400}),
    ("empty page", "/api/v1/models?page=", {400}),
    ("Arabic-Indic digit", "/api/v1/models?page=%D9%A3", {400}),
    ("fullwidth digit", "/api/v1/search?q=claude&limit=%EF%BC%95", {400}),
    ("search limit 0", "/api/v1/search?q=claude&limit=0", {400}),
    ("search limit huge", f"/api/v1/search?q=claude&limit={HUGE}", {400}),
    ("min above max", "/api/v1/models?min_params=10&max_params=1", {400}),
    # prices: any number the OpenAPI document allows (0 to 100000), nothing else
    ("price of many decimals", "/api/v1/models?max_input_price=80526.0277285976", {200}),
    ("price with an exponent", "/api/v1/search?q=claude&max_output_price=1e-05", {200}),
    ("price over the maximum", "/api/v1/models?max_input_price=100000.5", {400}),
    ("price exponent overflow", "/api/v1/models?max_input_price=1e999", {400}),
    ("negative price", "/api/v1/models?max_input_price=-1", {400}),
    ("price nan", "/api/v1/models?max_input_price=nan", {400}),
    ("price inf", "/api/v1/models?max_output_price=inf", {400}),
    ("price hex", "/api/v1/models?max_input_price=0x10", {400}),
    ("price of a fullwidth digit", "/api/v1/models?max_input_price=%EF%BC%95", {400}),
    # enums and booleans
    ("unknown status", "/api/v1/models?status=retired", {400}),
    ("status case", "/api/v1/models?status=ACTIVE", {400}),
    ("sql in sort", "/api/v1/models?sort=release_date;DROP%20TABLE%20models", {400}),
    ("open_source yes", "/api/v1/families?open_source=yes", {400}),
    # repeated parameters
    ("repeated page", "/api/v1/models?page=1&page=2", {400}),
    ("repeated q", "/api/v1/search?q=a&q=b", {400}),
    ("repeated status", "/api/v1/models?status=active&status=latest", {400}),
    ("repeated filter", "/api/v1/families?provider=anthropic&provider=openai", {400}),
    # FTS5 operators and syntax are searched as text, never run as a query
    ("FTS OR", "/api/v1/search?q=claude%20OR%20gpt", {200}),
    ("FTS NOT", "/api/v1/search?q=claude%20NOT%20sonnet", {200}),
    ("FTS NEAR", "/api/v1/search?q=NEAR(claude%20sonnet)", {200}),
    ("FTS column filter", "/api/v1/search?q=slug:claude", {200}),
    ("FTS star", "/api/v1/search?q=*", {200}),
    ("FTS caret", "/api/v1/search?q=%5Eclaude", {200}),
    ("unbalanced quote", "/api/v1/search?q=%22claude", {200}),
    ("unbalanced paren", "/api/v1/search?q=(claude", {200}),
    ("lone minus", "/api/v1/search?q=-", {200}),
    ("quotes only", "/api/v1/search?q=%22%22", {200}),
    ("LIKE wildcards (resolve)", "/api/v1/resolve?q=%25", {200, 404}),
    ("underscore (resolve)", "/api/v1/resolve?q=_", {200, 404}),
    ("SQL quote (resolve)", "/api/v1/resolve?q=%27%20OR%201=1--", {404}),
    ("emoji", "/api/v1/search?q=%F0%9F%A6%99", {200}),
    # path traversal in slugs
    ("encoded traversal", "/api/v1/models/..%2f..%2fetc%2fpasswd", {404}),
    ("encoded traversal (upgrade)", "/api/v1/models/..%2f..%2fetc%2fpasswd/upgrade", {404}),
    ("dot-dot slug", "/api/v1/providers/..", {404}),
    ("encoded dot-dot", "/api/v1/families/%2e%2e", {404}),
    ("backslash traversal", "/api/v1/models/..%5c..%5cwindows", {404}),
    ("traversal above the prefix", "/api/v1/../../etc/passwd", {404}),
    ("double slash", "/api/v1//models", {404}),
    # wrong methods and unknown routes
    ("unknown admin source", "/api/v1/admin/ingest/..%2fvendor-a-api", {404, 405}),
])
def test_bad_input_is_a_json_4xx_never_500(client, case, url, allowed):
    check(client.get(url), allowed)


# Raw bytes that are not percent-encoded, straight into the WSGI environ (latin-1 strings per PEP 3333).
# A raw non-UTF-8 query string made werkzeug's request.args raise (a 500) until registry/hardening.py.
RUNS, PROVIDERS = "/api/v1/admin/ingestion-runs", "/api/v1/providers"


@pytest.mark.parametrize("case,environ,allowed", [
    ("raw non-UTF-8 query", {"PATH_INFO": "/api/v1/search", "QUERY_STRING": "q=\xff\xfe"}, {400}),
    ("raw bad UTF-8 (resolve)", {"PATH_INFO": "/api/v1/resolve", "QUERY_STRING": "q=\xc3\x28"}, {400}),
    ("raw non-UTF-8 on a 404", {"PATH_INFO": "/nowhere", "QUERY_STRING": "\xff"}, {400, 404}),
    ("raw UTF-8 query", {"PATH_INFO": "/api/v1/search", "QUERY_STRING": "q=\xc3\xa9"}, {200}),
    ("raw non-UTF-8 path", {"PATH_INFO": "/api/v1/models/\xff\xfe"}, {404}),
    ("raw NUL in path", {"PATH_INFO": "/api/v1/providers/\x00"}, {404}),
    ("raw non-UTF-8 key", {"PATH_INFO": RUNS, "HTTP_AUTHORIZATION": "Bearer \xff\xfe"}, {401}),
    ("raw control chars in key", {"PATH_INFO": RUNS, "HTTP_AUTHORIZATION": "Bearer a\x00b"}, {401}),
    ("garbage If-None-Match", {"PATH_INFO": PROVIDERS, "HTTP_IF_NONE_MATCH": "\xff\"\x00"}, {200}),
    ("garbage X-Forwarded-For", {"PATH_INFO": PROVIDERS, "HTTP_X_FORWARDED_FOR": "\xff, , ::"}, {200}),
])
def test_raw_bytes_are_a_json_answer_never_500(app, case, environ, allowed):
    app.config["ADMIN_API_KEYS"] = ["a-key"]
    check(app.test_client().get("/", environ_overrides=environ), allowed)


@pytest.mark.parametrize("method,url", [
    ("POST", "/api/v1/search?q=x"),
    ("PUT", "/api/v1/models/claude-sonnet-4-5-20250929"),
    ("PATCH", "/api/v1/providers"),
    ("DELETE", "/api/v1/admin/ingestion-runs"),
    ("GET", "/api/v1/admin/ingest/model-hub"),
])
def test_wrong_methods_are_405_with_allow(client, method, url):
    response = client.open(url, method=method, data=b"\xff\x00" * 1000)
    check(response, {405})
    assert response.headers["Allow"]


def test_body_on_a_post_is_ignored_not_parsed(app):
    app.config["ADMIN_API_KEYS"] = ["a-key"]
    headers = {"Authorization": "Bearer a-key", "Content-Type": "application/json"}
    check(app.test_client().post("/api/v1/admin/ingest/x", data=b"{not json\xff", headers=headers), {400})


# Invalid UTF-8 sent as percent-escapes is bad input, not text to look up (issue 15, item 7).
@pytest.mark.parametrize("url,parameter", [
    ("/api/v1/resolve?q=x%ffy", "q"),
    ("/api/v1/search?q=%c3%28", "q"),
    ("/api/v1/search?q=claude&provider=%e2%82", "provider"),
    ("/api/v1/models?family=%ff&page=1", "family"),
    ("/api/v1/resolve?q=a+%c0%af", "q"),
    ("/api/v1/search?q=%c3&limit=%a9", "q"),            # one character's bytes split by a separator
    ("/api/v1/search?q=%c3%a9&provider=x%26%a9", "provider"),
])
def test_percent_escaped_invalid_utf8_names_the_parameter(client, url, parameter):
    response = client.get(url)
    assert_error(response, 400, "bad_request", f"Parameter '{parameter}'")
    assert "X-RateLimit-Limit" in response.headers


@pytest.mark.parametrize("url", [
    "/api/v1/search?q=%c3%a9t%c3%a9",          # été: valid UTF-8 escapes still work
    "/api/v1/resolve?q=gpt%2D4o",
    "/api/v1/search?q=100%25",
    "/api/v1/models?family=%c3%a9&provider=%e2%82%ac%26",   # an escaped separator inside a valid value
])
def test_valid_percent_escapes_are_still_text(client, url):
    assert client.get(url).status_code in (200, 404)


@pytest.mark.parametrize("url", ["/api/v1/providers", "/api/v1/nowhere", "/api/v1/search",
                                 "/api/v1/resolve?q=x%ffy"])
def test_every_answer_says_nosniff(client, url):
    assert client.get(url).headers.get("X-Content-Type-Options") == "nosniff"

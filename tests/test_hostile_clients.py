"""Every byte a client sends is bounded (issue 28, items 4, 5 and 8; docs/threat-model.md#clients).

Against a real server (gunicorn, raw sockets) and the app: a body larger than REGISTRY_MAX_BODY_BYTES is
a 413 before it is read; JSON nested past the limit, a malformed chunked body, NaN: a 4xx in the error
shape, never a 500; forwarded headers are believed only as TRUSTED_PROXIES says, and the response cache
never serves one client's scheme to another.
"""
import json
import shutil
import socket
import time

import pytest

from helpers import DATA, TODAY, assert_error, build_db
from servers import Server, registry_command, server_env

KEY = "hostile-admin-key"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIMIT = 1048576   # REGISTRY_MAX_BODY_BYTES' default


@pytest.fixture(scope="module")
def db_path(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile-clients")
    shutil.copytree(DATA / "curation", tmp / "curation")
    build_db(tmp / "registry.db", tmp / "curation")
    return tmp / "registry.db"


def serve(db_path, log, **env):
    srv = Server(registry_command(), server_env(db_path, REGISTRY_TODAY=TODAY, ADMIN_API_KEY=KEY, **env), log)
    srv.wait_ready()
    return srv


@pytest.fixture(scope="module")
def server(db_path):
    srv = serve(db_path, db_path.parent / "serve.log")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def proxied(db_path):
    srv = serve(db_path, db_path.parent / "serve-proxied.log", TRUSTED_PROXIES="1")
    yield srv
    srv.stop()


def answer(server, raw: bytes, timeout: float = 10) -> tuple[int, dict, bytes, float]:
    """Send raw bytes, read one answer (its head and Content-Length bytes): (status, headers, body, seconds)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(raw)
        out = b""
        while b"\r\n\r\n" not in out:
            chunk = sock.recv(65536)
            assert chunk, f"closed without an answer: {out!r}"
            out += chunk
        head, _, body = out.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        while len(body) < int(headers.get("Content-Length", 0)):
            chunk = sock.recv(65536)
            assert chunk, "closed in the middle of the answer"
            body += chunk
    return int(lines[0].split()[1]), headers, body, time.monotonic() - started


def request(method: str, path: str, headers: dict, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: x", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def chunked(*chunks: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


def assert_json_error(status, headers, body, expected: int, code: str):
    assert status == expected, body[:300]
    assert headers["Content-Type"] == "application/json" and "X-RateLimit-Limit" in headers
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"] and "Traceback" not in error["message"]


AUTH = {"Authorization": f"Bearer {KEY}"}
# (case, raw request): a body past the bound, declared or streamed; every path that takes a body.
TOO_LARGE = [
    ("/mcp declares 100 MB and sends none of it",
     request("POST", "/mcp", {**MCP_HEADERS, "Content-Length": "100000000"})),
    ("a webhook registration declares 100 MB",
     request("POST", "/api/v1/admin/webhooks", {**AUTH, "Content-Type": "application/json",
                                                "Content-Length": "100000000"})),
    ("/mcp streams 2 MB in chunks", request("POST", "/mcp", {**MCP_HEADERS, "Transfer-Encoding": "chunked"},
                                            chunked(*[b"[" * 65536] * 32))),
    ("a GET declares 100 MB", request("GET", "/api/v1/providers", {"Content-Length": "100000000"})),
]


@pytest.mark.parametrize("case, raw", TOO_LARGE, ids=[c[0] for c in TOO_LARGE])
def test_a_body_past_the_bound_is_413_before_it_is_read(server, case, raw):
    status, headers, body, seconds = answer(server, raw)
    if case.startswith("a GET"):   # no view reads a GET's body: it is simply not read
        assert status == 200
        return
    assert_json_error(status, headers, body, 413, "payload_too_large")
    assert str(LIMIT) in json.loads(body)["error"]["message"]
    assert seconds < 5   # answered at once: the server did not wait for 100 MB that never came


# (case, raw request): what answered 500 with a RecursionError or a reader's exception (item 5)
MALFORMED = [
    ("/mcp with 100,000 [", request("POST", "/mcp", {**MCP_HEADERS, "Content-Length": "100000"}, b"[" * 100_000),
     400, None),
    ("/mcp nested 5,000 deep", request("POST", "/mcp", {**MCP_HEADERS, "Content-Length": "10000"},
                                       b"[" * 5000 + b"]" * 5000), 400, None),
    ("/mcp with a malformed chunk size", request("POST", "/mcp", {**MCP_HEADERS, "Transfer-Encoding": "chunked"},
                                                 b"zz\r\n{}\r\n0\r\n\r\n"), 400, "bad_request"),
    ("/mcp with a chunk missing its end", request("POST", "/mcp", {**MCP_HEADERS, "Transfer-Encoding": "chunked"},
                                                  b"2\r\n{}XX0\r\n\r\n"), 400, "bad_request"),
    ("webhooks with a malformed chunk size",
     request("POST", "/api/v1/admin/webhooks", {**AUTH, "Content-Type": "application/json",
                                                "Transfer-Encoding": "chunked"}, b"-1\r\n{}\r\n0\r\n\r\n"),
     400, "bad_request"),
    ("webhooks nested 5,000 deep",
     request("POST", "/api/v1/admin/webhooks", {**AUTH, "Content-Type": "application/json", "Content-Length": "10000"},
             b"[" * 5000 + b"]" * 5000), 400, "bad_request"),
]


@pytest.mark.parametrize("case, raw, expected, code", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_a_malformed_body_is_a_4xx_in_the_error_shape(server, case, raw, expected, code):
    status, headers, body, _ = answer(server, raw)
    if code is None:   # /mcp's own refusals are JSON-RPC errors (docs/api-decisions.md#mcp)
        assert status == expected, body[:300]
        error = json.loads(body)["error"]
        assert error["code"] == -32700 and "nested deeper" in error["message"]
    else:
        assert_json_error(status, headers, body, expected, code)
    assert server.get("/api/v1/providers").status_code == 200   # and the service goes on


@pytest.mark.parametrize("body", ['{"jsonrpc": "2.0", "id": NaN, "method": "tools/list"}',
                                  '{"jsonrpc": "2.0", "id": 1e400, "method": "tools/list"}',
                                  '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "resolve",'
                                  ' "arguments": {"identifier": "\\ud800"}}}'])
def test_mcp_refuses_json_no_reader_agrees_on(client, body):
    response = client.post("/mcp", data=body, headers=MCP_HEADERS)
    assert response.status_code == 400 and response.get_json()["error"]["code"] == -32700, response.data


def test_the_bound_is_the_setting(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 100
    call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "check", "arguments": {"identifiers": ["gpt-4o"] * 20}}})
    assert_error(client.post("/mcp", data=call, headers=MCP_HEADERS), 413, "payload_too_large", "100 bytes")


def feed_links(server, headers: dict) -> set:
    """The schemes of the links in the Atom feed answered with these request headers."""
    raw = request("GET", "/api/v1/feeds/changes.atom", {**headers, "Connection": "close"})
    status, _, body, _ = answer(server, raw)
    assert status == 200
    return {link.split(b"://")[0].decode() for link in body.split(b'href="')[1:]}


FORWARDED = [
    # (case, headers of the first request, schemes it must get)
    ("X-Forwarded-Proto from a client", {"X-Forwarded-Proto": "https"}, {"http"}),
    ("X-Forwarded-Ssl from a client", {"X-Forwarded-Ssl": "on"}, {"http"}),
    ("SCRIPT_NAME as a header", {"SCRIPT_NAME": "/evil"}, {"http"}),
]


@pytest.mark.parametrize("case, headers, schemes", FORWARDED, ids=[f[0] for f in FORWARDED])
def test_no_client_sets_the_scheme_of_what_others_get(server, case, headers, schemes):
    """gunicorn trusted these from 127.0.0.1 and the response cache kept the answer for everyone (item 8)."""
    assert feed_links(server, headers) == schemes
    assert feed_links(server, {}) == {"http"}
    _, _, body, _ = answer(server, request("GET", "/api/v1/feeds/changes.atom", {**headers, "Connection": "close"}))
    assert b"/evil" not in body


def test_behind_a_trusted_proxy_its_scheme_counts_and_is_cached_apart(proxied):
    """TRUSTED_PROXIES=1: the proxy's X-Forwarded-Proto sets the scheme, and the cache keys on it."""
    assert feed_links(proxied, {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}) == {"https"}
    assert feed_links(proxied, {"X-Forwarded-For": "203.0.113.9"}) == {"http"}
    assert feed_links(proxied, {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}) == {"https"}


@pytest.mark.parametrize("host, status", [
    ("models.example.com", 200),
    ("eu.example.org", 200),          # a leading dot in the list takes subdomains
    ("attacker.example", 400),
    ("", 400),
])
def test_trusted_hosts_answer_only_for_their_names(app, host, status):
    """REGISTRY_TRUSTED_HOSTS (Flask's TRUSTED_HOSTS): the feeds' links are written only for a listed host."""
    app.config["TRUSTED_HOSTS"] = ["models.example.com", ".example.org"]
    got = app.test_client().get("/api/v1/feeds/changes.json", headers={"Host": host})
    assert got.status_code == status
    if status == 200:
        assert all(item["url"].startswith(f"http://{host}/") for item in got.get_json()["items"])
    else:
        assert got.get_json()["error"]["code"] == "bad_request"

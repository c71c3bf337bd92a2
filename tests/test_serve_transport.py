"""What `registry serve` itself does on the wire, with raw sockets against a real server (issue 15):
slow clients cannot stop it (item 1), the errors its HTTP parser finds are JSON with the rate-limit
headers (item 6), every answer says nosniff and Server names no version (item 8)."""
import json
import shutil
import socket
import threading
import time

import pytest
import requests

from helpers import DATA, TODAY, build_db
from servers import Server, registry_command, server_env

SLOW_CLIENTS = 16          # four times the test server's GUNICORN_THREADS=4 (tests/servers.py)
TRICKLE_SECONDS = 40       # longer than the wait below: without the fix nothing answers meanwhile
ANSWER_WITHIN = 25         # generous: the answer comes in milliseconds when the fix works
HEAD = b"GET /api/v1/providers HTTP/1.1\r\nHost: x\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    shutil.copytree(DATA / "curation", tmp / "curation")
    build_db(tmp / "registry.db", tmp / "curation")
    # A head timeout of 2 s, not the default 10: the slowloris case waits for it.
    srv = Server(registry_command(), server_env(tmp / "registry.db", REGISTRY_TODAY=TODAY,
                                                REGISTRY_HEAD_TIMEOUT_MS="2000"), tmp / "serve.log")
    try:
        srv.wait_ready()
        yield srv
    finally:
        srv.stop()


def exchange(server, data: bytes, timeout: float = 15) -> tuple[int, dict, bytes]:
    """Send raw bytes, read until the server closes: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


class SlowClients:
    """n connections that never finish a request: odd ones send nothing, even ones trickle a header a second."""

    def __init__(self, port: int, n: int, seconds: float):
        self.socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(n)]
        self.stop_at = time.monotonic() + seconds
        self.stopped = threading.Event()
        for sock in self.socks[::2]:
            sock.sendall(HEAD)
        self.thread = threading.Thread(target=self.trickle, daemon=True)
        self.thread.start()

    def trickle(self):
        while not self.stopped.wait(1) and time.monotonic() < self.stop_at:
            for sock in self.socks[::2]:
                try:
                    sock.sendall(b"X-Slow: y\r\n")
                except OSError:
                    pass   # the server dropped it: what the head timeout is for

    def close(self):
        self.stopped.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()


def test_slow_clients_do_not_stop_the_service(server):
    slow = SlowClients(server.port, SLOW_CLIENTS, TRICKLE_SECONDS)
    try:
        time.sleep(1.5)   # every slow connection accepted, the tricklers mid-head
        for path in ("/api/v1/providers", "/api/v1/resolve?q=gpt-4o", "/api/v1/families"):
            response = requests.get(server.url + path, timeout=ANSWER_WITHIN)
            assert response.status_code in (200, 404), (path, response.status_code)
    finally:
        slow.close()


def test_a_head_that_never_ends_is_dropped(server):
    # A trickler is closed by the server (the head timeout), not kept forever.
    slow = SlowClients(server.port, 2, 60)
    try:
        slow.socks[0].settimeout(50)
        try:
            dropped = slow.socks[0].recv(1) == b""
        except ConnectionResetError:
            dropped = True
        assert dropped
    finally:
        slow.close()


BIG = b"a" * 9000
# (case, raw request, status, code)
TRANSPORT_ERRORS = [
    ("request line over 8190 bytes", b"GET /api/v1/providers?q=" + BIG + b" HTTP/1.1\r\nHost: x\r\n\r\n",
     414, "uri_too_long"),
    ("header over 8190 bytes", b"GET /api/v1/providers HTTP/1.1\r\nHost: x\r\nX-Big: " + BIG + b"\r\n\r\n",
     431, "request_header_fields_too_large"),
    ("101 headers", HEAD + b"".join(b"X-%d: y\r\n" % i for i in range(101)) + b"\r\n",
     431, "request_header_fields_too_large"),
    ("raw non-ASCII bytes in the request line", b"GET /api/v1/resolve?q=\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
     400, "bad_request"),
    ("malformed request line", b"GARBAGE\r\nHost: x\r\n\r\n", 400, "bad_request"),
    ("malformed header", b"GET /api/v1/providers HTTP/1.1\r\nHost x\r\n\r\n", 400, "bad_request"),
    ("bare LF line ends", b"GET /api/v1/providers HTTP/1.1\nHost: x\n\n", 400, "bad_request"),
    ("Content-Length with Transfer-Encoding",
     b"POST /api/v1/providers HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     400, "bad_request"),
]


@pytest.mark.parametrize("case,raw,status,code", TRANSPORT_ERRORS, ids=[c[0] for c in TRANSPORT_ERRORS])
def test_errors_the_http_parser_finds_are_json(server, case, raw, status, code):
    got, headers, body = exchange(server, raw)
    assert got == status, (case, body[:300])
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)
    assert set(error) == {"error"} and error["error"]["code"] == code and error["error"]["message"]
    assert len(error["error"]["message"]) < 500   # never the offending 9 KB echoed back
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert name in headers, (case, headers)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Connection"] == "close"


@pytest.mark.parametrize("raw", [
    HEAD + b"Connection: close\r\n\r\n",
    b"GET /api/v1/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"GET /api/v1/resolve?q=x%ffy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    TRANSPORT_ERRORS[0][1],
], ids=["200", "404", "400 from the app", "414 from the parser"])
def test_every_answer_says_nosniff_and_no_server_version(server, raw):
    _, headers, _ = exchange(server, raw)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Server"] == "gunicorn"   # the product, never its version


def test_the_service_still_answers_after_the_bad_requests(server):
    # Pipelined keep-alive requests on one connection still come back in order.
    raw = HEAD + b"\r\n" + HEAD + b"Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(raw)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    assert out.count(b"HTTP/1.1 200") == 2


FEED = "/api/v1/feeds/changes.json"


@pytest.mark.parametrize("head, status", [
    (f"GET {FEED} HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n", 400),     # an empty Host header
    (f"GET {FEED} HTTP/1.1\r\nConnection: close\r\n\r\n", 400),              # none over HTTP/1.1
    (f"GET {FEED} HTTP/1.0\r\n\r\n", 200),                                   # none over HTTP/1.0: the server's own
])
def test_a_request_without_a_usable_host_does_not_poison_the_kept_feeds(server, head, status):
    """Issue 44 hole 1: whatever a Host-less request gets, the next ordinary client's feed links name its host."""
    got, _, body = exchange(server, head.encode())
    assert got == status
    if status == 200:
        assert "http:///" not in body.decode()
    ordinary = requests.get(f"{server.url}{FEED}", timeout=15)
    links = [item["url"] for item in ordinary.json()["items"]]
    assert links and all(link.startswith(f"{server.url}/") for link in links), links[:3]

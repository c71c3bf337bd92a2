"""Webhooks end to end: a local receiver on 127.0.0.1 checks every signature with the standardwebhooks
library, answers 500 once (and sees the retry), and receives nothing twice however often notify runs;
a slow or failing receiver never fails an ingest; receiver URLs inside the network are refused."""
import json
import re
import socket
import ssl
import threading
import time
import types
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import trustme
import urllib3
from standardwebhooks import Webhook

import fakes
from helpers import assert_error
from registry.notify import deliver, urls

KEY = "webhook-admin-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
WATCHED = "anthropic/claude-sonnet-4"      # the gateway id of claude-sonnet-4-20250514


class Receiver:
    """An HTTP receiver on 127.0.0.1: answers the given statuses in turn, then `then`, after `delay` seconds."""

    def __init__(self, statuses=(), delay: float = 0, then: int = 204, headers: dict | None = None):
        self.statuses, self.delay, self.then, self.received = list(statuses), delay, then, []
        self.headers = headers or {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(receiver.delay)
                status = receiver.statuses.pop(0) if receiver.statuses else receiver.then
                receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"

    def start(self, tls=None):
        """Serve (over TLS when given a server-side SSLContext); return self."""
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def admin_app(app):
    app.config.update(ADMIN_API_KEYS=[KEY], WEBHOOKS_ALLOW_PRIVATE=True)
    return app


def register(client, url: str, **filters) -> dict:
    response = client.post("/api/v1/admin/webhooks", json={"url": url, **filters}, headers=AUTH)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["webhook"]


def test_signed_deliveries_a_retry_after_500_and_never_twice(admin_app, client, runner, monkeypatch):
    receiver = Receiver(statuses=[500]).start()
    try:
        hook = register(client, receiver.url, models=[WATCHED])
        assert hook["secret"].startswith("whsec_") and hook["models"] == [WATCHED]
        assert "secret" not in client.get("/api/v1/admin/webhooks", headers=AUTH).get_json()["webhooks"][0]
        fakes.vendor_b_history(monkeypatch, admin_app.config["DATABASE"])
        result = runner.invoke(args=["notify", "--budget", "20"])
        assert result.exit_code == 0, result.output

        verify = Webhook(hook["secret"])
        payloads = [verify.verify(body, headers) for headers, body, _ in receiver.received]   # raises if forged
        assert {p["type"] for p in payloads} == {"change.deprecation_announced", "change.status_changed",
                                                 "change.shutdown_scheduled", "lifecycle.shutdown_upcoming"}
        assert all(p["data"]["model_slug"] == "claude-sonnet-4-20250514" for p in payloads)
        upcoming = next(p["data"] for p in payloads if p["type"] == "lifecycle.shutdown_upcoming")
        assert (upcoming["days_before"], upcoming["days_left"], upcoming["upgrade_alias"]) == (
            90, 54, "anthropic/claude-sonnet-4.5")   # 2026-11-21 to 2027-01-14; the upgrade in the watched format
        ids = [headers["webhook-id"] for headers, _, _ in receiver.received]
        assert ids.count(ids[0]) == 2 and len(set(ids)) == 4            # the first was retried, and only it
        assert [status for _, _, status in receiver.received][:1] == [500]

        deliveries = client.get(f"/api/v1/admin/webhooks/{hook['id']}/deliveries", headers=AUTH).get_json()
        assert sorted(d["status"] for d in deliveries["deliveries"]) == ["delivered"] * 4
        retried = [d for d in deliveries["deliveries"] if d["tries"] == 2]
        assert [[a["status_code"] for a in d["attempts"]] for d in retried] == [[500, 204]]

        # Another notify, and a third identical ingest (which notifies at its end): nothing is sent again.
        assert runner.invoke(args=["notify", "--budget", "5"]).exit_code == 0
        assert runner.invoke(args=["ingest", "--source", "vendor-b-api"]).exit_code == 0
        assert len(receiver.received) == 5
    finally:
        receiver.close()


@pytest.mark.parametrize("answer, delay, expected_error", [
    (500, 0, "HTTP 500"),                  # a failing receiver: bounded tries, then given up
    (204, 3, "timed out|no answer within"),   # a slow one: each attempt cut at the bound
])
def test_a_bad_receiver_never_fails_an_ingest(admin_app, client, runner, monkeypatch, answer, delay,
                                              expected_error):
    monkeypatch.setattr(deliver, "ATTEMPT_SECONDS", 1)
    monkeypatch.setattr(deliver, "CONNECT_SECONDS", 1)
    monkeypatch.setattr(deliver, "BACKOFF", (0, 0, 0, 0, 0))
    monkeypatch.setattr("registry.cli.DEFAULT_BUDGET", 2)
    receiver = Receiver(delay=delay, then=answer).start()
    try:
        hook = register(client, receiver.url, kinds=["model_added"])
        fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", fakes.VENDOR_B)})
        result = runner.invoke(args=["ingest", "--source", "vendor-b-api"])
        assert result.exit_code == 0, result.output
        deliveries = client.get(f"/api/v1/admin/webhooks/{hook['id']}/deliveries", headers=AUTH).get_json()
        attempts = [a for d in deliveries["deliveries"] for a in d["attempts"]]
        assert attempts and all(re.search(expected_error, a["error"]) for a in attempts)
        assert all(d["tries"] <= deliver.MAX_TRIES for d in deliveries["deliveries"])
        if not delay:
            assert {d["status"] for d in deliveries["deliveries"]} == {"failed"}
            assert "gave up after 6 tries: HTTP 500" in result.output
    finally:
        receiver.close()


@pytest.mark.parametrize("url, allowed", [
    ("http://8.8.8.8/hook", True),
    ("https://[2001:4860:4860::8888]:8443/h", True),
    ("http://127.0.0.1:8000/", False),
    ("http://localhost/", False),
    ("http://10.1.2.3/", False),
    ("http://192.168.0.10/", False),
    ("http://172.16.5.4/", False),
    ("http://169.254.169.254/latest/meta-data", False),   # cloud metadata
    ("http://[::1]/", False),
    ("http://[::ffff:127.0.0.1]/", False),
    ("http://0.0.0.0/", False),
    ("http://100.64.0.1/", False),                         # carrier-grade NAT
    ("ftp://8.8.8.8/", False),
    ("http:///nohost", False),
    ("http://8.8.8.8/a b", False),
    ("http://no-such-host.invalid/", False),
    # issue 28, item 1: what two parsers read two ways, and ranges that stand for a private address
    ("http://127.0.0.1:9\\@1.1.1.1/", False),                # urllib3 reads host 127.0.0.1, urlsplit 1.1.1.1
    ("http://[::1]\\@1.1.1.1/", False),
    ("http://user:secret@8.8.8.8/", False),                   # a user name: the same confusion, another way
    ("http://[64:ff9b::7f00:1]/", False),                      # NAT64 of 127.0.0.1
    ("http://[2002:7f00:1::1]/", False),                       # 6to4 of 127.0.0.1
    ("http://[2002:a00:1::1]/", False),                        # 6to4 of 10.0.0.1
    ("http://[fec0::1]/", False),                              # site-local
    ("http://[64:ff9b:1::1]/", False),                         # NAT64 for local use
    ("http://[::7f00:1]/", False),                             # IPv4-compatible 127.0.0.1
    ("http://[::ffff:a00:1]/", False),                         # IPv4-mapped 10.0.0.1
    ("http://[ff02::1]/", False),                              # multicast
    ("http://2130706433/", False),                             # 127.0.0.1 as one number
    ("http://0x7f.1/", False),                                 # and in hex
    ("http://[64:ff9b::808:808]/", True),                      # NAT64 of a global address is global
    ("http://[2002:808:808::1]/", True),                       # so is 6to4 of one
    ("javascript:alert(1)//", False),
    ("http://8.8.8.8:0/", False),
])
def test_receiver_urls(url, allowed):
    if allowed:
        assert urls.check(url, allow_private=False).url == url
    else:
        with pytest.raises(urls.UnsafeURL):
            urls.check(url, allow_private=False)


@pytest.mark.parametrize("body, contains", [
    ({"url": "http://127.0.0.1:9/x"}, "REGISTRY_WEBHOOKS_ALLOW_PRIVATE"),
    ({"url": "gopher://8.8.8.8/"}, "http"),
    ({}, "url"),
    ({"url": "http://8.8.8.8/", "models": ["no-such-model-anywhere"]}, "no-such-model-anywhere"),
    ({"url": "http://8.8.8.8/", "models": "gpt-4o"}, "models"),
    ({"url": "http://8.8.8.8/", "providers": ["nobody"]}, "nobody"),
    ({"url": "http://8.8.8.8/", "kinds": ["model_exploded"]}, "model_exploded"),
    ({"url": "http://8.8.8.8/", "days_before": [90, -1]}, "days_before"),
    ({"url": "http://8.8.8.8/", "days_before": [True]}, "days_before"),
    ({"url": "http://8.8.8.8/", "secret": "mine"}, "secret"),
    ([], "JSON object"),
    # issue 28, item 1: the request that delivered 46 signed POSTs to 127.0.0.1
    ({"url": "http://127.0.0.1:9\\@1.1.1.1/"}, "backslash"),
    ({"url": "http://[::1]\\@1.1.1.1/"}, "backslash"),
    ({"url": "http://[64:ff9b::7f00:1]/"}, "non-global"),
    ({"url": "http://[2002:7f00:1::1]/"}, "non-global"),
    ({"url": "http://[fec0::1]/"}, "non-global"),
])
def test_bad_registrations_are_400(app, client, body, contains):
    app.config.update(ADMIN_API_KEYS=[KEY])
    assert_error(client.post("/api/v1/admin/webhooks", json=body, headers=AUTH), 400, "bad_request", contains)


def test_delete_and_the_key(admin_app, client):
    hook = register(client, "http://8.8.8.8/hook", providers=["anthropic"], days_before=[14])
    assert hook["days_before"] == [14] and hook["providers"] == ["anthropic"]
    assert_error(client.delete(f"/api/v1/admin/webhooks/{hook['id']}"), 401, "unauthorized")
    assert_error(client.post("/api/v1/admin/webhooks", json={"url": "http://8.8.8.8/"}), 401, "unauthorized")
    assert client.delete(f"/api/v1/admin/webhooks/{hook['id']}", headers=AUTH).status_code == 204
    assert_error(client.delete(f"/api/v1/admin/webhooks/{hook['id']}", headers=AUTH), 404, "not_found")
    assert_error(client.get(f"/api/v1/admin/webhooks/{hook['id']}/deliveries", headers=AUTH), 404, "not_found")
    assert client.get("/api/v1/admin/webhooks", headers=AUTH).get_json() == {"webhooks": []}
    assert json.loads(client.get("/api/v1/admin/webhooks", headers=AUTH).data) == {"webhooks": []}


# issue 28, item 5: a body nested deeper than any registration is a 400, not a RecursionError's 500
@pytest.mark.parametrize("raw", ["[" * 100_000, "[" * 5000 + "]" * 5000,
                                 '{"url": "http://8.8.8.8/", "models": ' + "[" * 5000 + "]" * 5000 + "}",
                                 '{"url": "http://8.8.8.8/", "days_before": [NaN]}'])
def test_a_hostile_body_is_a_400(app, client, raw):
    app.config.update(ADMIN_API_KEYS=[KEY])
    response = client.post("/api/v1/admin/webhooks", data=raw, content_type="application/json", headers=AUTH)
    assert_error(response, 400, "bad_request", "JSON object")


class Resolver:
    """getaddrinfo for names under .test: the given addresses in turn (the last one repeats); others as usual."""

    def __init__(self, monkeypatch, *answers):
        self.answers, self.asked = list(answers), 0
        real = socket.getaddrinfo

        def getaddrinfo(host, port, *args, **kwargs):
            if isinstance(host, str) and host.endswith(".test"):
                self.asked += 1
                address = self.answers[min(self.asked, len(self.answers)) - 1]
                return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]
            return real(host, port, *args, **kwargs)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def delivery(url: str) -> dict:
    return {"id": 1, "payload": '{"type": "test"}', "secret": "whsec_" + "A" * 43 + "=", "url": url}


def test_the_connection_goes_to_the_address_the_check_saw(monkeypatch):
    """DNS rebinding: the name answers a global address to the check, loopback after. The sender connects to
    the checked address and never asks again (the connection is stopped here: nothing leaves this machine)."""
    resolver = Resolver(monkeypatch, "8.8.8.8", "127.0.0.1")
    connected = []

    def create_connection(address, *args, **kwargs):
        connected.append(address[0])
        raise OSError("no connection leaves this machine in a test")
    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    status, error, _ = deliver.attempt(delivery("http://rebind.test:9/hook"), allow_private=False)
    assert (status, connected, resolver.asked) == (None, ["8.8.8.8"], 1), error


def test_delivery_keeps_the_name_for_host_and_redirects_are_not_followed(monkeypatch):
    Resolver(monkeypatch, "127.0.0.1")
    elsewhere = Receiver().start()
    receiver = Receiver(then=302, headers={"Location": elsewhere.url}).start()
    try:
        status, error, _ = deliver.attempt(delivery(f"http://hook.test:{receiver.port}/hook?x=1"), allow_private=True)
        assert (status, error) == (302, None)
        headers, body, _ = receiver.received[0]
        assert headers["Host"] == f"hook.test:{receiver.port}" and json.loads(body) == {"type": "test"}
        assert elsewhere.received == []
    finally:
        receiver.close()
        elsewhere.close()


@pytest.mark.parametrize("certified, delivered", [("hook.test", True), ("other.test", False)])
def test_https_checks_the_certificate_against_the_name(monkeypatch, tmp_path, certified, delivered):
    """Connected by address, https still sends the host name as SNI and checks the certificate against it."""
    ca = trustme.CA()
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(certified).configure_cert(tls)
    names = []
    tls.sni_callback = lambda sock, name, context: names.append(name)
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setattr(deliver, "certs", types.SimpleNamespace(where=lambda: str(tmp_path / "ca.pem")))
    Resolver(monkeypatch, "127.0.0.1")
    receiver = Receiver().start(tls)
    try:
        status, error, _ = deliver.attempt(delivery(f"https://hook.test:{receiver.port}/hook"), allow_private=True)
        assert names == ["hook.test"]
        if delivered:
            assert (status, error, receiver.received[0][0]["Host"]) == (204, None, f"hook.test:{receiver.port}")
        else:
            assert status is None and re.search("certificate|doesn.t match", error) and receiver.received == []
    finally:
        receiver.close()

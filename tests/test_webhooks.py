"""Webhooks end to end: a local receiver on 127.0.0.1 checks every signature with the standardwebhooks
library, answers 500 once (and sees the retry), and receives nothing twice however often notify runs;
a slow or failing receiver never fails an ingest; receiver URLs inside the network are refused."""
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook

import fakes
from helpers import assert_error
from registry.notify import deliver, urls

KEY = "webhook-admin-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
WATCHED = "anthropic/claude-sonnet-4"      # the gateway id of claude-sonnet-4-20250514


class Receiver:
    """An HTTP receiver on 127.0.0.1: answers the given statuses in turn, then `then`, after `delay` seconds."""

    def __init__(self, statuses=(), delay: float = 0, then: int = 204):
        self.statuses, self.delay, self.then, self.received = list(statuses), delay, then, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(receiver.delay)
                status = receiver.statuses.pop(0) if receiver.statuses else receiver.then
                receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

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
    receiver = Receiver(statuses=[500])
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
    receiver = Receiver(delay=delay, then=answer)
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
])
def test_receiver_urls(url, allowed):
    if allowed:
        assert urls.check(url, allow_private=False) == url
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

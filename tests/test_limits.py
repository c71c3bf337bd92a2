"""Rate limits (docs/api-decisions.md#rate-limits): budgets, headers on every response, 429, keys, proxies."""
import hashlib
import re
import time

import pytest

from helpers import assert_error
from registry import create_app
from registry.web.limits import EXTENSION
from registry.web.openapi import load_document

KEY, OTHER_KEY = "limits-key", "limits-other-key"
ADMIN_URL = "/api/v1/admin/ingestion-runs"
RETRY = re.compile(r"^Rate limit exceeded; retry in (\d+) seconds\.$")


@pytest.fixture
def make_app(app):
    """The fixture app with small budgets (and two admin keys)."""
    def make(public="5/minute", admin="3/minute", **config):
        app.config.update({"RATELIMIT_PUBLIC": public, "RATELIMIT_ADMIN": admin,
                           "ADMIN_API_KEYS": [KEY, OTHER_KEY], **config})
        return app
    return make


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


def get(client, url, ip="10.0.0.1", **kwargs):
    return client.get(url, environ_base={"REMOTE_ADDR": ip}, **kwargs)


def assert_rate_headers(response, limit: int, remaining: int):
    """The three headers, as integers, with a reset within the window."""
    assert response.headers["X-RateLimit-Limit"] == str(limit)
    assert response.headers["X-RateLimit-Remaining"] == str(remaining)
    reset = int(response.headers["X-RateLimit-Reset"])
    assert time.time() - 1 <= reset <= time.time() + 62


def assert_rate_limited(response, limit: int):
    """429 rate_limited in the spec's shape, with Retry-After equal to the wait in the message."""
    body = assert_error(response, 429, "rate_limited")
    wait = int(RETRY.match(body["error"]["message"]).group(1))
    assert 1 <= wait <= 60
    assert response.headers["Retry-After"] == str(wait)
    assert_rate_headers(response, limit, 0)
    assert response.headers["Cache-Control"] == "no-store"


# Every kind of answer carries the headers, unrouted ones included (the extension alone skips them).
@pytest.mark.parametrize("method,url,headers,status", [
    ("GET", "/api/v1/providers", {}, 200),
    ("GET", "/api/v1/models?per_page=2", {}, 200),
    ("GET", "/api/v1/openapi.json", {}, 200),
    ("HEAD", "/api/v1/providers", {}, 200),
    ("OPTIONS", "/api/v1/providers", {}, 200),
    ("GET", "/api/v1/models?page=0", {}, 400),
    ("GET", "/api/v1/resolve", {}, 400),
    ("GET", "/api/v1/models/no-such-model", {}, 404),
    ("GET", "/nowhere", {}, 404),
    ("GET", "/api/v2/models", {}, 404),
    ("POST", "/api/v1/providers", {}, 405),
    ("DELETE", "/api/v1/models/x", {}, 405),
    ("GET", ADMIN_URL, {}, 401),
    ("GET", ADMIN_URL, bearer("wrong"), 401),
    ("GET", ADMIN_URL, bearer(KEY), 200),
    ("POST", "/api/v1/admin/ingest/no-such-source", bearer(KEY), 400),
    ("GET", "/api/v1/admin/nowhere", {}, 404),
])
def test_every_response_carries_the_headers(make_app, method, url, headers, status):
    app = make_app()
    limit = 3 if url.startswith("/api/v1/admin/") else 5
    response = app.test_client().open(url, method=method, headers=headers)
    assert response.status_code == status
    assert_rate_headers(response, limit, limit - 1)
    assert "Retry-After" not in response.headers


def test_one_public_budget_across_endpoints_and_errors(make_app):
    client = make_app().test_client()
    urls = ["/api/v1/providers", "/api/v1/models/no-such-model", "/nowhere", "/api/v1/search?q=claude",
            "/api/v1/models?page=0"]
    for n, url in enumerate(urls, start=1):
        assert_rate_headers(get(client, url), 5, 5 - n)
    for url in ["/api/v1/families", "/nowhere", "/api/v1/openapi.json"]:
        assert_rate_limited(get(client, url), 5)
    response = client.post("/api/v1/providers", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert_rate_limited(response, 5)
    assert_rate_headers(get(client, "/api/v1/providers", ip="10.0.0.2"), 5, 4)   # another client


def test_a_budget_of_several_limits_reports_the_tightest(make_app):
    client = make_app(public="10/second;3/minute").test_client()
    answers = [get(client, "/api/v1/providers") for _ in range(3)]
    assert [a.headers["X-RateLimit-Limit"] for a in answers] == ["3"] * 3
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0"]
    assert_rate_limited(get(client, "/api/v1/providers"), 3)


def test_429_body_matches_the_document(make_app):
    import schemathesis
    client = make_app(public="1/minute").test_client()
    get(client, "/api/v1/providers")
    response = get(client, "/api/v1/providers")
    schema = schemathesis.openapi.from_dict(load_document())
    schema["/providers"]["GET"].validate_response(response)
    assert_rate_limited(response, 1)


def test_admin_and_public_budgets_are_separate(make_app):
    client = make_app(public="2/minute", admin="2/minute").test_client()
    for _ in range(2):
        assert get(client, "/api/v1/providers").status_code == 200
    assert_rate_limited(get(client, "/api/v1/providers"), 2)
    assert get(client, ADMIN_URL, headers=bearer(KEY)).status_code == 200
    assert get(client, ADMIN_URL, headers=bearer(KEY)).status_code == 200
    assert_rate_limited(get(client, ADMIN_URL, headers=bearer(KEY)), 2)


# Who an admin request is counted against: a valid key by its key, wherever it comes from;
# a missing or invalid key by the client IP, so bad keys share one budget per address.
@pytest.mark.parametrize("first,second,shared", [
    ((KEY, "10.0.0.1"), (KEY, "10.9.9.9"), True),
    ((KEY, "10.0.0.1"), (OTHER_KEY, "10.0.0.1"), False),
    ((None, "10.0.0.1"), ("wrong", "10.0.0.1"), True),
    (("wrong", "10.0.0.1"), ("also-wrong", "10.0.0.1"), True),
    ((None, "10.0.0.1"), (None, "10.0.0.2"), False),
    ((None, "10.0.0.1"), (KEY, "10.0.0.1"), False),
])
def test_admin_requests_are_counted_per_key_else_per_ip(make_app, first, second, shared):
    client = make_app(admin="3/minute").test_client()
    for key, ip in [first] * 3:
        get(client, ADMIN_URL, ip=ip, headers=bearer(key) if key else {})
    key, ip = second
    response = get(client, ADMIN_URL, ip=ip, headers=bearer(key) if key else {})
    if shared:
        assert_rate_limited(response, 3)
    else:
        assert response.status_code in (200, 401)
        assert_rate_headers(response, 3, 2)


def test_the_raw_key_never_reaches_the_storage(make_app):
    app = make_app()
    get(app.test_client(), ADMIN_URL, headers=bearer(KEY))
    stored = " ".join(app.extensions[EXTENSION].storage.counters)
    assert KEY not in stored
    assert "key:" + hashlib.sha256(KEY.encode()).hexdigest() in stored


# X-Forwarded-For moves the client to another budget only behind a trusted proxy.
@pytest.mark.parametrize("proxies,forwarded,separate", [
    (0, ["203.0.113.1", "203.0.113.2"], False),
    (1, ["203.0.113.1", "203.0.113.2"], True),
    (1, ["198.51.100.7, 203.0.113.1", "198.51.100.8, 203.0.113.1"], False),   # only the last hop is trusted
    (2, ["198.51.100.7, 203.0.113.1", "198.51.100.8, 203.0.113.1"], True),
])
def test_forwarded_for_only_behind_trusted_proxies(monkeypatch, tmp_path, curation_dir, proxies,
                                                   forwarded, separate):
    from helpers import build_db
    build_db(tmp_path / "registry.db", curation_dir)
    monkeypatch.setenv("TRUSTED_PROXIES", str(proxies))
    monkeypatch.setenv("RATELIMIT_PUBLIC", "1/minute")
    client = create_app({"TESTING": True, "DATABASE": str(tmp_path / "registry.db")}).test_client()
    first = get(client, "/api/v1/providers", headers={"X-Forwarded-For": forwarded[0]})
    second = get(client, "/api/v1/providers", headers={"X-Forwarded-For": forwarded[1]})
    assert first.status_code == 200
    assert second.status_code == (200 if separate else 429)


@pytest.mark.parametrize("variable,value", [
    ("RATELIMIT_PUBLIC", "lots"),
    ("RATELIMIT_ADMIN", "20 per fortnight"),
    ("TRUSTED_PROXIES", "one"),
    ("TRUSTED_PROXIES", "-1"),
])
def test_bad_settings_stop_the_app_at_startup(monkeypatch, capsys, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(SystemExit) as stopped:
        create_app({"TESTING": True, "DATABASE": "unused.db"})
    assert stopped.value.code == 2 and variable in capsys.readouterr().err


def test_storage_outage_keeps_serving_with_in_process_counts(app, caplog):
    # The storage URI is read when the limiter starts: a fresh app over the fixture's database.
    app = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "RATELIMIT_PUBLIC": "2/minute",
                      "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1"})
    client = app.test_client()
    assert [get(client, "/api/v1/providers").status_code for _ in range(3)] == [200, 200, 429]
    assert "falling back to in-memory storage" in caplog.text


# (method, url, scope): every request is counted exactly once, in its own budget, whoever counts it: the layer in
# front of Flask (a public read) or the limiter's hook (the rest); an over-budget one is not counted again.
ONCE = [
    ("GET", "/api/v1/providers", "public"),
    ("HEAD", "/api/v1/models?per_page=2", "public"),
    ("GET", "/nowhere", "public"),
    ("OPTIONS", "/api/v1/providers", "public"),
    ("POST", "/api/v1/providers", "public"),
    ("GET", ADMIN_URL, "admin"),
]


@pytest.mark.parametrize("method, url, scope", ONCE)
def test_a_request_is_counted_once_in_its_own_budget(make_app, method, url, scope):
    from registry.web.limits import KEY_PREFIX, admin_key, ip_key, parsed_budget
    app = make_app(public="2/minute", admin="2/minute")
    client = app.test_client()
    answers = [client.open(url, method=method, headers=bearer(KEY)) for _ in range(3)]
    assert [a.status_code == 429 for a in answers] == [False, False, True]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["1", "0", "0"]
    with app.test_request_context(url, headers=bearer(KEY)):
        who = admin_key() if scope == "admin" else ip_key("127.0.0.1")
    item, = parsed_budget("2/minute")
    counters = app.extensions[EXTENSION].storage.counters
    assert {key: count for key, (count, _) in counters.items()} == {item.key_for(KEY_PREFIX, who, scope): 3}


def test_no_private_name_of_a_library_is_used():
    """The rate limits rest on limits' public API: no flask_limiter import, no name with a leading underscore
    taken from limits or werkzeug anywhere in the package."""
    from pathlib import Path
    import registry
    private = re.compile(r"\b(?:flask_limiter|(?:limits|werkzeug)(?:\.\w+)*\._\w+|_(?:Limiter|MemoryStorage)__\w+)")
    found = [f"{path.name}: {m.group(0)}" for path in Path(registry.__file__).parent.rglob("*.py")
             for m in private.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("one, other, prefix, shared", [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", 64, True),      # one /64: one budget
    ("2001:db8:1:2::1", "2001:db8:1:3::1", 64, False),
    ("2001:db8:1:2::1", "2001:db8:1:2::2", 128, False),          # RATELIMIT_IPV6_PREFIX=128: each address
    ("::ffff:192.0.2.1", "192.0.2.1", 64, True),                 # an IPv4-mapped address is that IPv4 client
    ("192.0.2.1", "192.0.2.2", 64, False),
])
def test_ipv6_clients_share_a_budget_per_network(one, other, prefix, shared):
    from registry.web.limits import ip_key
    assert (ip_key(one, prefix) == ip_key(other, prefix)) is shared


def test_an_ipv6_network_is_one_budget_end_to_end(app):
    limited = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "RATELIMIT_PUBLIC": "2/minute"})
    client = limited.test_client()
    got = [get(client, "/api/v1/providers", ip=f"2001:db8:7:7::{i}").status_code for i in range(1, 4)]
    assert got == [200, 200, 429]

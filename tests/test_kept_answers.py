"""A kept answer served in front of Flask (registry/web/front.py) is the answer Flask gave, byte for byte:
same status, same headers in the same order, same body, in one rate-limit budget (memory or Redis)."""
import re
import shutil
import subprocess

import pytest

from registry import create_app
from registry.web.front import KeptAnswers
from registry.web.limits import EXTENSION, KEY_PREFIX, PUBLIC_SCOPE, ip_key, parsed_budget

from helpers import build_db
from test_redis_limits import free_port, wait_until

REDIS = shutil.which("redis-server")
SONNET_35 = "claude-3-5-sonnet-20241022"
HTML = {"Accept": "text/html"}
MARKDOWN = {"Accept": "text/markdown"}
RATE_VALUES = ("X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After")

CASES = [   # (url, request headers): JSON, pages, feeds and the calendar
    ("/api/v1/resolve?q=claude-sonnet-4-20250514", {}),
    ("/api/v1/resolve?q=Claude%20Sonnet%204", {}),
    ("/api/v1/search?q=sonnet", {}),
    ("/api/v1/models/claude-sonnet-4-20250514", {}),
    ("/api/v1/models?per_page=5", {}),
    ("/api/v1/families", {}),
    (f"/models/{SONNET_35}", HTML),
    (f"/models/{SONNET_35}.md", {}),
    ("/families/claude-sonnet", HTML),
    ("/families/claude-sonnet", MARKDOWN),
    ("/api/v1/feeds/changes.atom", {}),
    ("/api/v1/feeds/changes.json", {}),
    ("/api/v1/feeds/lifecycle.ics", {}),
]
STORAGES = ["memory", pytest.param("redis", marks=pytest.mark.skipif(REDIS is None, reason="no redis-server"))]


@pytest.fixture(scope="module")
def redis_uri(tmp_path_factory):
    """One redis-server for this module (started only when a Redis case runs), stopped afterwards."""
    import redis
    port = free_port()
    proc = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                            cwd=tmp_path_factory.mktemp("redis"), stdout=subprocess.DEVNULL)
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=2)
    wait_until(client.ping, "redis-server")
    yield f"redis://127.0.0.1:{port}", client
    client.close()
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def make_app(tmp_path, curation_dir, request):
    """An app over the fixture database with a given storage and budget, and a count of Flask's passes."""
    db_path = tmp_path / "registry.db"
    build_db(db_path, curation_dir)

    def make(storage: str, budget: str = "100000/minute", **config):
        uri = "memory://"
        if storage == "redis":
            uri, client = request.getfixturevalue("redis_uri")
            client.flushall()
        app = create_app({"TESTING": True, "DATABASE": str(db_path), "RATELIMIT_STORAGE_URI": uri,
                          "RATELIMIT_PUBLIC": budget, **config})
        layer = app.wsgi_app
        assert isinstance(layer, KeptAnswers)
        flask_passes = []
        flask_wsgi = layer.wsgi_app

        def counting(environ, start_response):
            flask_passes.append(environ["PATH_INFO"])
            return flask_wsgi(environ, start_response)
        layer.wsgi_app = counting
        return app, flask_passes
    return make


def shape(response) -> tuple:
    """Status, headers in order (rate-limit values aside) and body: what must be identical on both paths."""
    headers = [(name, "..." if name in RATE_VALUES else value) for name, value in response.headers.items()]
    # A 429 names its wait in seconds, a rate-limit value too.
    body = re.sub(rb"retry in \d+ seconds", b"retry in N seconds", response.get_data())
    return response.status, headers, body


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("url,headers", CASES)
def test_a_kept_answer_is_the_answer_flask_gave(make_app, storage, url, headers):
    app, flask_passes = make_app(storage)
    client = app.test_client()
    rendered = client.get(url, headers=headers)
    kept = client.get(url, headers=headers)
    head = client.head(url, headers=headers)
    assert flask_passes == [url.split("?")[0]]   # the first one only
    assert rendered.status_code == 200
    assert shape(kept) == shape(rendered)
    assert shape(head)[:2] == shape(rendered)[:2] and head.get_data() == b""
    assert [r.headers["X-RateLimit-Remaining"] for r in (rendered, kept, head)] == ["99999", "99998", "99997"]


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("url,headers", CASES)
def test_a_kept_304_is_the_304_flask_gave(make_app, storage, url, headers):
    app, flask_passes = make_app(storage)
    client = app.test_client()
    etag = client.get(url, headers=headers).headers["ETag"]
    app.extensions["registry_response_cache"].entries.clear()   # the next one is rendered by Flask again
    conditional = {**headers, "If-None-Match": etag}
    rendered = client.get(url, headers=conditional)
    kept = client.get(url, headers=conditional)
    assert len(flask_passes) == 2
    assert rendered.status_code == 304 and rendered.get_data() == b""
    assert shape(kept) == shape(rendered)


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("url,headers", CASES[::3])
def test_one_budget_and_the_same_429_on_both_paths(make_app, storage, url, headers):
    app, flask_passes = make_app(storage, "3/minute;50/hour")
    client = app.test_client()
    answers = [client.get(url, headers=headers) for _ in range(4)]   # Flask, kept, kept, over budget
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert len(flask_passes) == 2   # the first, and the 429 the kept-answers layer handed over
    # Counted once: the minute's counter is at 4 and the hour's at 3 (the breach stops the count).
    storage = app.extensions[EXTENSION].storage
    args = [KEY_PREFIX, ip_key("127.0.0.1"), PUBLIC_SCOPE]
    minute, hour = parsed_budget("3/minute;50/hour")
    assert [storage.get(item.key_for(*args)) for item in (minute, hour)] == [4, 3]
    app.extensions["registry_response_cache"].entries.clear()
    rendered = client.get(url, headers=headers)   # a 429 with nothing kept: Flask's from the start
    assert shape(answers[3]) == shape(rendered)


# (case, requests as (method, url), cache bytes): every request counted once in the public budget, whoever
# counts it: the layer in front (public reads, kept or rendered) or the limiter's hook (other methods).
ONCE = [
    ("reads Flask renders, cache off", [("GET", "/api/v1/families"), ("GET", "/api/v1/search?q=sonnet"),
                                        ("HEAD", "/api/v1/families"), ("GET", "/nowhere")], 0),
    ("reads kept and rendered", [("GET", "/api/v1/families")] * 3 + [("GET", "/api/v1/providers")], 1 << 20),
    ("reads and other methods", [("GET", "/api/v1/families"), ("OPTIONS", "/api/v1/families"),
                                 ("POST", "/api/v1/families"), ("GET", "/api/v1/families")], 1 << 20),
]


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("case, requests, cache_bytes", ONCE, ids=[c[0] for c in ONCE])
def test_every_public_request_is_counted_once(make_app, storage, case, requests, cache_bytes):
    app, _ = make_app(storage, RESPONSE_CACHE_BYTES=cache_bytes)
    storage = app.extensions[EXTENSION].storage
    client = app.test_client()
    answers = [client.open(url, method=method) for method, url in requests]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == [str(99999 - n) for n in range(len(requests))]
    item, = parsed_budget("100000/minute")
    assert storage.get(item.key_for(KEY_PREFIX, ip_key("127.0.0.1"), PUBLIC_SCOPE)) == len(requests)

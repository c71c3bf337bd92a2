"""Rendered public answers, kept per process and per data generation (a read-mostly service).

The data changes once a day (an ingest or a curation run bumps the generation), while the same
identifiers are resolved and the same pages read again and again. A 200 answer to a public GET is kept
under its path and query string, tagged with the generation it was computed from, and served again only
while the database still has that generation: each process reads the generation (one indexed row) at
most once per REGISTRY_DATA_RECHECK_MS (web/connection.py), so no process serves data older than the
database by more than that, and nothing here needs to agree with other processes. Memory is bounded by
RESPONSE_CACHE_BYTES, counted as each entry's real size: its body, key, headers and the objects that hold
them (a 1 KB JSON answer takes about twice that; docs/running.md#memory).

An answer is kept as it left Flask: its body and its final header list, every hook's headers included
except the X-RateLimit-* ones, which belong to each request. The layer in front of Flask
(registry/web/front.py) serves it again, counting the request in the same budget and answering
If-None-Match; docs/api-decisions.md#caching.
"""
import sys
from functools import partial
from typing import NamedTuple

from flask import g, request

from ..generations import GenerationCache
from .connection import request_generation
from ..lifecycle import today
from .limits import is_admin_path
from .negotiate import variant

MAX_ENTRY = 256 * 1024   # bigger answers (a 200-model page) are cheap enough to render again
OK = "200 OK"
MAX_COMMON = 4096   # distinct header pairs and key parts shared between entries
MAX_SHARED_LENGTH = 256   # a longer value (a client's long query) is its entry's own, counted with it
# What an entry costs beyond the sizes counted one by one: its slot and node in the OrderedDict, the
# entry tuple and the Kept answer made on each hit are ~200 bytes (sys.getsizeof of an OrderedDict
# does not see its nodes).
ENTRY_OVERHEAD = 200


# What is kept: the JSON answers, the feeds (registry/feeds/) and the pages (HTML, their Markdown
# twins, /llms.txt, CSS and JS; registry/pages/), each served again with its own type.
KEPT_TYPES = ("application/json", "application/atom+xml", "application/feed+json", "text/calendar",
              "text/html", "text/markdown", "text/plain", "text/css", "text/javascript")
# Headers of each request, never kept: the limiter's hook adds them last (registry/web/limits.py).
PER_REQUEST = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after")


class Kept(NamedTuple):
    """An answer as it left Flask: body, final headers (rate-limit ones aside), status line, unquoted ETag."""
    body: bytes
    headers: tuple
    status: str
    etag: str


class ResponseCache:
    """Kept answers by request key, each for the generation it was computed at, bounded by the bytes they hold:
    a GenerationCache (registry/generations.py) whose cost is an answer's size."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.answers = GenerationCache(max_cost=max_bytes)
        self.common = {}   # value -> the one copy kept (see shared)
        self.common_bytes = 0   # what those copies hold: counted against max_bytes, like the answers

    @property
    def entries(self):
        """Every kept answer by key: (generation, Kept, cost)."""
        return self.answers.entries

    @property
    def size(self) -> int:
        """The bytes held: the answers and the values they share."""
        return self.answers.size + self.common_bytes

    def get(self, key, current: int):
        """The Kept answer for key at generation current, or None."""
        return self.answers.get(key, current)

    def put(self, key, current: int, body: bytes, headers: tuple = (), status: str = OK, etag: str = "") -> None:
        """Keep an answer for key at generation current, evicting the least recently used beyond the bound."""
        if len(body) > MAX_ENTRY:
            return
        self.answers.put(key, current, Kept(body, headers, status, etag), self.cost(key, body, headers, etag))

    def cost(self, key: tuple, body: bytes, headers: tuple, etag: str) -> int:
        """The bytes an entry holds: body, key, headers and ETag with their objects; a value kept once
        for every entry (shared) is not counted against each."""
        size = ENTRY_OVERHEAD + sys.getsizeof(body) + sys.getsizeof(key) + sys.getsizeof(headers) + sys.getsizeof(etag)
        size += sum(sys.getsizeof(part) for part in (key if isinstance(key, tuple) else ())
                    if self.common.get(part) is not part)
        for pair in headers:
            if self.common.get(pair) is not pair:
                size += sys.getsizeof(pair) + sum(sys.getsizeof(part) for part in pair)
        return size

    def shared(self, value):
        """One copy of a value many entries hold (a header such as Cache-Control, a host): thousands of
        answers carry the same few, and each copy would cost as much as a small answer's body."""
        found = self.common.get(value)
        if found is not None:
            return found
        # Bounded in count and in each value's length, and what it holds is taken from the answers' share of
        # the bound: a client's own Host, header or long query cannot grow memory past REGISTRY_RESPONSE_CACHE_BYTES.
        cost = _deep_size(value)
        if len(self.common) < MAX_COMMON and cost <= MAX_SHARED_LENGTH + 200 \
                and self.common_bytes + cost < self.max_bytes // 8:
            self.common[value] = value
            self.common_bytes += cost
            self.answers.max_cost = self.max_bytes - self.common_bytes
        return value


def _deep_size(value) -> int:
    """The bytes a key part (a string) or a header pair (two strings in a tuple) holds."""
    if isinstance(value, tuple):
        return sys.getsizeof(value) + sum(sys.getsizeof(part) for part in value)
    return sys.getsizeof(value)


def _cacheable(req) -> bool:
    return req.method in ("GET", "HEAD") and not is_admin_path(req.path) and req.endpoint is not None


def key(environ: dict, day: str | None = None) -> tuple:
    """The cache key of a request, from its WSGI environ as the app was handed it; day: today as the caller
    already read it."""
    # Everything that shapes the body (docs/threat-model.md#proxies), raw, as the server (and ProxyFix, the
    # one layer outside) wrote it: the request's scheme, host, root path, path and query are each a function
    # of these, so distinct spellings are distinct keys, never a wrong answer. The scheme, host and root
    # path too: the feeds' links are absolute (registry/feeds/), and a client that could set the scheme
    # (X-Forwarded-Proto) must not set it for everyone. The Host header exactly as sent; an HTTP/1.0 request
    # with none is written for the server's address, a key no Host header can spell. An empty Host or one
    # outside TRUSTED_HOSTS is answered 400 (web/hardening.py require_host), so never kept. A page also
    # depends on the format asked for (HTML or Markdown) and on the day: its countdowns ("shuts down in 12
    # days") change at midnight even when no status does.
    negotiated = variant(environ)
    host = environ["HTTP_HOST"] if "HTTP_HOST" in environ else _server(environ)
    return (environ["wsgi.url_scheme"], host, environ.get("SCRIPT_NAME", ""),
            environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")) + (
        (negotiated, day or today()) if negotiated else ())


def _server(environ: dict) -> str:
    return f"<no Host> {environ.get('SERVER_NAME')}:{environ.get('SERVER_PORT')}"


def note_generation() -> None:
    """Read the data generation before the view computes anything: the answer is kept under it."""
    if _cacheable(request._get_current_object()):
        request_generation()
        g.kept_day = today()   # the day the answer is computed on: its key's, if it is kept


def mark_keepable(response):
    """Mark a fresh 200 answer (JSON, a feed or a page) to be kept once every hook has run."""
    if (response.status_code == 200 and "generation" in g and response.mimetype in KEPT_TYPES
            and not response.direct_passthrough):
        response.add_etag()   # hashed once, here; the ETag hook then finds it
        g.keep_answer = True
    return response


def keep_final(cache: ResponseCache, response):
    """Keep a marked answer with its final headers (the last hook to run; a 304 keeps the 200's)."""
    # An answer computed across 00:00 UTC is not kept: a page's countdowns are of the day it began, and it
    # would be kept under the new one.
    day = g.get("kept_day")
    if g.pop("keep_answer", False) and response.status_code in (200, 304) and day == today():
        headers = tuple(cache.shared(pair) for pair in response.headers.to_wsgi_list()
                        if pair[0].lower() not in PER_REQUEST)
        cache.put(tuple(map(cache.shared, key(request.environ, day))), g.generation, response.get_data(), headers,
                  OK, response.get_etag()[0])
    return response


def install_keeping(app) -> ResponseCache | None:
    """The hook that keeps answers, registered before every other after_request hook so it runs last."""
    max_bytes = int(app.config.get("RESPONSE_CACHE_BYTES", 0))
    if max_bytes <= 0:
        return None
    cache = app.extensions["registry_response_cache"] = ResponseCache(max_bytes)
    app.after_request(partial(keep_final, cache))
    return cache


def init_app(app) -> None:
    """Read the generation before the views and mark what is kept (when the cache is on)."""
    if "registry_response_cache" not in app.extensions:
        return
    app.before_request(note_generation)
    app.after_request(mark_keepable)

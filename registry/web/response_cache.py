"""Rendered public answers, kept per process and per data generation (a read-mostly service).

The data changes once a day (an ingest or a curation run bumps the generation), while the same
identifiers are resolved and the same pages read again and again. A 200 answer to a public GET is kept
under its path and query string, tagged with the generation it was computed from, and served again only
while the database still has that generation: each process reads the generation (one indexed row) at
most once per REGISTRY_DATA_RECHECK_MS (web/connection.py), so no process serves data older than the
database by more than that, and nothing here needs to agree with other processes. The limiter, the
rate-limit headers and ETag/304 handling run for cached answers exactly as for fresh ones. Memory is
bounded by RESPONSE_CACHE_BYTES.
"""
import threading
from collections import OrderedDict
from functools import partial

from flask import Response, g, request

from .connection import request_generation
from ..lifecycle import today
from .limits import is_admin_path
from .negotiate import variant

MAX_ENTRY = 256 * 1024   # bigger answers (a 200-model page) are cheap enough to render again


# Headers that belong to the answer and so are kept with it: the lifecycle signals a view sets, what
# the pages' hook adds (registry/pages/), which then skips a CachedAnswer, and the ETag, hashed once.
KEPT_HEADERS = ("Deprecation", "Sunset", "Link", "Content-Security-Policy", "Vary", "ETag")
# What is kept: the JSON answers, the feeds (registry/feeds/) and the pages (HTML, their Markdown
# twins, /llms.txt, CSS and JS; registry/pages/), each served again with its own type.
KEPT_TYPES = ("application/json", "application/atom+xml", "application/feed+json", "text/calendar",
              "text/html", "text/markdown", "text/plain", "text/css", "text/javascript")


class CachedAnswer(Response):
    """An answer served from the cache: it carries the headers it was kept with."""


class ResponseCache:
    """A byte-bounded LRU of (generation, body, headers, content type) by request key, safe across threads."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.size = 0
        self.entries = OrderedDict()   # key -> (generation, body bytes, kept headers, content type)
        self.lock = threading.Lock()

    def get(self, key, current: int):
        """The (body, headers, content type) kept for key at generation current, or None."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if entry[0] != current:
                self._drop(key)
                return None
            self.entries.move_to_end(key)
            return entry[1:]

    def put(self, key, current: int, body: bytes, headers: tuple = (),
            content_type: str = "application/json") -> None:
        """Keep body for key at generation current, evicting the least recently used beyond the bound."""
        if len(body) > min(MAX_ENTRY, self.max_bytes):
            return
        with self.lock:
            if key in self.entries:
                self._drop(key)
            self.entries[key] = (current, body, headers, content_type)
            self.size += len(body)
            while self.size > self.max_bytes:
                self._drop(next(iter(self.entries)))

    def _drop(self, key) -> None:
        self.size -= len(self.entries.pop(key)[1])


def _cacheable(req) -> bool:
    return req.method in ("GET", "HEAD") and not is_admin_path(req.path) and req.endpoint is not None


def _key(req) -> tuple:
    # Everything that shapes the body (docs/threat-model.md#proxies). The raw query string, not a parsed
    # one: distinct spellings are distinct keys, never a wrong answer. The scheme, host and root path
    # too: the feeds' links are absolute (registry/feeds/), and a client that could set the scheme
    # (X-Forwarded-Proto) must not set it for everyone. A page also depends on the format asked for
    # (HTML or Markdown) and on the day: its countdowns ("shuts down in 12 days") change at midnight
    # even when no status does.
    negotiated = variant(req)
    return (req.scheme, req.host, req.root_path, req.path, req.query_string) + (
        (negotiated, today()) if negotiated else ())


def serve_cached(cache: ResponseCache):
    """Answer from the cache when this path was rendered at the database's current generation."""
    req = request._get_current_object()   # one context lookup instead of one per attribute
    if not _cacheable(req):
        return None
    kept = cache.get(_key(req), request_generation())
    if kept is None:
        return None
    # The ETag is among the headers, computed once when kept: the ETag hook finds it and skips hashing.
    return CachedAnswer(kept[0], status=200, content_type=kept[2], headers=kept[1])


def keep_rendered(cache: ResponseCache, response):
    """Keep a fresh 200 answer (JSON, a feed or a page) under the generation read before it was computed."""
    if isinstance(response, CachedAnswer):
        return response
    if (response.status_code == 200 and "generation" in g and response.mimetype in KEPT_TYPES
            and not response.direct_passthrough):
        response.add_etag()
        kept = tuple((name, response.headers[name]) for name in KEPT_HEADERS if name in response.headers)
        cache.put(_key(request), g.generation, response.get_data(), kept, response.content_type)
    return response


def init_app(app) -> None:
    """Attach a cache of RESPONSE_CACHE_BYTES (0 turns it off) and its two hooks."""
    max_bytes = int(app.config.get("RESPONSE_CACHE_BYTES", 0))
    if max_bytes <= 0:
        return
    cache = app.extensions["registry_response_cache"] = ResponseCache(max_bytes)
    app.before_request(partial(serve_cached, cache))
    app.after_request(partial(keep_rendered, cache))

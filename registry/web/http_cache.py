"""HTTP caching (docs/api-decisions.md#caching): ETag and Cache-Control on public reads, never on admin answers."""
from flask import request
from werkzeug.http import parse_etags

from .limits import is_admin_path

PUBLIC = "public, max-age=60"


def cache_headers(response):
    """ETag + Cache-Control on public 200 GETs (304 on a matching If-None-Match); no-store elsewhere."""
    req = request._get_current_object()   # one context lookup instead of one per attribute
    if is_admin_path(req.path) or response.status_code >= 400:
        # Admin answers are per key; errors (429 above all) must not be replayed by a shared cache.
        response.headers["Cache-Control"] = "no-store"
        return response
    if req.method not in ("GET", "HEAD") or response.status_code != 200:
        return response
    response.headers["Cache-Control"] = PUBLIC
    response.add_etag()
    # The ETag is read back (a header parse) only for a client that sent If-None-Match.
    if "HTTP_IF_NONE_MATCH" in req.environ and not_modified(req.environ, response.get_etag()[0]):
        response.status_code = 304   # werkzeug then sends no body and drops Content-Type/Length
    return response


def not_modified(environ, etag: str) -> bool:
    """Whether the request's If-None-Match matches etag (an answer kept or just rendered): a 304."""
    # The weak comparison (RFC 9110 §13.1.2); "*" matches any current answer. Without the header
    # nothing can match: it is parsed only when a client sent it.
    header = environ.get("HTTP_IF_NONE_MATCH")
    return header is not None and parse_etags(header).contains_weak(etag)


def init_app(app) -> None:
    """Register the caching hook."""
    app.after_request(cache_headers)

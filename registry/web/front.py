"""Kept answers served in front of Flask: a WSGI layer between the server and the app.

A cached answer is a dictionary lookup, one count in the rate-limit storage and a write to the socket;
through Flask it also paid for a request context, routing, a dozen hooks and a response object, three
times what the server itself costs (issue 31). This layer answers a public GET or HEAD whose answer is
kept at the current data generation (registry/web/response_cache.py) directly:

- it counts the request in the same `limits` storage, under the same keys, as flask-limiter does for the
  public budget (registry/web/limits.py count_public), so the budget is one budget across both paths,
  memory or Redis; the X-RateLimit-* headers come from the same function as the limiter hook's;
- the other headers are the ones the answer left Flask with (every hook's, kept with it), in order;
- If-None-Match is answered 304 with the same comparison and the headers werkzeug leaves on a 304.

Everything else goes to Flask: a miss, a body, a transport error, a new UTC day not yet checked, a
rate-limit store that is failing or falling back, and an over-budget request, which Flask answers 429
without counting it a second time (limits.COUNTED). docs/api-decisions.md#caching
"""
import logging

from werkzeug.http import remove_entity_headers
from werkzeug.wrappers import Response

from ..lifecycle import today
from ..serve.transport_errors import ENVIRON_KEY as TRANSPORT_ERROR
from . import connection, lifecycle_clock, limits
from .limit_storage import is_storage_error
from .http_cache import not_modified
from .response_cache import key

log = logging.getLogger(__name__)
NOT_MODIFIED = Response(status=304).status   # werkzeug's own status line, as Flask sends it
READS = ("GET", "HEAD")


class KeptAnswers:
    """WSGI middleware: answers from the response cache, or hands the request to the Flask app."""

    def __init__(self, app, cache, wsgi_app):
        self.app = app
        self.config = app.config
        self.cache = cache
        self.wsgi_app = wsgi_app   # Flask's own wsgi_app, which this layer replaces

    def __call__(self, environ, start_response):
        try:
            answer = self.answer(environ)
        except Exception:   # never a 500 of our own making: Flask answers it as it always did
            log.exception("kept answer not served; Flask answers")
            answer = None
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return body

    def answer(self, environ):
        """(status line, headers, body) for a kept answer, or None for Flask to answer."""
        if (environ["REQUEST_METHOD"] not in READS or TRANSPORT_ERROR in environ
                or environ.get("CONTENT_LENGTH", "0") not in ("", "0") or "HTTP_TRANSFER_ENCODING" in environ):
            return None
        day = today()   # read once: the clock's check and a page's key both need it
        # The raw path: one in the admin area is in it once decoded too (and an admin answer is never kept).
        if limits.is_admin_path(environ.get("PATH_INFO", "")) or not lifecycle_clock.checked_today(self.app, day):
            return None
        kept = self.cache.get(key(environ, day), connection.recent_generation(self.config))
        if kept is None:
            return None
        headers = list(kept.headers)
        limiter = self.app.extensions.get("registry_limiter")
        if limiter is not None and limiter.enabled:
            counted = self.count(limiter, environ)
            if counted is None:
                return None
            headers += counted
        if not_modified(environ, kept.etag):
            remove_entity_headers(headers)
            return NOT_MODIFIED, headers, []
        return kept.status, headers, [] if environ["REQUEST_METHOD"] == "HEAD" else [kept.body]

    def count(self, limiter, environ):
        """The X-RateLimit-* headers after counting the request, or None (and Flask answers) when it cannot."""
        if limiter._storage_dead:   # flask-limiter's fallback, and its checks for the store's return
            return None
        try:
            counted = limits.count_public(limiter, self.config["RATELIMIT_PUBLIC"], environ.get("REMOTE_ADDR"))
        except Exception as err:
            if not is_storage_error(limiter.storage, err):
                raise
            return None   # uncounted: flask-limiter meets the outage and falls back (and logs it, once)
        if counted is None:
            environ[limits.COUNTED] = True
            return None
        return limits.limit_headers(limiter, counted[0], counted, 200)


def install(app, cache) -> None:
    """Put the layer in front of app's WSGI callable (inside ProxyFix, which create_app adds after)."""
    app.wsgi_app = KeptAnswers(app, cache, app.wsgi_app)

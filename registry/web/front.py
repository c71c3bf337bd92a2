"""Public reads counted, and kept answers served, in front of Flask: a WSGI layer between the server and the app.

A cached answer is a dictionary lookup, one count in the rate-limit storage and a write to the socket;
through Flask it also paid for a request context, routing, a dozen hooks and a response object, three
times what the server itself costs (issue 31). This layer takes every public GET or HEAD:

- it counts the request with the one count of registry/web/limits.py (count_public, the call the limiter's
  hook makes for everything else), and marks it counted (limits.COUNTED), so the budget is one budget across
  both paths, memory or Redis, and a request is counted once; the X-RateLimit-* headers come from the same
  function as the hook's;
- an answer kept at the current data generation (registry/web/response_cache.py) is served here, with
  the other headers it left Flask with (every hook's, kept with it), in order; If-None-Match is answered
  304 with the same comparison and the headers werkzeug leaves on a 304;
- anything else goes to Flask already counted: the limiter's hook answers an over-budget one 429, and
  writes the headers of this count on the rest.

Flask counts and answers the rest itself: other methods, the admin area, a body, a transport error; and a
new UTC day not yet checked is Flask's to answer. docs/api-decisions.md#caching
"""
import logging

from werkzeug.http import remove_entity_headers
from werkzeug.wrappers import Response

from ..lifecycle import today
from .transport_errors import ENVIRON_KEY as TRANSPORT_ERROR
from . import connection, lifecycle_clock, limits
from .http_cache import not_modified
from .response_cache import key

log = logging.getLogger(__name__)
NOT_MODIFIED = Response(status=304).status   # werkzeug's own status line, as Flask sends it
READS = ("GET", "HEAD")


class KeptAnswers:
    """WSGI middleware: counts public reads, answers kept ones (the cache on), hands the rest to Flask."""

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
        # The path Flask routes, but not yet decoded (werkzeug's Request.path; decoding keeps the ASCII prefix):
        # the admin area draws from its own budget, counted behind Flask (limits.check).
        if limits.is_admin_path("/" + environ.get("PATH_INFO", "").lstrip("/")):
            return None
        counted = []
        if limits.enabled(self.app):
            counted = self.count(environ)
            if counted is None:
                return None
        if self.cache is None:
            return None
        day = today()   # read once: the clock's check and a page's key both need it
        if not lifecycle_clock.checked_today(self.app, day):
            return None
        kept = self.cache.get(key(environ, day), connection.recent_generation(self.config))
        if kept is None:
            return None
        headers = list(kept.headers)
        if counted:
            headers += limits.limit_headers(counted, 200)
        if not_modified(environ, kept.etag):
            remove_entity_headers(headers)
            return NOT_MODIFIED, headers, []
        return kept.status, headers, [] if environ["REQUEST_METHOD"] == "HEAD" else [kept.body]

    def count(self, environ):
        """The public budget's limits as counted for this request (Flask then only answers it), or None when it is
        over budget (Flask answers the 429) or cannot be counted (Flask counts it)."""
        try:
            counted = limits.count_public(self.app, environ.get("REMOTE_ADDR"))
        except Exception:   # no store's fault (the store's own faults fall back to memory): Flask's to count
            log.exception("public read not counted in front; Flask counts it")
            return None
        environ[limits.COUNTED] = counted
        if limits.over_budget(counted):
            return None
        return counted


def install(app, cache) -> None:
    """Put the layer in front of app's WSGI callable (inside ProxyFix, which create_app adds after); cache:
    the response cache, or None when it is off (the layer then only counts)."""
    app.wsgi_app = KeptAnswers(app, cache, app.wsgi_app)

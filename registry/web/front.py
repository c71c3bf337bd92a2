"""Public reads counted, and kept answers served, in front of Flask: a WSGI layer between the server and the app.

A cached answer is a dictionary lookup, one count in the rate-limit storage and a write to the socket;
through Flask it also paid for a request context, routing, a dozen hooks and a response object, three
times what the server itself costs (issue 31). And flask-limiter's check of a request Flask renders
(its limits resolved, filtered and evaluated per request) cost more than the count it makes. This layer
takes every public GET or HEAD:

- it counts the request in the same `limits` storage, under the same keys, as flask-limiter does for the
  public budget (registry/web/limits.py count_public), so the budget is one budget across both paths,
  memory or Redis; the X-RateLimit-* headers come from the same function as the limiter hook's;
- an answer kept at the current data generation (registry/web/response_cache.py) is served here, with
  the other headers it left Flask with (every hook's, kept with it), in order; If-None-Match is answered
  304 with the same comparison and the headers werkzeug leaves on a 304;
- anything else goes to Flask already counted (limits.FRONT_COUNTED): flask-limiter skips it, and the
  limiter's hook writes the headers of this count.

Flask counts and answers the rest itself: other methods, the admin area, a body, a transport error, a
rate-limit store that is failing or falling back; and a new UTC day not yet checked is Flask's to answer.
An over-budget request is handed over counted, and Flask checks it at no cost (limits.COUNTED) and
answers the 429. docs/api-decisions.md#caching
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
        # the admin area draws from its own budget, counted by flask-limiter.
        if limits.is_admin_path("/" + environ.get("PATH_INFO", "").lstrip("/")):
            return None
        counted = []
        limiter = self.app.extensions.get("registry_limiter")
        if limiter is not None and limiter.enabled:
            counted = self.count(limiter, environ)
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
            headers += limits.limit_headers(limiter, counted[0], counted, 200)
        if not_modified(environ, kept.etag):
            remove_entity_headers(headers)
            return NOT_MODIFIED, headers, []
        return kept.status, headers, [] if environ["REQUEST_METHOD"] == "HEAD" else [kept.body]

    def count(self, limiter, environ):
        """The public budget's limits as counted for this request, or None (and Flask answers) when it cannot."""
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
        environ[limits.FRONT_COUNTED] = counted   # for Flask, should it answer: counted, and these the limits
        return counted


def install(app, cache) -> None:
    """Put the layer in front of app's WSGI callable (inside ProxyFix, which create_app adds after); cache:
    the response cache, or None when it is off (the layer then only counts)."""
    app.wsgi_app = KeptAnswers(app, cache, app.wsgi_app)

"""What wraps every view: error shape, rate limits, hygiene, HTTP caching, the response cache.

install(app) registers the hooks in the order they run; Flask runs before_request hooks in
registration order and after_request hooks in reverse, so this one list is the whole story. Its last
line puts the layer that serves kept public reads in front of Flask (front.py); that layer decides
nothing of its own: it calls the functions the hooks call (limits.count_public and limit_headers,
limits.is_admin_path, lifecycle_clock.checked_today, http_cache.not_modified), and marks what it did
(limits.COUNTED) so that no hook decides it again.
"""
from . import (errors, front, generation_memo, hardening, http_cache, lifecycle_clock, limits, openapi, request_body,
               response_cache)

SYNC_CHECKS_KEPT = 1024   # far more than the app's hooks, views and handlers


def install(app) -> None:
    """Register every hook and handler on app, in the order they run."""
    remember_sync_checks(app)
    # The response cache keeps each answer as it leaves Flask, so its hook is registered first and runs
    # last, after every other hook has set its headers (RESPONSE_CACHE_BYTES=0: no cache, no hook).
    cache = response_cache.install_keeping(app)
    # Error handlers first: every failure below, whatever raised it, answers in the one JSON shape.
    errors.init_app(app)
    # Bodies bounded before they are read and parsed with limits; a broken one is a 4xx (request_body.py).
    request_body.init_app(app)
    # The limiter's check runs first, so even requests that the others refuse are counted (a public read the
    # front layer counted is not counted again); its headers hook is registered first and so runs last.
    limits.init_app(app)
    # An error the worker's HTTP parser met answers now, whatever the path (a cached one included).
    hardening.init_app(app)
    # Statuses true on the day they are read: recomputed on a new UTC day before anything reads them
    # (and before the response cache, which then sees the new data generation).
    lifecycle_clock.init_app(app)
    # ETag / Cache-Control / 304 on what the view or the cache produced.
    http_cache.init_app(app)
    # The data generation read before the view computes; the answer is marked to be kept.
    response_cache.init_app(app)
    # Counts that change only with the data (the total of a /models list), kept per generation.
    generation_memo.init_app(app)
    # Undecodable query strings are refused before any view reads request.args. A kept answer
    # skips this: its raw query string is part of its key and passed this check when it was kept.
    hardening.init_query_check(app)
    # A streamed (chunked) body is read up to its bound before any view, after the limiter counted it.
    request_body.init_reading(app)
    # Public reads are counted, and kept answers served, in front of all of the above (web/front.py).
    front.install(app, cache)


def install_documents(app) -> None:
    """Serve the OpenAPI document (parsed now, so a broken file stops the app at startup)."""
    openapi.init_app(app)


def remember_sync_checks(app) -> None:
    """Ask once per function, not once per request, whether a hook or view is a coroutine function.

    Flask's ensure_sync (documented as the method to override for this) calls inspect on every
    hook, view and error handler of every request; the answer never changes for a function.
    Bounded: functions made per request (after_this_request) are asked every time once it is full.
    """
    checked = {}
    flask_ensure_sync = app.ensure_sync

    def ensure_sync(func):
        try:
            return checked[func]
        except KeyError:
            found = flask_ensure_sync(func)
            if len(checked) < SYNC_CHECKS_KEPT:
                checked[func] = found
            return found
        except TypeError:   # an unhashable callable: asked every time, as Flask does
            return flask_ensure_sync(func)

    app.ensure_sync = ensure_sync

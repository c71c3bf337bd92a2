"""Request bodies: bounded before they are read, parsed with limits, and a broken one is the client's 4xx.

Three ways a body took a worker or answered 500 (issue 28, items 4 and 5; docs/threat-model.md#clients):
- size: one 100 MB POST to /mcp was read whole into memory. Flask's MAX_CONTENT_LENGTH
  (REGISTRY_MAX_BODY_BYTES) refuses a larger Content-Length with 413 before a byte of it is read.
  A chunked body has no length to check: werkzeug reads it up to the bound and then stops, silently
  (LimitedStream.readall), so it is read here, before the view, and one byte more than the bound is a
  413 too. gunicorn then drains at most 64 KB of what is left before it closes the connection.
- depth: `[[[[...` made Python's json raise RecursionError. The app's JSON provider parses every
  request body with registry/json_limits.py, so too deep is a ValueError, which Flask's get_json
  and the views already answer as 400.
- framing: a malformed chunked body makes gunicorn's reader raise while the app reads; that is the
  client's error, answered 400 like the errors the worker's parser meets (registry/web/transport_errors.py).
"""
from flask import request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import RequestEntityTooLarge

from .. import json_limits
from .errors import error_response


class BoundedJSON(DefaultJSONProvider):
    """Flask's JSON provider, parsing with the client limits (no NaN, nesting at most CLIENT_DEPTH)."""

    def loads(self, s, **kwargs):
        """A request body's JSON document; ValueError when it is not one within the limits."""
        return json_limits.loads(s, json_limits.CLIENT_DEPTH)


def too_large(err: RequestEntityTooLarge):
    """413 in the error shape, naming the bound."""
    limit = request.max_content_length
    return error_response(413, "payload_too_large", f"The request body is larger than {limit} bytes.")


def read_streamed_body() -> None:
    """A body without Content-Length (chunked): read now up to the bound (the views then get it from
    Flask's cache), and a 413 when more follows."""
    if request.content_length is not None or request.method in ("GET", "HEAD", "OPTIONS"):
        return
    limit = request.max_content_length
    data = request.get_data(cache=True)
    if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()


def init_app(app) -> None:
    """Bound and parse request bodies as above (MAX_CONTENT_LENGTH comes from the settings)."""
    json = BoundedJSON(app)
    json.sort_keys, json.ensure_ascii = app.json.sort_keys, app.json.ensure_ascii
    app.json = json
    app.register_error_handler(RequestEntityTooLarge, too_large)


def init_reading(app) -> None:
    """Register the read of streamed bodies (web.install places it after the limiter has counted)."""
    app.before_request(read_streamed_body)

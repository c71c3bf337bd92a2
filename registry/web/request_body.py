"""Request bodies: bounded before they are read, parsed with limits, and a broken one is the client's 4xx.

Three ways a body took a worker or answered 500 (issue 28, items 4 and 5; docs/threat-model.md#clients):
- size: one 100 MB POST to /mcp was read whole into memory. Flask's MAX_CONTENT_LENGTH
  (REGISTRY_MAX_BODY_BYTES) refuses a larger Content-Length with 413 before a byte of it is read, and
  stops a chunked body once it passes the bound; gunicorn then drains at most 64 KB of what is left
  before it closes the connection.
- depth: `[[[[...` made Python's json raise RecursionError. The app's JSON provider parses every
  request body with registry/json_limits.py, so too deep is a ValueError, which Flask's get_json
  and the views already answer as 400.
- framing: a malformed chunked body makes gunicorn's reader raise while the app reads; that is the
  client's error, answered 400 like the errors the worker's parser meets (registry/transport_errors.py).
"""
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
    from flask import current_app
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    return error_response(413, "payload_too_large", f"The request body is larger than {limit} bytes.")


def init_app(app) -> None:
    """Bound and parse request bodies as above (MAX_CONTENT_LENGTH comes from the settings)."""
    json = BoundedJSON(app)
    json.sort_keys, json.ensure_ascii = app.json.sort_keys, app.json.ensure_ascii
    app.json = json
    app.register_error_handler(RequestEntityTooLarge, too_large)

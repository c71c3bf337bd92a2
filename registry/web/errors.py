"""ApiError and the one JSON error shape for every failure, whatever raised it."""
import logging

from flask import current_app, jsonify
from werkzeug.exceptions import HTTPException

from . import transport_errors
from .negotiate import error_format

log = logging.getLogger(__name__)

# HTTP status -> error code, for errors werkzeug raises (unknown route, wrong method, ...).
CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    429: "rate_limited",
    431: "request_header_fields_too_large",
    503: "service_unavailable",
}


class ApiError(Exception):
    """An error with an HTTP status, a spec error code and a human-readable message."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def bad_request(message: str) -> ApiError:
    """400 bad_request."""
    return ApiError(400, "bad_request", message)


def not_found(kind: str, slug: str) -> ApiError:
    """404 not_found naming the kind of resource and the slug."""
    return ApiError(404, "not_found", f"{kind} '{slug}' not found.")


def error_response(status: int, code: str, message: str, headers: dict | None = None):
    """Build the spec's error body {"error": {"code", "message"}} with a status.

    Outside /api/v1, a person (Accept: text/html) or an agent (Markdown) gets the same error as a
    page, from the renderer the pages register (docs/api-decisions.md#pages).
    """
    response = _error_page(status, code, message)
    if response is None:
        response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _error_page(status: int, code: str, message: str):
    page = current_app.extensions.get("registry_error_page")
    wanted = error_format() if page else None
    if wanted is None:
        return None
    try:
        return page(status, code, message, wanted)
    except Exception:   # a page that cannot be drawn must not hide the error: the JSON shape still answers
        log.exception("error page for %s not rendered", status)
        return None


def handle_api_error(err: ApiError):
    return error_response(err.status, err.code, err.message, err.headers)


def handle_http_exception(err: HTTPException):
    status = err.code or 500
    if status == 404:
        message = "The requested URL was not found on this server."
    elif status == 405:
        message = "The method is not allowed for the requested URL."
    else:
        message = err.description or err.name
    headers = {k: v for k, v in err.get_headers() if k.lower() in ("allow", "retry-after")}
    code = CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    return error_response(status, code, message, headers)


def handle_unexpected(err: Exception):
    # A body the HTTP parser could not read (a malformed chunk) is raised only once the view reads it:
    # the client's error, answered as the worker answers its own (registry/web/request_body.py).
    fault = transport_errors.client_fault(err)
    if fault is not None:
        return error_response(*fault)
    # Logged with its trace here; the client only sees a generic message.
    log.exception("unhandled error: %s", err)
    return error_response(500, "internal_error", "An internal error occurred.")


def init_app(app) -> None:
    """Route every failure through the one error shape."""
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)

"""JSON answers for the errors gunicorn finds itself (request line, headers, framing), through the app.

gunicorn answers these with an HTML page and no X-RateLimit-* headers (issue 15, item 6). The
worker (registry/serve/worker.py) hands them here instead: the error is put into a WSGI environ that no
client can forge (the key has no HTTP_ prefix) and the app answers it like any other request, so
the limiter counts it and the one error shape and headers apply (docs/api-decisions.md).
"""
import io
import json
import sys
from ssl import SSLError

from gunicorn import SERVER, util
from gunicorn.http import errors as h

ENVIRON_KEY = "registry.transport_error"
MAX_DETAIL = 200   # the parser's message can quote the offending bytes: never echo 8 KB back

# Exception class -> (status, code, message); the first match wins, so subclasses come first.
KINDS = (
    ((h.InvalidResponseHeader, h.InvalidResponseHeaderName), 500, "internal_error",
     "An internal error occurred."),
    (h.LimitRequestLine, 414, "uri_too_long", "The request line is too long."),
    (h.LimitRequestHeaders, 431, "request_header_fields_too_large",
     "The request headers are too large or too many."),
    (h.ExpectationFailed, 417, "expectation_failed", "The Expect header cannot be met."),
    (h.UnsupportedTransferCoding, 501, "not_implemented", "The Transfer-Encoding is not supported."),
    (h.ForbiddenProxyRequest, 403, "forbidden", "The request is forbidden."),
    (h.ConfigurationProblem, 500, "internal_error", "An internal error occurred."),
    ((h.ParseException, SSLError), 400, "bad_request", "The request is malformed."),
    (h.NoMoreData, 400, "bad_request", "The request body ended before its framing said it would."),
)


def classify(exc: BaseException) -> tuple:
    """(status, code, message) for an exception raised while reading or answering a request."""
    for kinds, status, code, message in KINDS:
        if isinstance(exc, kinds):
            # The parser decodes bytes as latin-1: show anything outside ASCII as \xNN escapes.
            detail = str(exc).encode("ascii", "backslashreplace").decode("ascii")
            if status < 500 and detail:
                if len(detail) > MAX_DETAIL:
                    detail = detail[:MAX_DETAIL] + "..."
                message = f"{message} ({detail})"
            return status, code, message
    return 500, "internal_error", "An internal error occurred."


def client_fault(exc: BaseException) -> tuple | None:
    """(status, code, message) when exc is the HTTP parser refusing what the client sent (a 4xx), else None."""
    if not isinstance(exc, (h.ParseException, h.NoMoreData, SSLError)):
        return None
    found = classify(exc)
    return found if found[0] < 500 else None


def environ_for(status: int, code: str, message: str, addr) -> dict:
    """A minimal GET / environ carrying the error, from the client's address (so its budget is charged)."""
    return {
        "REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": "/", "QUERY_STRING": "",
        "SERVER_NAME": "registry", "SERVER_PORT": "0", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": addr[0], "REMOTE_PORT": str(addr[1]),
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False,
        "wsgi.run_once": False, ENVIRON_KEY: (status, code, message),
    }


def render(app, status: int, code: str, message: str, addr) -> tuple:
    """(status line, headers, body) from the app; the bare JSON shape if the app itself fails."""
    try:
        captured = {}

        def start_response(status_line, headers, exc_info=None):
            captured.update(status=status_line, headers=headers)

        result = app(environ_for(status, code, message, addr), start_response)
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return captured["status"], captured["headers"], body
    except Exception:
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        return f"{status} Error", [("Content-Type", "application/json"),
                                   ("Content-Length", str(len(body))),
                                   ("X-Content-Type-Options", "nosniff")], body


def answer(worker, req, client, addr, exc) -> None:
    """Write the JSON answer to an error the worker met, then the connection closes."""
    addr = addr if isinstance(addr, tuple) else ("", -1)   # a unix socket has no peer address
    status, code, message = classify(exc)
    if status >= 500:
        worker.log.exception("Error handling request: %s", exc)
    else:
        worker.log.warning("Invalid request from ip=%s: %s", addr[0], str(exc)[:MAX_DETAIL])
    status_line, headers, body = render(worker.wsgi, status, code, message, addr)
    skip = {"connection", "server", "date"}
    lines = [f"HTTP/1.1 {status_line}", f"Server: {SERVER}", f"Date: {util.http_date()}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers if name.lower() not in skip]
    try:
        util.write(client, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    except Exception:
        worker.log.debug("Failed to send error message.")

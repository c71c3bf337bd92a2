"""Request hygiene: input werkzeug cannot take apart answers 400 up front instead of a 500 later."""
from urllib.parse import unquote_to_bytes

from flask import request

from . import transport_errors
from .errors import ApiError, bad_request


def reject_undecodable_query() -> None:
    """400 when the query string, or a parameter once its percent-escapes are decoded, is not UTF-8."""
    # Raw bytes in the request line (a client that does not encode) make .decode() raise;
    # percent-escapes of bad bytes (q=x%ffy) werkzeug would decode with replacement characters
    # and search for, so each name and value is decoded strictly here (docs/api-decisions.md).
    try:
        query = request.query_string.decode("utf-8")
    except UnicodeDecodeError:
        raise bad_request("The query string is not valid UTF-8; percent-encode it.") from None
    if "%" not in query:
        return
    try:   # the whole string at once: its separators are ASCII, so it decodes exactly when every part does
        unquote_to_bytes(query).decode("utf-8")
        return
    except UnicodeDecodeError:
        pass   # name the part that does not
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        try:
            name = unquote_to_bytes(name.replace("+", " ")).decode("utf-8")
        except UnicodeDecodeError:
            raise bad_request("A parameter name is not valid UTF-8 once percent-decoded.") from None
        try:
            unquote_to_bytes(value.replace("+", " ")).decode("utf-8")
        except UnicodeDecodeError:
            raise bad_request(f"Parameter '{name}' is not valid UTF-8 once percent-decoded.") from None


def answer_transport_error() -> None:
    """Raise the error the worker's HTTP parser met, if this request carries one."""
    found = request.environ.get(transport_errors.ENVIRON_KEY)
    if found:
        status, code, message = found
        raise ApiError(status, code, message)


def require_host() -> None:
    """400 for a request whose Host the answer cannot be written for: an empty Host header, none at all over
    HTTP/1.1 (RFC 9112 section 3.2), or a host outside REGISTRY_TRUSTED_HOSTS (docs/threat-model.md#host)."""
    environ = request.environ
    host = environ.get("HTTP_HOST")
    if host is not None and not host.strip():
        raise bad_request("The Host header is empty; name the host you asked for.")
    if host is None and environ.get("SERVER_PROTOCOL", "HTTP/1.1") != "HTTP/1.0":
        raise bad_request("A request over HTTP/1.1 needs a Host header.")
    _ = request.host   # Flask's TRUSTED_HOSTS check: werkzeug answers 400 for a host outside it


def no_sniffing(response):
    """X-Content-Type-Options: nosniff on every answer: a browser takes our JSON only as JSON."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def init_app(app) -> None:
    """Register the transport-error check and nosniff; routing is exact (/api/v1//models is a 404)."""
    app.url_map.merge_slashes = False
    # An error the HTTP parser found (registry/serve/worker.py) answers here, after the limiter counted it.
    app.before_request(answer_transport_error)
    app.before_request(require_host)
    app.after_request(no_sniffing)


def init_query_check(app) -> None:
    """Register the query-string check (web.install places it after the response cache)."""
    app.before_request(reject_undecodable_query)

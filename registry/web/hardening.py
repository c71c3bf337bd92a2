"""Request hygiene: input werkzeug cannot take apart answers 400 up front instead of a 500 later."""
from flask import request

from .errors import bad_request


def reject_undecodable_query() -> None:
    """400 when the raw query string is not UTF-8 (werkzeug's request.args would raise on it)."""
    # Percent-escapes of bad bytes (%ff) decode with replacement characters; raw bytes in the
    # request line (a client that does not encode) reach us as-is and make .decode() raise.
    try:
        request.query_string.decode("utf-8")
    except UnicodeDecodeError:
        raise bad_request("The query string is not valid UTF-8; percent-encode it.") from None


def init_app(app) -> None:
    """Register the checks; routing is exact (no merged slashes: /api/v1//models is a 404, not a redirect)."""
    app.url_map.merge_slashes = False
    app.before_request(reject_undecodable_query)

"""Query-parameter parsing: every invalid value is a 400 naming the parameter."""
import re

from flask import request

from ..web.errors import bad_request

MAX_Q = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")   # C0, DEL and C1 (what the OpenAPI pattern says)
_INT = re.compile(r"^[+-]?[0-9]{1,18}$")          # ASCII only: \d would take other scripts' digits


def single(name: str) -> str | None:
    """The one value of a parameter; None when absent; 400 when given more than once."""
    values = request.args.getlist(name)
    if len(values) > 1:
        raise bad_request(f"Parameter '{name}' may be given only once.")
    return values[0] if values else None


def text(name: str) -> str | None:
    """A plain string parameter (absent: None; empty is invalid)."""
    value = single(name)
    if value is None:
        return None
    if not value.strip() or _CONTROL.search(value) or len(value) > MAX_Q:
        raise bad_request(f"Parameter '{name}' must be a non-empty string of at most {MAX_Q} characters.")
    return value


def integer(name: str, default=None, minimum=None, maximum=None) -> int | None:
    """An integer parameter within bounds."""
    value = single(name)
    if value is None:
        return default
    if not _INT.match(value.strip()):
        raise bad_request(f"Parameter '{name}' must be an integer.")
    number = int(value)
    if minimum is not None and number < minimum:
        raise bad_request(f"Parameter '{name}' must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise bad_request(f"Parameter '{name}' must be at most {maximum}.")
    return number


def boolean(name: str) -> bool | None:
    """A true/false parameter."""
    value = single(name)
    if value is None:
        return None
    if value.lower() not in ("true", "false"):
        raise bad_request(f"Parameter '{name}' must be true or false.")
    return value.lower() == "true"


def choice(name: str, choices, default=None) -> str | None:
    """One of a fixed set of values."""
    value = single(name)
    if value is None:
        return default
    if value not in choices:
        raise bad_request(f"Parameter '{name}' must be one of: {', '.join(choices)}.")
    return value


def query_text() -> str:
    """The required q of resolve and search (docs/api-decisions.md#parameters)."""
    value = single("q")
    if value is None or not value.strip():
        raise bad_request("Parameter 'q' is required.")
    if len(value) > MAX_Q:
        raise bad_request(f"Parameter 'q' must be at most {MAX_Q} characters.")
    if _CONTROL.search(value):
        raise bad_request("Parameter 'q' must not contain control characters.")
    return value

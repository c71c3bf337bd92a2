"""Request parameters: query-parameter parsing (every invalid value is a 400 naming the parameter) and a
path slug's row or a 404, for the API's views and the pages alike."""
import re
from datetime import datetime, timezone
from functools import partial

from flask import request

from ..fields import BY_NAME, CAPABILITIES, KNOWLEDGE_CUTOFF, MAX_ID, MODALITIES, MODEL_TYPES, REASONING_EFFORTS
from .connection import get_db
from .errors import bad_request, not_found

MAX_Q = MAX_ID   # a query is at most as long as any stored id (registry/fields.py)
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
    return _number(name, _INT, int, "an integer", default, minimum, maximum)


# A JSON Schema number as clients write one ("1", "0.5", "80526.0277285976", "1e-05"), bounded in length.
_AMOUNT = re.compile(r"^[0-9]{1,9}(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?$")   # ASCII digits, as _INT


def amount(name: str, maximum: float) -> float | None:
    """A non-negative decimal parameter ("1", "0.5", "2.5e-1") at most maximum."""
    return _number(name, _AMOUNT, float, "a number such as 1 or 0.5", None, None, maximum)


def _number(name: str, pattern, read, kind: str, default, minimum, maximum):
    value = single(name)
    if value is None:
        return default
    if not pattern.match(value.strip()):
        raise bad_request(f"Parameter '{name}' must be {kind}.")
    number = read(value)
    if minimum is not None and number < minimum:
        raise bad_request(f"Parameter '{name}' must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise bad_request(f"Parameter '{name}' must be at most {maximum}.")
    return number


def month(name: str) -> str | None:
    """A month (YYYY-MM) or a day (YYYY-MM-DD)."""
    value = single(name)
    if value is None:
        return None
    if not KNOWLEDGE_CUTOFF.fullmatch(value.strip()):
        raise bad_request(f"Parameter '{name}' must be a month (YYYY-MM) or a day (YYYY-MM-DD).")
    return value.strip()


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


_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_MOMENT = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?"
                     r"(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$")


def instant(name: str) -> str | None:
    """An RFC 3339 date (2026-11-01) or date-time (2026-11-01T08:00:00+02:00), in the stored form: UTC, …T…Z."""
    value = single(name)
    if value is None:
        return None
    value = value.strip()
    if not (_DAY.match(value) or _MOMENT.match(value)):
        raise bad_request(f"Parameter '{name}' must be a date (YYYY-MM-DD) or an RFC 3339 date-time.")
    try:
        moment = datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        raise bad_request(f"Parameter '{name}' is not a real date or time: '{value}'.") from None
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:   # 0001-01-01T00:00+01:00 is before the first UTC instant Python can hold
        return "0001-01-01T00:00:00Z" if moment.year == 1 else "9999-12-31T23:59:59Z"


MAX_LIST = 2000


def listed(name: str, choices=None) -> list | None:
    """A comma-separated list (each item trimmed, none empty), at most MAX_LIST characters, each one of choices."""
    value = single(name)
    if value is None:
        return None
    items = [item.strip() for item in value.split(",")]
    if not all(items) or len(value) > MAX_LIST or _CONTROL.search(value):
        raise bad_request(f"Parameter '{name}' must be a comma-separated list of non-empty values, at most"
                          f" {MAX_LIST} characters without control characters.")
    if choices is not None:
        unknown = [item for item in items if item not in choices]
        if unknown:
            raise bad_request(f"Parameter '{name}': unknown value '{unknown[0]}'; valid: {', '.join(choices)}.")
    return list(dict.fromkeys(items))


def only(*names: str) -> None:
    """400 naming the first parameter the endpoint does not take (docs/api-decisions.md#parameters): a
    misspelt filter must not silently mean "everything"."""
    for name in request.args:
        if name not in names:
            raise bad_request(f"Unknown parameter '{name}'; this endpoint takes: {', '.join(names)}.")


MAX_PRICE_FILTER = 100_000   # dollars per 1M tokens: past any real price


def _capability_reader(name: str):
    kind = BY_NAME[name].kind
    if kind == "modalities":
        return partial(listed, choices=MODALITIES)
    if kind == "efforts":
        return partial(listed, choices=REASONING_EFFORTS)
    return boolean if kind == "flag" else None


# Each filter of /models and /search with its reader, in one table. A knowledge cutoff is filtered by the earliest
# one a caller accepts (min_knowledge_cutoff), every other capability by its own name; prices per 1M tokens, the
# model's lowest on any platform.
_FILTER_READERS = {
    "model_type": partial(listed, choices=MODEL_TYPES),
    **{name: reader for name in CAPABILITIES if (reader := _capability_reader(name)) is not None},
    "min_knowledge_cutoff": month,
    "max_input_price": partial(amount, maximum=MAX_PRICE_FILTER),
    "max_output_price": partial(amount, maximum=MAX_PRICE_FILTER),
}
FILTERS = tuple(_FILTER_READERS)


def model_filters() -> dict:
    """The type and capability filters of /models and /search: model_type (a comma list: any of),
    input_modalities / output_modalities / reasoning_efforts (a comma list: every one), tool_calling / reasoning /
    vision / structured_output (true or false: what a source states; a capability no source states matches
    neither), min_knowledge_cutoff, max_input_price / max_output_price. Only those given are read."""
    given = request.args
    filters = {}
    for name, read in _FILTER_READERS.items():
        if name in given:
            value = read(name)
            if value is not None:
                filters[name] = value
    return filters


def get_or_404(kind: str, lookup, slug: str):
    """lookup(db, slug), or a 404 naming the kind of resource and the slug (as flaskr's get_post())."""
    found = lookup(get_db(), slug)
    if found is None:
        raise not_found(kind, slug)
    return found

"""JSON from outside (an upstream's page, a client's body), parsed with limits (docs/threat-model.md).

Python's json module takes `NaN`, `Infinity` and `1e400` (not finite: another reader refuses them, and
a number that is not finite has no place in a fact or a call), and raises RecursionError, not
ValueError, on a document nested a thousand deep (`[[[[...`), which a caller catching ValueError turns
into a 500. Here each is a ValueError, and so is nesting deeper than the caller allows (a client's body:
CLIENT_DEPTH; an upstream's page: as deep as the parser goes). A client's
body may also not hold a lone surrogate (`"\\ud800"`): it is no text, and no answer could quote it in
UTF-8. An upstream's may (the check of upstream values removes it, registry/ingest/validate.py).
"""
import json
import math
import re

CLIENT_DEPTH = 32     # a request body: a JSON-RPC call or a webhook registration is 5 deep at most
# An upstream's page: only as deep as the parser reads (its RecursionError is the bound); what is kept of
# it is bounded again by the check of upstream values (metadata nested at most 6).
UPSTREAM_DEPTH = None
_SURROGATE = re.compile("[\ud800-\udfff]")


def _not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]} is not a finite number")
    return number


def loads(data, max_depth: int | None, surrogates: bool = False):
    """The parsed document; ValueError when it is not JSON, holds a number that is not finite, nests deeper
    than max_depth (None: than the parser itself can go, some 900), or (unless surrogates) holds a string
    with a lone surrogate."""
    try:
        document = json.loads(data, parse_constant=_not_json, parse_float=_finite)
    except RecursionError:
        raise ValueError(f"nested deeper than {max_depth or 'the parser can read'}") from None
    if max_depth is None and surrogates:   # nothing left to walk for (an upstream's 50k-repo listing)
        return document
    problem = _walk(document, max_depth or 10**6, surrogates)
    if problem:
        raise ValueError(problem)
    return document


def _walk(document, max_depth: int, surrogates: bool) -> str | None:
    """What is wrong with a parsed document (too deep, a lone surrogate), walked without recursion."""
    walked = (list, dict) if surrogates else (str, list, dict)   # strings only when they are checked
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not surrogates and _SURROGATE.search(value):
                return "a string holds a lone surrogate"
            continue
        if isinstance(value, dict):
            items = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            items = value
        else:
            continue
        if depth > max_depth:
            return f"nested deeper than {max_depth}"
        stack.extend((item, depth + 1) for item in items if isinstance(item, walked))
    return None

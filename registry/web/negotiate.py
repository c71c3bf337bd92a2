"""Who is asking: the JSON API under /api/v1, or a person (HTML) or an agent (Markdown) on the pages.

One place decides it, for the error handlers (docs/api-decisions.md#pages), the response cache's key
and the pages' views.
"""
from flask import request
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

API_PREFIX = "/api/v1"
HTML = "text/html"
MARKDOWN = "text/markdown"


def is_api(req=None) -> bool:
    """Whether the request is for the JSON API (everything there answers JSON, errors included)."""
    return is_api_path((req or request).path)


def is_api_path(path: str) -> bool:
    """Whether a path is in the JSON API (/api/v1 and below)."""
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


# Accept header -> the pages' format it asks for. Parsing one took most of the time a kept page's key took
# (about 40 of 57 us), and clients send a few distinct headers: each is parsed once. Bounded, so distinct
# headers cannot grow it; past the bound a header is parsed every time.
_FORMATS: dict = {}
MAX_ACCEPT_HEADERS = 256


def page_format(req=None) -> str:
    """The pages' format the request asks for: Markdown for a `.md` path or `Accept: text/markdown`, else HTML."""
    req = req or request
    return format_for(req.path, req.environ.get("HTTP_ACCEPT", ""))


def format_for(path: str, accept: str) -> str:
    """The pages' format of a path and an Accept header (page_format, for a WSGI environ's raw values too)."""
    if path.endswith(".md"):
        return MARKDOWN
    found = _FORMATS.get(accept)
    if found is None:
        found = parse_accept_header(accept or None, MIMEAccept).best_match([HTML, MARKDOWN], default=HTML)
        if len(_FORMATS) < MAX_ACCEPT_HEADERS:
            _FORMATS[accept] = found
    return found


def error_format() -> str | None:
    """HTML or Markdown when an error outside /api/v1 goes to a person or an agent asking for it; None: JSON.

    `Accept: */*` (curl, scripts) keeps the JSON error shape; a browser prefers text/html.
    """
    if is_api():
        return None
    if request.path.endswith(".md"):
        return MARKDOWN
    best = request.accept_mimetypes.best_match(["application/json", HTML, MARKDOWN])
    return best if best in (HTML, MARKDOWN) else None


def variant(environ: dict):
    """The part of the response cache's key beyond host, path and query: the pages' negotiated format.

    Read from the WSGI environ's raw PATH_INFO, which the request's path is decoded from: a raw path in
    the API is one in the decoded path too, so this never leaves out a format a page view negotiates
    (a raw '//api/v1/x' is keyed by its format as well: a key too many, never an answer too few)."""
    path = environ.get("PATH_INFO", "")
    return None if is_api_path(path) else format_for(path, environ.get("HTTP_ACCEPT", ""))

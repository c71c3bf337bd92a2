"""Who is asking: the JSON API under /api/v1, or a person (HTML) or an agent (Markdown) on the pages.

One place decides it, for the error handlers (docs/api-decisions.md#pages), the response cache's key
and the pages' views.
"""
from flask import request

API_PREFIX = "/api/v1"
HTML = "text/html"
MARKDOWN = "text/markdown"


def is_api(req=None) -> bool:
    """Whether the request is for the JSON API (everything there answers JSON, errors included)."""
    path = (req or request).path
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


def page_format(req=None) -> str:
    """The pages' format the request asks for: Markdown for a `.md` path or `Accept: text/markdown`, else HTML."""
    req = req or request
    if req.path.endswith(".md"):
        return MARKDOWN
    return req.accept_mimetypes.best_match([HTML, MARKDOWN], default=HTML)


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


def variant(req=None):
    """The part of the response cache's key beyond host, path and query: the pages' negotiated format."""
    return None if is_api(req) else page_format(req)

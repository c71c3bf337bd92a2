"""Who is asking: the JSON API under /api/v1, or a person (HTML) or an agent (Markdown) on the pages.

One place decides it, for the error handlers (docs/api-decisions.md#pages), the response cache's key
and the pages' views.
"""
from flask import request

API_PREFIX = "/api/v1"
HTML = "text/html"
MARKDOWN = "text/markdown"


def is_api() -> bool:
    """Whether the request is for the JSON API (everything there answers JSON, errors included)."""
    return request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/")


def page_format() -> str:
    """The pages' format the request asks for: Markdown for a `.md` path or `Accept: text/markdown`, else HTML."""
    if request.path.endswith(".md"):
        return MARKDOWN
    return request.accept_mimetypes.best_match([HTML, MARKDOWN], default=HTML)


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


def variant():
    """The part of the response cache's key beyond path and query: the pages' negotiated format."""
    return None if is_api() else page_format()

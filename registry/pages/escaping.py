"""What a template may write of a value: escaped by default, for HTML and for Markdown alike.

HTML templates are autoescaped by Jinja, and the rendered page loses its control characters in one
pass (html_page: an HTML page is no place for them, and the SVG timeline inside it is XML; one pass
over the page costs a tenth of what a finalize on every value did). Markdown has no autoescape,
so its templates (the `.md` twins and llms.txt) are rendered by an overlay of the app's environment
whose finalize escapes every `{{ value }}` with registry/text.py's markdown(): no template can forget
it, and an upstream's name or a reflected query cannot open a link, a code span or a table cell
(docs/threat-model.md#writers). A value that is Markdown already is Markup (the `code` and
`autolink` filters' output, or `|safe` on a constant).

Links: `{% if url is http_url %}` guards every href an HTML template writes from data; in Markdown
the `autolink` filter writes `<url>` only for such a URL (registry/url_policy.py).
"""
import re

from markupsafe import Markup, escape

from ..text import markdown, markdown_code, without_controls
from ..url_policy import http_url
from ..wording import capability, capability_name, countdown


def html_page(body: str) -> str:
    """A rendered HTML page without control or invisible characters, whatever a value held."""
    return without_controls(body)


def markdown_value(value):
    """finalize of the Markdown templates: every value as literal text, unless it is Markdown already."""
    return value if isinstance(value, Markup) else markdown(value)


def code(value) -> Markup:
    """The `code` filter: value as one Markdown code span (its backticks cannot close it)."""
    return Markup(markdown_code(value))


def autolink(value) -> Markup:
    """The `autolink` filter: an http(s) URL as a Markdown autolink, anything else as plain text."""
    url = http_url(value)
    return Markup(f"<{url.replace('|', '%7C')}>") if url else Markup(markdown(value))


def is_http_url(value) -> bool:
    """The `http_url` test: whether value may be written as a link."""
    return http_url(value) is not None


_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def days_whole(value) -> Markup:
    """The `days_whole` filter (HTML): value escaped, each ISO day in it kept on one line (a browser may break a
    line at a hyphen: "(2026-" / "12-11)")."""
    return Markup(_DAY.sub(lambda m: f'<span class="day">{m.group(0)}</span>', str(escape(value))))


def init_app(app) -> None:
    """Install the link test and the countdown's words, and keep the Markdown overlay in app.extensions."""
    env = app.jinja_env
    env.tests["http_url"] = is_http_url
    env.globals["countdown"] = countdown   # the one wording of a shutdown day (registry/wording.py)
    env.globals["capability_words"] = capability   # and of a capability's value
    env.globals["capability_name"] = capability_name   # and name
    env.filters["days_whole"] = days_whole
    markdown_env = env.overlay(finalize=markdown_value, autoescape=False)
    markdown_env.filters = {**env.filters, "code": code, "autolink": autolink}   # an overlay shares the dict
    app.extensions["registry_markdown_env"] = markdown_env

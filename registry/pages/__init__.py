"""Pages for people (HTML) and their Markdown twins for agents, from the same queries as the JSON API.

Every page is a view of this blueprint registered twice, `/path` and `/path.md` (page() below), and
answers `Accept: text/markdown` with the twin too. The pages pass through the same hooks as the API
(registry/web/: rate limit, ETag/304, response cache); docs/api-decisions.md#pages has the rules.
"""
from functools import wraps
from importlib import resources

from flask import Blueprint, abort, current_app, render_template

from ..lifecycle import today
from ..web import params
from ..web.negotiate import MARKDOWN, page_format
from .escaping import html_page
from ..fields import PLATFORM_NAMES, STATUS_TEXT

bp = Blueprint("pages", __name__, template_folder="templates")

# Scripts and styles only from this host, no inline script, no frames: the pages load nothing
# from other hosts (the service runs offline) and nothing injected into a page could run.
POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


def page(rule: str, takes: tuple = (), **options):
    """Register a view at rule and at its Markdown twin (rule + '.md'; '/' -> '/index.md'); a parameter it does
    not take is a 400, as in the API: each distinct `?x=...` would be another page kept (issue 44)."""
    def register(view):
        @wraps(view)
        def checked(**kwargs):
            params.only(*takes)
            return view(**kwargs)
        bp.add_url_rule(rule, view_func=checked, methods=["GET"], **options)
        twin = "/index.md" if rule == "/" else rule + ".md"
        bp.add_url_rule(twin, endpoint=view.__name__ + "_md", view_func=checked, methods=["GET"], **options)
        return view
    return register


def render(name: str, http_status: int = 200, **context):
    """The page `name` in the format asked for: templates/name.html, or name.md for Markdown."""
    markdown = page_format() == MARKDOWN
    context.update(today=today(), platforms=PLATFORM_NAMES, status_text=STATUS_TEXT)
    if markdown:
        body = render_markdown(f"{name}.md", **context)
    else:
        body = html_page(render_template(f"{name}.html", **context))
    response = current_app.response_class(body, status=http_status,
                                          mimetype=MARKDOWN if markdown else "text/html")
    return response


def render_markdown(name: str, **context) -> str:
    """A Markdown template (a twin, llms.txt) rendered with every value escaped for Markdown (escaping.py)."""
    current_app.update_template_context(context)
    return current_app.extensions["registry_markdown_env"].get_template(name).render(context)


def error_page(status: int, code: str, message: str, wanted: str):
    """An error for a person (HTML) or an agent (Markdown) outside /api/v1 (registry/web/errors.py)."""
    markdown = wanted == MARKDOWN
    context = {"status": status, "code": code, "message": message, "today": today()}
    if markdown:
        body = render_markdown("error.md", **context)
    else:
        body = html_page(render_template("error.html", **context))
    return current_app.response_class(body, status=status, mimetype=MARKDOWN if markdown else "text/html")


@bp.after_app_request
def page_headers(response):
    """Vary and the content security policy on every answer outside /api/v1 (pages and their errors)."""
    if response.mimetype in ("text/html", MARKDOWN):
        response.headers["Content-Security-Policy"] = POLICY
        response.vary.add("Accept")
    return response


def _static_files() -> dict:
    folder = resources.files(__package__).joinpath("static")
    return {f.name: f.read_bytes() for f in folder.iterdir() if f.name[f.name.rfind("."):] in STATIC_TYPES}


STATIC = _static_files()   # three small files, read once: served like any page (ETag, cache, limits)


@bp.get("/static/<name>")
def static_file(name):
    """The pages' stylesheet, script and icon."""
    if name not in STATIC:
        abort(404)
    return current_app.response_class(STATIC[name], mimetype=STATIC_TYPES[name[name.rfind("."):]])


def init_app(app) -> None:
    """Register the pages and their error renderer (after the API, whose paths they never take)."""
    from . import catalog, compare, escaping, views  # noqa: F401  (routes register on bp)
    app.register_blueprint(bp)
    app.extensions["registry_error_page"] = error_page
    escaping.init_app(app)

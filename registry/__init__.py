"""The model registry: a Flask app over one SQLite file.

Flask is imported when an app is built, not with the package: `registry scan` uses the registry's
data and resolver without the web app, and starts in a fraction of the time (docs/scan.md#speed).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"   # 2026-12-06T07:00:00Z INFO registry...: ...


def configure_logging() -> None:
    """INFO and up to stderr, each line with its UTC time; the MCP SDK's per-request INFO lines (four a call) kept
    out: warnings only (docs/running.md#logs)."""
    import time
    formatter = logging.Formatter(LOG_FORMAT, datefmt="%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(formatter)
        root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)
    logging.getLogger("mcp").setLevel(logging.WARNING)


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: config layers (defaults, environment, test_config), blueprints, limits, errors, CLI."""
    from flask import Flask
    from werkzeug.middleware.proxy_fix import ProxyFix

    from . import web
    from .config import from_environment, require_valid
    require_valid()   # a bad setting stops here, in one line, not as a 500 at the first request
    from .web import connection
    # No static folder: the pages serve their two files themselves (registry/pages/), inside the public budget.
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(from_environment())
    if test_config:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.url_map.strict_slashes = False
    if not app.debug:
        configure_logging()
    connection.init_app(app)
    web.install(app)
    if app.config.get("TRUSTED_PROXIES"):
        # Only then are X-Forwarded-For and X-Forwarded-Proto believed (N hops from the right); otherwise a
        # client could pick its own rate-limit bucket, or the scheme of every feed link
        # (docs/threat-model.md#proxies). Host stays the Host header: no X-Forwarded-Host, no prefix.
        # Outermost: the kept answers (web/front.py) see the corrected address and scheme too.
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=0, x_port=0, x_prefix=0)
    from .api import bp
    app.register_blueprint(bp)
    from .mcp.http import bp as mcp_bp   # the MCP tools over streamable HTTP (docs/api-decisions.md#mcp)
    app.register_blueprint(mcp_bp)
    web.install_documents(app)
    from . import pages
    pages.init_app(app)
    from . import cli
    cli.init_app(app)
    return app

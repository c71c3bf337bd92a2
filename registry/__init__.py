"""The model registry: a Flask app over one SQLite file."""
import logging

from flask import Flask

from . import db, errors
from .config import from_environment


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: config layers (defaults, environment, test_config), blueprint, errors, CLI."""
    app = Flask(__name__)
    app.config.from_mapping(from_environment())
    if test_config:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.url_map.strict_slashes = False
    if not app.debug:
        logging.basicConfig(level=logging.INFO)

    db.init_app(app)
    errors.init_app(app)
    from .api import bp
    app.register_blueprint(bp)
    from . import cli
    cli.init_app(app)
    return app

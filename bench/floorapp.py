"""The floor: the least a Flask + flask-limiter service does per request, served like the registry.

One JSON endpoint behind flask-limiter, configured through its public API alone (the registry's public budget
from the same RATELIMIT_* variables as one application limit, fixed windows, its X-RateLimit-* headers), as
an off-the-shelf Flask service would be; run by registry.serve.server's gunicorn with registry.serve.server.settings():
the same worker class, threads, keep-alive and access log. The registry's throughput is reported
as a ratio to this app's, measured alternately in the same run.

    python bench/floorapp.py      # serves on $HOST:$PORT like `registry serve`

FLOOR_BLUEPRINT=1 serves the endpoint from a blueprint, as the registry serves every route: `make bench`
reports that floor against this one, to show what serving from a blueprint costs (informational; the
targets are against the floor without one).
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import Blueprint, Flask, jsonify  # noqa: E402
from flask_limiter import Limiter  # noqa: E402
from flask_limiter.util import get_remote_address  # noqa: E402

from registry.config import from_environment  # noqa: E402
from registry.serve.server import Server, settings  # noqa: E402

PATH = "/api/v1/ping"


def paths(n: int = 1000) -> list:
    """n distinct URLs of the floor's endpoint (the load cycles through them, as it does the registry's)."""
    return [f"{PATH}?n={i}" for i in range(n)]


def create_floor_app(blueprint: bool = False) -> Flask:
    """A Flask app with flask-limiter and one small JSON endpoint (in a blueprint if asked)."""
    app = Flask("floor", static_folder=None)
    app.config.from_mapping(from_environment())
    app.json.sort_keys = False
    Limiter(get_remote_address, app=app, application_limits=[app.config["RATELIMIT_PUBLIC"]],
            storage_uri=app.config["RATELIMIT_STORAGE_URI"], strategy="fixed-window", headers_enabled=True)

    def ping():
        return jsonify({"status": "ok", "service": "floor"})

    if blueprint:
        bp = Blueprint("api", __name__)
        bp.get(PATH)(ping)
        app.register_blueprint(bp)
    else:
        app.get(PATH)(ping)
    return app


class FloorServer(Server):
    """registry.serve.server.Server serving the floor app instead of the registry."""

    def load(self):
        return create_floor_app(blueprint=os.environ.get("FLOOR_BLUEPRINT") == "1")


if __name__ == "__main__":
    FloorServer(settings()).run()

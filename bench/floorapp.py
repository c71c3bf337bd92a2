"""The floor: the least a Flask + flask-limiter service does per request, served like the registry.

One JSON endpoint behind registry.limits (the same budgets from the same RATELIMIT_* variables,
the same X-RateLimit-* headers hook), run by registry.server's gunicorn with registry.server.settings():
the same worker class, threads, keep-alive and access log. The registry's throughput is reported
as a ratio to this app's, measured alternately in the same run.

    python bench/floorapp.py      # serves on $HOST:$PORT like `registry serve`
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import Flask, jsonify  # noqa: E402

from registry.web import limits  # noqa: E402
from registry.config import from_environment  # noqa: E402
from registry.server import Server, settings  # noqa: E402

PATH = "/api/v1/ping"


def create_floor_app() -> Flask:
    """A Flask app with the registry's limiter and one small JSON endpoint."""
    app = Flask("floor", static_folder=None)
    app.config.from_mapping(from_environment())
    app.json.sort_keys = False
    limits.init_app(app)

    @app.get(PATH)
    def ping():
        return jsonify({"status": "ok", "service": "floor"})

    return app


class FloorServer(Server):
    """registry.server.Server serving the floor app instead of the registry."""

    def load(self):
        return create_floor_app()


if __name__ == "__main__":
    FloorServer(settings()).run()

"""The ceiling: a bare WSGI callable returning a fixed JSON body, served like the registry.

No framework, no limiter: what gunicorn itself costs per request under registry.serve.server.settings()
(the same worker class, threads, keep-alive and access log). `make bench` reports each endpoint
against it as well as against the floor (bench/floorapp.py); issue 31 holds the cached hot endpoints
to 0.7× of it.

    python bench/bareapp.py      # serves on $HOST:$PORT like `registry serve`
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from registry.serve.server import Server, settings  # noqa: E402

BODY = json.dumps({"status": "ok", "service": "bare"}).encode()
HEADERS = [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))]


def bare_app(environ, start_response):
    """The same answer to every request."""
    start_response("200 OK", list(HEADERS))
    return [BODY]


class BareServer(Server):
    """registry.serve.server.Server serving the bare WSGI callable instead of the registry."""

    def load(self):
        return bare_app


if __name__ == "__main__":
    BareServer(settings()).run()

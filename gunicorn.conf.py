# Gunicorn settings for `gunicorn -c gunicorn.conf.py 'registry:create_app()'`. They live in
# registry/serve/server.py, so `registry serve` (venv or the one-file build) uses the very same ones.
from registry.serve.server import settings

globals().update(settings())

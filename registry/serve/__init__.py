"""Serving the app: gunicorn's settings and server, its worker, and the errors found before the app."""

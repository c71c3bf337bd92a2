# Gunicorn settings for the registry. One worker process with threads: with the
# default in-memory rate-limit storage every request sees the same counters, so
# the per-IP and per-key budgets are exact. For several processes or hosts, set
# RATELIMIT_STORAGE_URI=redis://... and raise `workers`.
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = "-"
errorlog = "-"
# Requests with huge lines or headers are refused before they reach the app.
limit_request_line = 8190
limit_request_fields = 100

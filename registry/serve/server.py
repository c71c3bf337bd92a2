"""Gunicorn settings and the `serve` command's server: the same in the venv and in the one-file build."""
from gunicorn.app.base import BaseApplication

from ..config import setting


def settings(env=None) -> dict:
    """Gunicorn settings: bind from HOST/PORT, workers from WEB_CONCURRENCY, threads from GUNICORN_THREADS."""
    return {
        "bind": f"{setting('HOST', env)}:{setting('PORT', env)}",
        # One worker process with threads: with the default in-memory rate-limit storage every
        # request sees the same counters, so the budgets are exact. For several processes or
        # hosts, set RATELIMIT_STORAGE_URI=redis://... and raise WEB_CONCURRENCY.
        "workers": setting("WEB_CONCURRENCY", env),
        "threads": setting("GUNICORN_THREADS", env),
        # gthread, but the event loop reads each request head (at most registry.serve.worker.HEAD_TIMEOUT
        # seconds) before a thread is given: slow clients cannot take the threads. docs/api-decisions.md
        "worker_class": "registry.serve.worker.Worker",
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "proc_name": "registry",
        # Access log to stdout, errors to stderr: under systemd both land in the journal.
        "accesslog": "-",
        "errorlog": "-",
        # Requests with huge lines or headers are refused before they reach the app; bodies are bounded by
        # the app before it reads them (REGISTRY_MAX_BODY_BYTES, registry/web/request_body.py).
        "limit_request_line": 8190,
        "limit_request_fields": 100,
        "limit_request_field_size": 8190,
        # gunicorn believes X-Forwarded-Proto (and SCRIPT_NAME, PATH_INFO headers) from 127.0.0.1 by default:
        # any local client could set the scheme of every cached feed link. It trusts no forwarded header
        # here; TRUSTED_PROXIES says how many hops the app believes (docs/threat-model.md#proxies).
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        "forwarder_headers": "",
        # gunicorn 25+ opens a control socket at one per-user default path: two servers on a host
        # would fight over it, and a service user may have no home. Nothing here uses gunicornc.
        "control_socket_disable": True,
    }


class Server(BaseApplication):
    """Gunicorn configured from `settings()`, serving `create_app()` (no config file, no argv)."""

    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            if key in self.cfg.settings:   # settings newer than the installed gunicorn are left out
                self.cfg.set(key, value)

    def load(self):
        # Built in each worker, after the fork: no connection (db, Redis) is shared across processes.
        from .. import create_app
        return create_app()


def serve() -> None:
    """Run gunicorn in the foreground until it is stopped."""
    Server(settings()).run()

"""Status is true on the day it is read: when the UTC date changes, the statuses are recomputed once.

A run recomputes them, but a model whose shutdown day comes between two runs must not be served as
working for the rest of the day (docs/api-decisions.md#lifecycle). The first request of a new day in
each process checks the day the stored statuses were computed for and, if it is older, recomputes
them in one write transaction (any process may; the others then find them current).
"""
import logging
import os
import sqlite3
import threading
from functools import partial

from ..db import writable
from ..storage import StorageError
from .. import lifecycle
from ..merge.runs import refresh_if_stale

log = logging.getLogger(__name__)
_lock = threading.Lock()
_checked: dict = {}   # db path -> the day this process last made sure of (the db is the truth)


def checked_today(app, day: str | None = None) -> bool:
    """Whether this process already made sure of today's statuses (else the next request must, in Flask);
    day: today as the caller already read it."""
    return _checked.get(app.config["DATABASE"]) == (day or lifecycle.today())


def recompute_on_a_new_day(app) -> None:
    """before_request: on the first request of a UTC day, bring stale statuses up to date."""
    path = app.config["DATABASE"]
    day = lifecycle.today()
    if _checked.get(path) == day:
        return
    with _lock:
        if _checked.get(path) == day:
            return
        if os.path.exists(path):
            try:
                with writable(path) as conn:
                    if refresh_if_stale(conn, day):
                        log.info("statuses recomputed for %s", day)
            except (sqlite3.Error, StorageError) as exc:
                # A read-only copy (a replica): it serves what its writer computed until the next copy.
                log.warning("statuses of %s not recomputed for %s: %s", path, day, exc)
        _checked[path] = day


def init_app(app) -> None:
    """Register the check."""
    app.before_request(partial(recompute_on_a_new_day, app))

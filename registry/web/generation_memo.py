"""Answers to read queries kept per process for one data generation (docs/api-decisions.md#per-request-path).

Some parts of an answer are the same for many requests and change only when the data does: the total of
/models under a set of filters is one count over up to every model, the same for every page of that
list; the upgrade a resolve answer names is one of few models (a family's models share theirs), read
with its aliases for every identifier of the family. Both stay the same until an ingest, a curation run
or the daily status recompute bumps the generation.
A memo holds such values for the generation the request read (web/connection.py request_generation)
and forgets them all when a request reads a newer one. Bounded, so a client cannot grow it with
distinct filters; safe across threads.
"""
import threading
from collections import OrderedDict

from flask import current_app

from .connection import request_snapshot

MAX_ENTRIES = 4096
EXTENSION = "registry_counts"


class GenerationMemo:
    """A bounded LRU of computed values, valid for one data generation at a time."""

    def __init__(self, max_entries: int = MAX_ENTRIES):
        self.max_entries = max_entries
        self.generation = None
        self.entries = OrderedDict()
        self.lock = threading.Lock()

    def get(self, generation: int, key, compute):
        """The value kept for key at generation, else compute() (kept when generation is still current)."""
        with self.lock:
            if generation == self.generation:
                try:
                    self.entries.move_to_end(key)
                    return self.entries[key]
                except KeyError:
                    pass
        value = compute()   # outside the lock: a query releases the GIL and other threads go on
        with self.lock:
            if self.generation is None or generation > self.generation:
                self.generation, self.entries = generation, OrderedDict()
            if generation == self.generation:
                self.entries[key] = value
                if len(self.entries) > self.max_entries:
                    self.entries.popitem(last=False)
        return value


def counter(db):
    """count(sql, args) for this request: a count query's row (the count, the generation it was counted at) kept for
    the data generation the request read, else run on db."""
    memo = current_app.extensions[EXTENSION]
    path, generation = request_snapshot()

    def count(sql: str, args) -> tuple:
        return memo.get(generation, (path, sql, tuple(args)), lambda: tuple(db.execute(sql, args).fetchone()))
    return count


def keeping(kind: str, compute):
    """compute(key) for this request, kept for the data generation it read under (kind, key)."""
    memo = current_app.extensions[EXTENSION]
    path, generation = request_snapshot()
    return lambda key: memo.get(generation, (path, kind, key), lambda: compute(key))


def init_app(app) -> None:
    """Give app its memo (counts and upgrade targets share one bound)."""
    app.extensions[EXTENSION] = GenerationMemo()

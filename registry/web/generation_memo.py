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
from flask import current_app

from ..generations import GenerationCache
from .connection import request_snapshot

MAX_ENTRIES = 4096
EXTENSION = "registry_counts"


def counter(db):
    """count(sql, args) for this request: a count query's row (the count, the generation it was counted at) kept for
    the data generation the request read, else run on db."""
    memo = current_app.extensions[EXTENSION]
    path, generation = request_snapshot()

    def count(sql: str, args) -> tuple:
        return memo.kept((path, sql, tuple(args)), generation, lambda: tuple(db.execute(sql, args).fetchone()))
    return count


def keeping(kind: str, compute):
    """compute(key) for this request, kept for the data generation it read under (kind, key)."""
    memo = current_app.extensions[EXTENSION]
    path, generation = request_snapshot()
    return lambda key: memo.kept((path, kind, key), generation, lambda: compute(key))


def init_app(app) -> None:
    """Give app its memo (counts and upgrade targets share one bound)."""
    app.extensions[EXTENSION] = GenerationCache(MAX_ENTRIES)

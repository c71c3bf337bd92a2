"""Asking the registry about the strings a scan found: the local database, or a running service.

Both (LocalLookup here, RemoteLookup in remote.py, imported only for --registry) give, for each distinct
string, GET /resolve's answer (registry/resolve/answers.py) plus the model's lifecycle dates, so reports
and fixes never depend on where the answer came from. Each distinct string is asked once, after the walk
(docs/scan.md#registry).
"""
from __future__ import annotations

from typing import Iterable

from ..queries import catalog
from ..db import connect_ro, generation
from ..resolve import resolve_identifier
from ..resolve.answers import resolve_answer


class RegistryUnavailable(Exception):
    """The registry could not answer (unreachable, an unexpected status): the scan cannot be trusted."""


def _dates(row) -> dict:
    return {"deprecation_date": row["deprecation_date"], "sunset_date": row["sunset_date"]}


class LocalLookup:
    """Answers from a registry database file, through the same code as GET /resolve."""

    def __init__(self, path: str):
        self.path = path
        self.db = connect_ro(path)

    def aliases(self) -> list:
        """Every alias string of the registry."""
        return catalog.alias_strings(self.db)

    def resolve_many(self, strings: Iterable[str]) -> dict:
        """string -> resolve answer with the model's 'lifecycle' dates, or None when nothing matches."""
        current, out = generation(self.db), {}
        for s in strings:
            found = resolve_identifier(self.db, self.path, current, s)
            if found is not None:
                out[s] = {**resolve_answer(found), "lifecycle": _dates(found.model)}
            else:
                out[s] = None
        return out

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

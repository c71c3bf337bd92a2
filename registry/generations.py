"""What a process builds from the database once per data generation, kept until the data changes: one cache.

Every write run, curation run and day's status recompute bumps the data generation (db.bump_generation); what
was built from the data before is then stale. GenerationCache keeps values by key, each tagged with the
generation it was built at, and answers only for that generation. It is used for the alias index
(resolve/cache.py), the search lexicon (search/vocabulary.py), counts and upgrade targets kept per request
path (web/generation_memo.py) and rendered answers (web/response_cache.py): bounded by a cost (entries, or
bytes), least recently used first out, safe across threads (docs/api-decisions.md#caching).
"""
import threading
from collections import OrderedDict
from contextlib import contextmanager


class GenerationCache:
    """Values by key, each valid for the data generation it was built at; at most max_cost in all (each value
    costs 1 unless put says otherwise), the least recently used dropped first."""

    def __init__(self, max_cost: int):
        self.max_cost = max_cost
        self.size = 0
        self.entries = OrderedDict()   # key -> (generation, value, cost)
        self.lock = threading.Lock()
        self._building = {}            # key -> the lock of its one build at a time

    def get(self, key, generation: int):
        """The value kept for key at generation, or None (a value of an older generation is dropped; one of a
        newer generation, which a thread that read the generation earlier may ask past, is kept)."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if entry[0] != generation:
                if entry[0] < generation:
                    self._drop(key)
                return None
            self.entries.move_to_end(key)
            return entry[1]

    def put(self, key, generation: int, value, cost: int = 1) -> None:
        """Keep value for key at generation (never over a newer one), dropping the least recently used beyond
        max_cost."""
        if cost > self.max_cost:
            return
        with self.lock:
            if key in self.entries:
                if self.entries[key][0] > generation:
                    return
                self._drop(key)
            self.entries[key] = (generation, value, cost)
            self.size += cost
            while self.size > self.max_cost:
                self._drop(next(iter(self.entries)))

    def kept(self, key, generation: int, compute):
        """The value for key at generation, computed (outside the lock: a query lets other threads go on) and
        kept when missing."""
        value = self.get(key, generation)
        if value is None:
            value = compute()
            self.put(key, generation, value)
        return value

    @contextmanager
    def building(self, key):
        """Hold key's build lock: one build of a large value at a time (the others wait, then find it kept)."""
        with self.lock:
            lock = self._building.setdefault(key, threading.Lock())
        with lock:
            yield

    def discard(self, key) -> None:
        """Forget key's value, whatever its generation."""
        with self.lock:
            if key in self.entries:
                self._drop(key)

    def _drop(self, key) -> None:
        self.size -= self.entries.pop(key)[2]

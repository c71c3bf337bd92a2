"""Where the rate-limit counters live: limits' storages through their public API, bounded and never in the way.

- `RATELIMIT_STORAGE_URI` is opened with `limits.storage.storage_from_string`; every Redis call gets connect and
  read timeouts (redis-py's own options), so a frozen Redis holds no request thread.
- `memory://` is counted by MemoryCounters, a storage of limits' documented extension point (a subclass of
  `limits.storage.Storage`): fixed windows whose ended counters a counting request drops at most once a second.
  limits' own MemoryStorage starts a timer thread 10 ms after the last one ended, a hundred threads a second
  under load, each count that starts one waiting for it to take the interpreter lock.
- While the store is away the process counts in memory with the same budgets, asks the store again after 1, 2,
  4 ... 32 s (then from 1 s again), and logs the outage once and its end once (Counters).
See docs/api-decisions.md, "Rate-limit storage".
"""
import logging
import threading
import time
from urllib.parse import urlsplit

from limits.storage import Storage, storage_from_string
from ..config import REDIS_SCHEMES

log = logging.getLogger("registry.rate_limits")

UNREACHABLE = "Rate limit storage unreachable - falling back to in-memory storage"
RECOVERED = "Rate limit storage recovered"
# How often the in-memory counters drop the ones whose window has ended. A counter is already reset when it is
# next read after its window; the sweep only frees the counters of clients that stopped sending.
SWEEP_SECONDS = 1.0
RETRY_SECONDS = (1, 2, 4, 8, 16, 32)


class MemoryCounters(Storage):
    """Fixed-window counters in this process (limits' Storage interface), swept by a count, never by a thread."""

    STORAGE_SCHEME = ["registry+memory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.counters: dict = {}   # key -> [count, the time its window ends]
        self._lock = threading.Lock()
        self._swept_at = time.monotonic()

    @property
    def base_exceptions(self):
        """Nothing outside this process can fail here."""
        return ValueError

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add amount to key's counter, a new window of expiry seconds when the last one ended; the new count."""
        now = time.time()
        with self._lock:
            if time.monotonic() - self._swept_at >= SWEEP_SECONDS:
                self._swept_at = time.monotonic()
                for ended in [k for k, (_, ends) in self.counters.items() if ends <= now]:
                    del self.counters[ended]
            counter = self.counters.get(key)
            if counter is None or counter[1] <= now:
                counter = self.counters[key] = [0, now + expiry]
            counter[0] += amount
            return counter[0]

    def get(self, key: str) -> int:
        """The count of key's current window (0 when it has ended)."""
        counter = self.counters.get(key)
        return counter[0] if counter is not None and counter[1] > time.time() else 0

    def get_expiry(self, key: str) -> float:
        """When key's window ends (now when it has none)."""
        counter = self.counters.get(key)
        return counter[1] if counter is not None else time.time()

    def check(self) -> bool:
        """Always healthy."""
        return True

    def reset(self) -> int:
        """Drop every counter; how many there were."""
        with self._lock:
            count, self.counters = len(self.counters), {}
        return count

    def clear(self, key: str) -> None:
        """Drop key's counter."""
        with self._lock:
            self.counters.pop(key, None)


def storage_options(uri: str, timeout_ms: int) -> dict:
    """Keyword arguments for the storage of uri: connect and read timeouts for the Redis family."""
    scheme = urlsplit(uri).scheme
    # limits' Redis family (config.REDIS_SCHEMES): options go straight to the redis-py client, which takes both
    if not scheme.startswith(REDIS_SCHEMES):
        return {}   # memory:// (the default) has no sockets
    seconds = timeout_ms / 1000
    # Without these redis-py waits forever on a frozen server (kill -STOP, a full network buffer),
    # and every request thread waits with it. An explicit ?socket_timeout= in the URI still wins.
    return {"socket_timeout": seconds, "socket_connect_timeout": seconds}


def open_storage(uri: str, timeout_ms: int) -> Storage:
    """The storage RATELIMIT_STORAGE_URI names (ValueError for one limits cannot open)."""
    if urlsplit(uri).scheme == "memory":
        return MemoryCounters()
    try:
        return storage_from_string(uri, **storage_options(uri, timeout_ms))
    except Exception as exc:   # limits' ConfigurationError: an unknown scheme, a missing client library
        raise ValueError(f"RATELIMIT_STORAGE_URI cannot be opened: {exc}") from None


class Counters:
    """The storage a process counts in: the configured one, or memory while it is away (one per app)."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self.fallback: MemoryCounters | None = None   # set while the configured storage is away
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._failures = 0

    def current(self) -> Storage:
        """The storage to count in now; during an outage, the configured one again once its retry time came."""
        fallback = self.fallback
        if fallback is None:
            return self.storage
        if time.monotonic() < self._retry_at or not self._lock.acquire(blocking=False):
            return fallback
        try:   # one thread asks; the others keep counting in memory meanwhile
            healthy = self._healthy()
            if healthy:
                self.fallback = None
                log.warning(RECOVERED)
                return self.storage
            self._failures += 1
            self._retry_at = time.monotonic() + RETRY_SECONDS[self._failures % len(RETRY_SECONDS)]
            return fallback
        finally:
            self._lock.release()

    def _healthy(self) -> bool:
        try:
            return bool(self.storage.check())
        except Exception:   # any failure of the store's client is the outage going on
            return False

    def failed(self, storage: Storage, err: BaseException) -> Storage | None:
        """storage raised err: the storage to count in instead, or None when err is no storage's fault."""
        if storage is not self.storage or not self.is_storage_error(err):
            return None
        with self._lock:
            if self.fallback is None:
                self.fallback, self._failures = MemoryCounters(), 0
                self._retry_at = time.monotonic() + RETRY_SECONDS[0]
                log.warning("%s (%s: %s)", UNREACHABLE, type(err).__name__, err)
            return self.fallback

    def is_storage_error(self, err: BaseException) -> bool:
        """Whether err came from the configured store (a Redis error), not from our own code."""
        try:
            return isinstance(err, self.storage.base_exceptions)
        except Exception:   # a storage whose client library cannot name its exceptions
            return False

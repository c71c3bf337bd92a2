"""The rate-limit store's bounds and outage log: Redis calls time out fast, and an outage logs once.

Counting falls back to this process while Redis is away; flask-limiter does that itself
(in_memory_fallback_enabled, swallow_errors in registry/web/limits.py). This module only gives it
the things it lacks: socket timeouts on every Redis call, one log line per outage, and in-memory
counters that are swept without a thread started for it every 10 ms.
See docs/api-decisions.md, "Rate-limit storage".
"""
import logging
import threading
import time
from urllib.parse import urlsplit

from limits.storage import MemoryStorage

# limits' Redis-family schemes (redis, rediss, redis+unix, redis+sentinel, redis+cluster, valkey...):
# their options go straight to the redis-py client, which takes both timeouts.
REDIS_SCHEMES = ("redis", "valkey")

# flask-limiter's own messages (its logger "flask-limiter"): matched by prefix, so a reworded
# message in a later version is simply logged as it comes, never lost.
UNREACHABLE = "Rate limit storage unreachable"
RECOVERED = "Rate limit storage recovered"
SWALLOWED = "Failed to rate limit"


# How often the in-memory counters drop the ones whose window has ended. A counter is already reset
# when it is next read after its window (MemoryStorage.get); the sweep only frees the counters of
# clients that stopped sending, so a second's delay costs nothing.
SWEEP_SECONDS = 1.0
SWEPT_MEMORY = "registry+memory"


class SweptMemoryStorage(MemoryStorage):
    """limits' memory:// storage, its expired counters swept by a counting thread at most once a SWEEP_SECONDS.

    MemoryStorage starts a new threading.Timer (a thread, its stack mapped and faulted in) on the first
    count after the last one ran, 10 ms later: under load a hundred threads a second, and each count that
    starts one waits for the new thread to take the GIL. Here the count that finds the last sweep a
    second old sweeps, with MemoryStorage's own method, unless another thread is already sweeping.
    """

    STORAGE_SCHEME = [SWEPT_MEMORY]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()   # the one Timer MemoryStorage starts with: the counts sweep here
        self._swept_at = time.monotonic()
        self._sweeping = threading.Lock()

    def _MemoryStorage__schedule_expiry(self) -> None:   # noqa: N802 (MemoryStorage's private hook, by its mangled name)
        """Sweep the expired counters now if the last sweep is SWEEP_SECONDS old (called on every count)."""
        if time.monotonic() - self._swept_at < SWEEP_SECONDS or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._swept_at = time.monotonic()
            self._MemoryStorage__expire_events()
        finally:
            self._sweeping.release()


def storage_uri(uri: str) -> str:
    """The URI flask-limiter opens for the configured one: memory:// is counted by SweptMemoryStorage."""
    return SWEPT_MEMORY + "://" if urlsplit(uri).scheme == "memory" else uri


def storage_options(uri: str, timeout_ms: int) -> dict:
    """Keyword arguments for the storage of uri: connect and read timeouts for the Redis family."""
    scheme = urlsplit(uri).scheme
    if not scheme.startswith(REDIS_SCHEMES):
        return {}   # memory:// (the default) has no sockets
    seconds = timeout_ms / 1000
    # Without these redis-py waits forever on a frozen server (kill -STOP, a full network buffer),
    # and every request thread waits with it. An explicit ?socket_timeout= in the URI still wins.
    return {"socket_timeout": seconds, "socket_connect_timeout": seconds}


def is_storage_error(storage, err: BaseException) -> bool:
    """Whether err came from the rate-limit store (a Redis error), not from our own code."""
    try:
        return isinstance(err, storage.base_exceptions)
    except Exception:   # memory:// has no client library to name exceptions from
        return False


class OutageLog(logging.LoggerAdapter):
    """One limiter's flask-limiter log, kept to one warning per outage and one line when it ends.

    Several request threads can meet a dead store at once: each would log "unreachable", and the
    ones that lose the race log a swallowed error with a traceback. During an outage only the first
    "unreachable" passes; the rest add nothing the operator does not already know. The state is
    per limiter (per app), not per logger: two apps in one process each log their own outages.
    """

    def __init__(self, logger: logging.Logger):
        super().__init__(logger, {})
        self._lock = threading.Lock()
        self._outage = False

    def passes(self, message) -> bool:
        """Whether a message is logged, given the outage so far (and noting its start and end)."""
        message = str(message)
        with self._lock:
            if message.startswith(UNREACHABLE):
                first, self._outage = not self._outage, True
                return first
            if message.startswith(RECOVERED):
                self._outage = False
            elif message.startswith(SWALLOWED) and self._outage:
                return False
        return True

    def log(self, level, msg, *args, **kwargs):
        """Log msg as the wrapped logger would, unless the outage is already logged."""
        if self.passes(msg):
            super().log(level, msg, *args, **kwargs)

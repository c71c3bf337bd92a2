"""Rate limits: one per-IP budget for public endpoints, one per-key budget for admin (docs/api-decisions.md).

Counted on the public API of `limits` alone (parse_many, RateLimitItem.key_for and get_expiry, a Storage's incr
and get_expiry), by one function, count(), called the same way in front of Flask (registry/web/front.py, the
public reads) and behind it (check(), a before_request hook, everything the front did not count). Fixed
windows: each limit of a budget is one counter per client, incremented once per request; the limits of a budget
are counted shortest window first, stopping at the first one over. The counters live in RATELIMIT_STORAGE_URI
(registry/web/limit_storage.py): memory:// is exact under the shipped gunicorn.conf.py (one process,
threads); redis:// shares them between processes and hosts.

Why not flask-limiter: the registry needs two application-wide budgets, a count in front of Flask and headers
on every answer. Through flask-limiter that took seven of its private names (its hooks wrapped, its manager's
class swapped, its storage keys rebuilt by hand); the count itself is three calls of `limits`.
"""
import hashlib
import ipaddress
import math
import time
from functools import lru_cache

from flask import current_app, request
from limits import parse_many

from .auth import key_is_valid, presented_key
from .errors import error_response
from .limit_storage import Counters, open_storage

ADMIN_PREFIX = "/api/v1/admin/"
KEY_PREFIX = "registry"
PUBLIC_SCOPE, ADMIN_SCOPE = "public", "admin"
# The limits one request was counted against (a list of Counted), in the WSGI environ: set by whichever of
# the front layer or check() counted it, read by add_headers, so a request is counted exactly once.
COUNTED = "registry.limit_counted"
EXTENSION = "registry_limits"


def is_admin_path(path: str) -> bool:
    """Whether a path is in the admin area (routed or not): those draw from the admin budget."""
    return path.startswith(ADMIN_PREFIX)


def ip_key(remote_addr: str | None, ipv6_prefix: int = 64) -> str:
    """Who a public request is counted against, from its (ProxyFix-corrected) REMOTE_ADDR: an IPv4 address, or
    the IPv6 network of ipv6_prefix bits it is in (one host is usually given a whole /64: counting each /128
    would hand it 2^64 budgets; RATELIMIT_IPV6_PREFIX, docs/api-decisions.md#rate-limits)."""
    if remote_addr and ":" in remote_addr:
        return "ip:" + _ipv6_network(remote_addr, ipv6_prefix)
    return "ip:" + (remote_addr or "unknown")


@lru_cache(maxsize=65536)
def _ipv6_network(address: str, prefix: int) -> str:
    try:
        ip = ipaddress.IPv6Address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:   # ::ffff:192.0.2.1 is the IPv4 client it carries
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, prefix), strict=False))


def admin_key() -> str:
    """Who an admin request is counted against: a digest of a valid key, else the client IP.

    Only the SHA-256 of a valid key reaches the storage (and its logs): never the raw key, and an
    invalid key falls back to the IP so that guessing keys cannot mint fresh budgets.
    """
    token = presented_key()
    if key_is_valid(token):
        return "key:" + hashlib.sha256(token.encode()).hexdigest()
    return ip_key(request.remote_addr, current_app.config.get("RATELIMIT_IPV6_PREFIX", 64))


@lru_cache(maxsize=16)
def parsed_budget(budget: str) -> tuple:
    """A budget's limits, shortest window first (ValueError for text that is no budget)."""
    items = tuple(sorted(parse_many(budget)))
    if not items:
        raise ValueError(budget)
    return items


@lru_cache(maxsize=4096)
def storage_key(item, who: str, scope: str) -> str:
    """The counter of one limit of a scope's budget for one client (limits' key_for), built once."""
    return item.key_for(KEY_PREFIX, who, scope)


class Counted:
    """One limit of a budget after this request's count: what the X-RateLimit-* headers report."""

    __slots__ = ("limit", "key", "count", "storage", "_reset_at")

    def __init__(self, limit, key: str, count: int, storage):
        self.limit, self.key, self.count, self.storage, self._reset_at = limit, key, count, storage, None

    @property
    def breached(self) -> bool:
        """Is this request over this limit?"""
        return self.count > self.limit.amount

    @property
    def remaining(self) -> int:
        """What is left of this limit after this request."""
        return max(0, self.limit.amount - self.count)

    @property
    def reset_at(self) -> int:
        """When this limit's window ends, in Unix seconds (one storage read, once)."""
        if self._reset_at is None:
            self._reset_at = int(self.storage.get_expiry(self.key) + 1)
        return self._reset_at


def count(counters: Counters, budget: str, who: str, scope: str) -> list:
    """Count one request of who against a scope's budget: the limits counted, the last one breached if any.

    A store that fails is replaced by the in-process fallback for this count and the next ones (Counters);
    an error that is no store's is raised.
    """
    storage = counters.current()
    while True:
        counted = []
        try:
            for item in parsed_budget(budget):
                key = storage_key(item, who, scope)
                counted.append(Counted(item, key, storage.incr(key, item.get_expiry(), amount=1), storage))
                if counted[-1].breached:
                    break
            return counted
        except Exception as err:
            storage = counters.failed(storage, err)
            if storage is None:
                raise


def charge(extra: int):
    """Count extra units of this request's work in the budget it was counted in (an MCP `check` of 100 ids is
    100 requests: docs/api-decisions.md#rate-limits); the 429 to answer when that puts it over, else None."""
    counted = request.environ.get(COUNTED) or []
    if extra <= 0 or not counted:
        return None
    now = []
    try:
        for c in counted:
            now.append(Counted(c.limit, c.key, c.storage.incr(c.key, c.limit.get_expiry(), amount=extra), c.storage))
    except Exception:   # the store went away since the count: the request stands as counted
        return None
    breached = [c for c in now if c.breached][:1]
    # as count() leaves them: a breached limit last, so the headers and the 429 name it
    request.environ[COUNTED] = [c for c in now if not c.breached] + breached
    return rate_limited(request.environ[COUNTED]) if breached else None


def over_budget(counted: list) -> bool:
    """Is a request over its budget, by what count() gave (the last limit counted is the breached one, if any)?"""
    return bool(counted) and counted[-1].breached


def count_public(app, remote_addr: str | None) -> list:
    """Count a public request of remote_addr (the front layer's call; check() makes the same one)."""
    who = ip_key(remote_addr, app.config.get("RATELIMIT_IPV6_PREFIX", 64))
    return count(app.extensions[EXTENSION], app.config["RATELIMIT_PUBLIC"], who, PUBLIC_SCOPE)


def retry_after(limit: Counted) -> int:
    """Whole seconds until a breached window resets, at least 1 (Retry-After and the message)."""
    return max(1, math.ceil(limit.reset_at - 1 - time.time()))


def limit_headers(counted: list, status: int) -> list:
    """The X-RateLimit-* (and on 429 Retry-After) headers for a request's counted limits: the breached limit,
    else the one closest to running out ("10/second;100/minute" reports whichever binds)."""
    if not counted:
        return []
    try:   # reset_at reads the store, which may have gone away since the count: answer anyway, without the numbers
        current = counted[-1] if over_budget(counted) else min(counted, key=lambda lim: (lim.remaining, -lim.reset_at))
        reset_at = current.reset_at
    except Exception:
        return []
    headers = [("X-RateLimit-Limit", str(current.limit.amount)),
               ("X-RateLimit-Remaining", str(current.remaining)),
               ("X-RateLimit-Reset", str(reset_at))]
    if status == 429:
        headers.append(("Retry-After", str(retry_after(current))))
    return headers


def rate_limited(counted: list):
    """429 rate_limited in the spec's error shape, naming the wait in seconds."""
    try:
        wait = retry_after(counted[-1])
    except Exception:   # the store went away since the breach: the whole window is a safe bound
        wait = max(1, int(counted[-1].limit.get_expiry()))
    return error_response(429, "rate_limited", f"Rate limit exceeded; retry in {wait} seconds.",
                          {"Retry-After": str(wait)})


def enabled(app) -> bool:
    """Whether requests are counted (RATELIMIT_ENABLED, on unless a test or an operator turns it off)."""
    return app.config.get("RATELIMIT_ENABLED", True) is not False


def check():
    """Count a request the front layer did not (every one but a public read); a 429 when it is over budget."""
    counted = request.environ.get(COUNTED)
    if counted is None:
        app = current_app
        if not enabled(app):
            return None
        if is_admin_path(request.path):
            counted = count(app.extensions[EXTENSION], app.config["RATELIMIT_ADMIN"], admin_key(), ADMIN_SCOPE)
        else:
            counted = count_public(app, request.remote_addr)
        request.environ[COUNTED] = counted
    # Over budget, whoever counted it: the 429 is Flask's to answer, in the one error shape.
    return rate_limited(counted) if over_budget(counted) else None


def add_headers(response):
    """X-RateLimit-* on every response, errors included; Retry-After on 429."""
    for name, value in limit_headers(request.environ.get(COUNTED) or [], response.status_code):
        response.headers[name] = value
    return response


def init_app(app) -> Counters:
    """Open the counters and register the check and the headers on an app; a budget that is no rate limit, or a
    store that cannot be opened, stops the app at startup instead of failing every request."""
    for name in ("RATELIMIT_PUBLIC", "RATELIMIT_ADMIN"):
        try:
            parsed_budget(app.config[name])
        except ValueError:
            raise ValueError(f"{name} is not a rate limit such as '100/minute': {app.config[name]!r}") from None
    uri = app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    counters = app.extensions[EXTENSION] = Counters(
        open_storage(uri, app.config.get("RATELIMIT_STORAGE_TIMEOUT_MS") or 250))
    app.before_request(check)
    app.after_request(add_headers)
    return counters

"""Rate limits: one per-IP budget for public endpoints, one per-key budget for admin (docs/api-decisions.md).

Both budgets are flask-limiter application limits with their own scope, so every endpoint of a
group draws from one shared counter. The counters live in RATELIMIT_STORAGE_URI: memory:// is
exact under the shipped gunicorn.conf.py (one process, threads); redis:// shares them between
processes and hosts. No counter or cache lives in this module, so nothing here assumes one process.
"""
import hashlib
import logging
import math
import time
from functools import lru_cache, partial

from flask import current_app, request
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded
from limits import parse_many
from limits.strategies import FixedWindowRateLimiter

from .auth import key_is_valid, presented_key
from .errors import error_response
from . import limit_scopes
from .limit_storage import OutageLog, is_storage_error, storage_options, storage_uri

log = logging.getLogger(__name__)

ADMIN_PREFIX = "/api/v1/admin/"
KEY_PREFIX = "registry"
PUBLIC_SCOPE = "public"
# Set by the kept-answers layer (registry/web/front.py) on a request it already counted and found over
# budget: flask-limiter then checks that budget at no cost, so the request is counted once, and answers
# the 429 itself.
COUNTED = "registry.limit_counted"
# Set by the same layer on a public read it counted within budget: the counted limits (a list of Counted).
# flask-limiter skips such a request (counted_in_front, a request filter) and add_headers reports them.
FRONT_COUNTED = "registry.limit_front_counted"


def is_admin_path(path: str) -> bool:
    """Whether a path is in the admin area (routed or not): those draw from the admin budget."""
    return path.startswith(ADMIN_PREFIX)


def is_admin_request() -> bool:
    """Whether the current request is in the admin area."""
    return is_admin_path(request.path)


def ip_key(remote_addr: str | None) -> str:
    """Who a public request is counted against, from its (ProxyFix-corrected) REMOTE_ADDR."""
    return "ip:" + (remote_addr or "unknown")


def client_ip() -> str:
    """The client address: the socket peer, or the X-Forwarded-For hop that ProxyFix trusts."""
    return ip_key(request.remote_addr)


def counted_in_front() -> bool:
    """Whether the layer in front of Flask already counted this request within budget (flask-limiter skips it)."""
    return FRONT_COUNTED in request.environ


def pass_over_counted(app, limiter) -> int:
    """Wrap flask-limiter's three per-request hooks on app to pass over a request counted in front of Flask
    (FRONT_COUNTED); the number wrapped (3, or fewer if the library registers them otherwise).

    Its check of such a request resolves the route's limits before the request filter exempts it, its
    headers hook looks for limits it never evaluated and its teardown releases a context never made: about a
    tenth of a search's time in process, and the floor app pays none of it. Found as the library registers
    them (Limiter.init_app); a later version that registers them otherwise runs unwrapped, only slower, and
    tests/test_limits.py fails so that someone looks again.
    """
    wrapped = 0

    def before(hook):
        def check():
            return None if counted_in_front() else hook()
        return check

    def after(hook):
        def headers(response):
            return response if counted_in_front() else hook(response)
        return headers

    def teardown(hook):
        def release(exc=None):
            if not counted_in_front():
                hook(exc)
        return release

    inject = getattr(Limiter, "_Limiter__inject_headers", None)
    for table, wrap, is_hook in (
            (app.before_request_funcs, before, lambda f: f == limiter._check_request_limit),
            (app.after_request_funcs, after,
             lambda f: isinstance(f, partial) and f.func is inject and f.args == (limiter,)),
            (app.teardown_request_funcs, teardown, lambda f: f == getattr(limiter, "_Limiter__release_context", None))):
        hooks = table.get(None, [])
        for i, hook in enumerate(hooks):
            if is_hook(hook):
                hooks[i] = wrap(hook)
                wrapped += 1
    return wrapped


def public_cost() -> int:
    """1 per request; 0 for one the kept-answers layer already counted."""
    return 0 if request.environ.get(COUNTED) else 1


def admin_key() -> str:
    """Who an admin request is counted against: a digest of a valid key, else the client IP.

    Only the SHA-256 of a valid key reaches the storage (and its logs): never the raw key, and an
    invalid key falls back to the IP so that guessing keys cannot mint fresh budgets.
    """
    token = presented_key()
    if key_is_valid(token):
        return "key:" + hashlib.sha256(token.encode()).hexdigest()
    return client_ip()


def _public_budget() -> str:
    return current_app.config["RATELIMIT_PUBLIC"]


def _admin_budget() -> str:
    return current_app.config["RATELIMIT_ADMIN"]


def _identify() -> str:
    # flask-limiter skips requests whose endpoint is empty (no route matched: 404, 405); naming
    # them keeps unknown paths and wrong methods inside the public (or admin) budget too.
    return request.endpoint or "unrouted"


def retry_after(current) -> int:
    """Whole seconds until the breached window resets, at least 1 (Retry-After and the message)."""
    return max(1, math.ceil(current.window[0] - time.time()))


def limit_headers(limiter, current, evaluated: list, status: int) -> list:
    """The X-RateLimit-* (and on 429 Retry-After) headers for a request's evaluated limits, in order."""
    try:
        if not current.breached:
            # With several limits in one budget ("10/second;100/minute") report the one closest to
            # running out, not the extension's pick (the shortest window).
            current = min(evaluated or [current], key=lambda lim: (lim.remaining, -lim.reset_at))
        reset_at, remaining = current.reset_at, current.remaining   # one storage read, cached
    except Exception as err:   # storage lost between the check and now: answer anyway, without the numbers
        if not is_storage_error(limiter.storage, err):
            log.exception("rate-limit headers unavailable")
        # A Redis error here is the outage the next check falls back on and logs (once).
        return []
    headers = [("X-RateLimit-Limit", str(current.limit.amount)),
               ("X-RateLimit-Remaining", str(max(0, remaining))),
               ("X-RateLimit-Reset", str(reset_at))]
    if status == 429:
        headers.append(("Retry-After", str(retry_after(current))))
    return headers


def add_headers(response):
    """X-RateLimit-* on every response, errors included; Retry-After on 429."""
    limiter = current_app.extensions.get("registry_limiter")
    evaluated = request.environ.get(FRONT_COUNTED)
    if evaluated:   # counted in front of Flask (registry/web/front.py)
        current = evaluated[0]
    else:
        current = limiter.current_limit if limiter else None
        if current is None:   # limiting disabled (RATELIMIT_ENABLED=False)
            return response
        evaluated = limiter.current_limits
    for name, value in limit_headers(limiter, current, evaluated, response.status_code):
        response.headers[name] = value
    return response


@lru_cache(maxsize=16)
def parsed_budget(budget: str) -> tuple:
    """A budget's limits in the order flask-limiter evaluates them (shortest window first)."""
    return tuple(sorted(parse_many(budget)))


@lru_cache(maxsize=4096)
def public_storage_key(item, remote_addr: str | None) -> str:
    """The storage key flask-limiter counts a public request under (prefix, client, scope), built once."""
    return item.key_for(KEY_PREFIX, ip_key(remote_addr), PUBLIC_SCOPE)


class Counted:
    """One limit of the public budget after a count outside Flask: what limit_headers reads of a RequestLimit."""

    breached = False
    __slots__ = ("limit", "key", "count", "storage", "_reset_at")

    def __init__(self, limit, key: str, count: int, storage):
        self.limit, self.key, self.count, self.storage, self._reset_at = limit, key, count, storage, None

    @property
    def remaining(self) -> int:
        """What is left of this limit after this request (the count incr returned)."""
        return max(0, self.limit.amount - self.count)

    @property
    def reset_at(self) -> int:
        """When this limit's window ends, as flask-limiter reports it (one storage read, once)."""
        if self._reset_at is None:
            self._reset_at = int(self.storage.get_expiry(self.key) + 1)
        return self._reset_at


def count_public(limiter, budget: str, remote_addr: str | None):
    """Count a request against the public budget outside Flask: its counted limits, or None when over.

    The same storage, keys and order flask-limiter uses for the ApplicationLimit below (prefix, key,
    scope; limits sorted, stopping at the first breach), and the fixed-window count its strategy
    makes (one incr per limit), so both paths draw from one budget. The caller hands a breached or
    failing request to Flask, which answers it (see COUNTED).
    """
    strategy = limiter.limiter
    if type(strategy) is not FixedWindowRateLimiter:   # init_app asks for fixed-window; another: Flask's way
        raise LookupError(f"no count outside Flask for {type(strategy).__name__}")
    storage = strategy.storage
    counted = []
    for item in parsed_budget(budget):
        key = public_storage_key(item, remote_addr)
        count = storage.incr(key, item.get_expiry(), amount=1)
        if count > item.amount:
            return None
        counted.append(Counted(item, key, count, storage))
    return counted


def handle_rate_limited(err: RateLimitExceeded):
    """429 rate_limited in the spec's error shape, naming the wait in seconds."""
    limiter = current_app.extensions.get("registry_limiter")
    current = limiter.current_limit if limiter else None
    try:
        wait = retry_after(current) if current else 60
    except Exception:   # the store went away since the breach: the whole window is a safe bound
        wait = max(1, int(current.limit.get_expiry()))
    return error_response(429, "rate_limited", f"Rate limit exceeded; retry in {wait} seconds.",
                          {"Retry-After": str(wait)})


def init_app(app) -> Limiter:
    """Attach the limiter, the headers hook and the 429 handler to an app (one limiter per app)."""
    for name in ("RATELIMIT_PUBLIC", "RATELIMIT_ADMIN"):
        try:   # a typo in a budget stops the app at startup instead of failing every request
            if not parse_many(app.config[name]):
                raise ValueError
        except ValueError:
            raise ValueError(f"{name} is not a rate limit such as '100/minute': "
                             f"{app.config[name]!r}") from None
    uri = app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    limiter = Limiter(
        key_func=client_ip,
        application_limits=[
            ApplicationLimit(_public_budget, scope=PUBLIC_SCOPE, key_function=client_ip,
                             exempt_when=is_admin_request, cost=public_cost),
            ApplicationLimit(_admin_budget, scope="admin", key_function=admin_key,
                             exempt_when=lambda: not is_admin_request()),
        ],
        request_identifier=_identify,
        key_prefix=KEY_PREFIX,
        strategy="fixed-window",
        # Our own hook writes the headers: the extension's would put Retry-After on every response.
        headers_enabled=False,
        # Storage down (Redis frozen or restarting): count in this process rather than answer 500s,
        # and re-check it at doubling intervals (1 s ... 32 s) until it answers again.
        in_memory_fallback_enabled=True,
        # A request whose Redis call fails after another thread already switched to the fallback
        # is let through uncounted instead of failing (docs/api-decisions.md, "Rate-limit storage").
        swallow_errors=True,
        storage_uri=storage_uri(uri),
        storage_options=storage_options(uri, app.config.get("RATELIMIT_STORAGE_TIMEOUT_MS") or 250),
    )
    limiter.logger = OutageLog(limiter.logger)   # one warning per outage
    limiter.request_filter(counted_in_front)
    limit_scopes.install(limiter)
    limiter.init_app(app)
    pass_over_counted(app, limiter)
    app.extensions["registry_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, handle_rate_limited)
    app.after_request(add_headers)
    return limiter

"""Every environment variable the service reads, in one table (name, default, parser, help).

The app's config, the server's settings, the sources' URLs and keys and the operators' table
(docs/running.md#environment-variables) all come from SETTINGS (tests/test_config.py checks that table
against it), as Datasette's SETTINGS table gives defaults, validation and docs from one place.
"""
import os
from dataclasses import dataclass
from typing import Callable


class SettingError(ValueError):
    """A setting the environment gives a value it cannot take: the message names the variable, the value and
    what is accepted, on one line (docs/running.md#environment-variables)."""


def _bad(name: str, raw: str, accepted: str) -> SettingError:
    return SettingError(f"{name}={raw!r} is not accepted: {accepted}")


def _text(name: str, raw: str) -> str:
    return raw


def _count(name: str, raw: str) -> int:
    """A non-negative integer; a bad value stops the app at startup, not at the first request."""
    if not raw.strip().isdigit():
        raise _bad(name, raw, "a non-negative whole number")
    return int(raw.strip())


def _positive(name: str, raw: str) -> int:
    value = _count(name, raw)
    if value < 1:
        raise _bad(name, raw, "a whole number of at least 1")
    return value


def _in_range(low: int, high: int, what: str) -> Callable:
    """The parser of a whole number from low to high (a port, a prefix length)."""
    def parse(name: str, raw: str) -> int:
        if not raw.strip().isdigit() or not low <= int(raw.strip()) <= high:
            raise _bad(name, raw, f"{what}, {low} to {high}")
        return int(raw.strip())
    return parse


_port = _in_range(1, 65535, "a TCP port")
_ipv6_prefix = _in_range(1, 128, "a prefix length")


FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False,
              "off": False}


def _flag(name: str, raw: str) -> bool:
    word = raw.strip().lower()
    if word == "":
        return False
    if word not in FLAG_WORDS:
        raise _bad(name, raw, "1, true, yes or on (0, false, no, off or unset: off)")
    return FLAG_WORDS[word]


def _keys(name: str, raw: str) -> list:
    return [k.strip() for k in raw.split(",") if k.strip()]


def _hosts(name: str, raw: str) -> list | None:
    """Host names, or None (unset: every host; werkzeug reads an empty list as none trusted)."""
    return _keys(name, raw) or None


def _day(name: str, raw: str) -> str | None:
    """An ISO day (YYYY-MM-DD), or unset."""
    from datetime import date
    text = raw.strip()
    if text == "":
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or day.isoformat() != text:   # fromisoformat also takes 20261206 and week dates
        raise _bad(name, raw, "an ISO day such as 2026-12-06")
    return text


def _rates(name: str, raw: str) -> str:
    """A rate-limit budget in the limits library's notation (`100/minute`, `10/second;100/minute`)."""
    from limits import parse_many
    try:
        parse_many(raw)
    except ValueError:
        raise _bad(name, raw, "a budget such as 100/minute, or several joined by ';' (10/second;100/minute)") from None
    return raw


# limits' Redis-family schemes (redis, rediss, redis+unix, redis+sentinel, redis+cluster, valkey...), read here and
# by registry/web/limit_storage.py, which gives them their timeouts.
REDIS_SCHEMES = ("redis", "valkey")


def _storage(name: str, raw: str) -> str:
    """Where the rate-limit counters live: memory:// or a Redis-family URI (registry/web/limit_storage.py)."""
    scheme = raw.partition("://")[0].lower()
    family = {s + tls for s in REDIS_SCHEMES for tls in ("", "s")}
    if "://" not in raw or not (scheme == "memory" or scheme.split("+")[0] in family):
        raise _bad(name, raw, "memory:// or a Redis URI such as redis://host:6379")
    return raw


@dataclass(frozen=True)
class Setting:
    """One environment variable: the app config key it fills (None: read where it is used)."""

    env: str
    default: str | None     # as docs/running.md shows it; None: unset
    parse: Callable
    help: str
    config_key: str | None = None

    def read(self, env=None):
        """The parsed value from env (default os.environ), or the parsed default."""
        env = os.environ if env is None else env
        raw = env.get(self.env, "")
        if raw.strip() == "":
            raw = self.default
        if raw is None:
            return self.parse(self.env, "") if self.parse in (_keys, _flag, _text, _day) else None
        return self.parse(self.env, raw)


SETTINGS = (
    Setting("REGISTRY_DB", "./registry.db", _text, "the SQLite file", "DATABASE"),
    Setting("REGISTRY_CURATION_DIR", "./curation", _text, "curation YAML directory", "CURATION_DIR"),
    Setting("REGISTRY_SEEDS_DIR", "./seeds", _text, "offline snapshots of every automated source", "SEEDS_DIR"),
    Setting("REGISTRY_OFFLINE", None, _flag,
            "`1` (or `true`, `yes`, `on`): every source reads its snapshot from the seeds directory "
            "(admin triggers too)", "OFFLINE"),
    Setting("REGISTRY_TODAY", None, _day,
            "pins today's date (ISO) for lifecycle status: reproducible builds and tests; unset: the UTC date"),
    Setting("REGISTRY_HUB_ORGS", None, _text,
            "comma-separated Hugging Face orgs the hub source reads; unset: the well-known ones"),
    # The platform catalogs behind cloud credentials (registry/ingest/sources/bedrock.py, vertex.py).
    Setting("REGISTRY_BEDROCK_REGIONS", "us-east-1,eu-central-1,ap-northeast-1,ap-southeast-2", _keys,
            "AWS regions bedrock-catalog lists (the first for the foundation models, each for its cross-region "
            "inference profiles); credentials from boto3's usual chain (`AWS_PROFILE`, `AWS_ACCESS_KEY_ID`, ...)"),
    Setting("REGISTRY_VERTEX_PUBLISHERS", "google,anthropic,meta,mistralai,deepseek-ai,qwen,openai,moonshotai,"
            "zai-org,minimaxai,ai21", _keys,
            "Model Garden publishers vertex-catalog lists; credentials from Google's Application Default "
            "Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, ...)"),
    Setting("ADMIN_API_KEY", None, _keys,
            "admin key; comma-separated list for rotation; unset: admin endpoints always answer 401",
            "ADMIN_API_KEYS"),
    # The counters' store and the two budgets (registry/web/limits.py, limit_storage.py).
    Setting("RATELIMIT_STORAGE_URI", "memory://", _storage,
            "where the counters live; `redis://host:port` for several processes or hosts", "RATELIMIT_STORAGE_URI"),
    # Bounds every Redis call, connect and read alike (registry/web/limit_storage.py; docs/api-decisions.md).
    Setting("RATELIMIT_STORAGE_TIMEOUT_MS", "250", _positive,
            "milliseconds a Redis connect or command may take before that request counts in-process instead",
            "RATELIMIT_STORAGE_TIMEOUT_MS"),
    Setting("RATELIMIT_PUBLIC", "100/minute", _rates,
            "per-IP budget shared by all public endpoints (e.g. `1000/hour`, `10/second;100/minute`)",
            "RATELIMIT_PUBLIC"),
    Setting("RATELIMIT_ADMIN", "20/minute", _rates, "per-key budget shared by all admin endpoints", "RATELIMIT_ADMIN"),
    # One IPv6 host is usually given a whole /64 (registry/web/limits.py ip_key).
    Setting("RATELIMIT_IPV6_PREFIX", "64", _ipv6_prefix,
            "IPv6 clients share one public budget per network of this many bits (`128`: one per address)",
            "RATELIMIT_IPV6_PREFIX"),
    # Only that many hops of X-Forwarded-For and X-Forwarded-Proto are believed (ProxyFix, registry/__init__.py);
    # gunicorn itself trusts no forwarded header (registry/serve/server.py, docs/threat-model.md#proxies).
    # The hosts the service answers for (Flask's TRUSTED_HOSTS, registry/web/hardening.py require_host):
    # a request naming another is answered 400, so its links (the feeds') are never written for a host an
    # attacker chose. Unset: any non-empty Host.
    Setting("REGISTRY_TRUSTED_HOSTS", None, _hosts,
            "comma-separated host names the service answers for (`models.example.com,.example.org`: a leading "
            "dot takes subdomains); a request naming another host gets 400; unset: any", "TRUSTED_HOSTS"),
    Setting("TRUSTED_PROXIES", "0", _count,
            "number of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are trusted",
            "TRUSTED_PROXIES"),
    # Every request body is bounded before it is read: more is a 413 (registry/web/request_body.py).
    Setting("REGISTRY_MAX_BODY_BYTES", "1048576", _positive,
            "bytes a request body may have; a larger one is refused with 413 before it is read",
            "MAX_CONTENT_LENGTH"),
    # Rendered public answers kept per process until the data changes (registry/web/response_cache.py).
    # 24 MiB of real size (body, key, headers: registry/web/response_cache.py cost): a model's page takes
    # ~8 KB against ~2 KB for a JSON answer, and a thousand of each must fit, twice over; more would put
    # a 50k-model worker past 150 MB (docs/running.md#memory).
    Setting("REGISTRY_RESPONSE_CACHE_BYTES", "25165824", _count,
            "bytes of rendered public answers kept per process; `0` turns it off", "RESPONSE_CACHE_BYTES"),
    # How long a process trusts the data generation it last read (registry/web/connection.py): reading
    # it from SQLite on every cached answer cost a fifth of the request and let other threads in.
    Setting("REGISTRY_DATA_RECHECK_MS", "1000", _count,
            "milliseconds a process serves its cached answers before it checks the database for new data "
            "again; `0` checks on every request", "DATA_RECHECK_MS"),
    # Webhook receivers on loopback or private addresses reach inside the network (registry/notify/urls.py).
    Setting("REGISTRY_WEBHOOKS_ALLOW_PRIVATE", None, _flag,
            "`1`: webhook URLs may point at loopback and private addresses (tests, an internal receiver)",
            "WEBHOOKS_ALLOW_PRIVATE"),
    # An admin-triggered run is done in a child process of bounded memory (registry/ingest/isolated.py).
    Setting("REGISTRY_INGEST_MEMORY_MB", "2048", _count,
            "megabytes of address space an admin-triggered run's own process may use (a flooding upstream fails "
            "the run, not the server); `0`: run inside the server's process", "INGEST_MEMORY_MB"),
    # Two writers (the cron ingest, an admin-triggered run) meet: the later one waits (registry/db.py connect_rw).
    Setting("REGISTRY_WRITE_WAIT_MS", "120000", _positive,
            "milliseconds a writer (a run, curation, an admin write) waits for another to finish before it gives up "
            "and says so"),
    Setting("HOST", "127.0.0.1", _text, "address `registry serve` binds"),
    Setting("PORT", "8000", _port, "port `registry serve` binds"),
    Setting("WEB_CONCURRENCY", "1", _positive, "gunicorn worker processes"),
    # Four, not eight: the threads share one GIL, and each one more costs the database-bound answers CPU in
    # hand-offs (docs/running.md#threads-and-the-gil); slow clients never hold one (registry/serve/worker.py).
    Setting("GUNICORN_THREADS", "4", _positive, "threads per worker"),
    # A slowloris holds a connection by sending its head a byte at a time (registry/serve/worker.py).
    Setting("REGISTRY_HEAD_TIMEOUT_MS", "10000", _positive,
            "milliseconds a client may take to send a request's head (line and headers) before it is dropped"),
)
BY_ENV = {s.env: s for s in SETTINGS}

# Read by the source modules (registry/ingest/): each source's key and base URL.
SOURCE_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY", "CO_API_KEY",
               "XAI_API_KEY", "HF_TOKEN")


def source_url_variable(source: str) -> str:
    """REGISTRY_<SOURCE>_URL: the variable that overrides one source's base URL."""
    return "REGISTRY_" + source.upper().replace("-", "_") + "_URL"


def source_url(source: str, default: str) -> str:
    """One source's base URL: REGISTRY_<SOURCE>_URL, else the upstream's own."""
    return os.environ.get(source_url_variable(source)) or default


def source_key(variable: str | None) -> str:
    """A provider key (one of SOURCE_KEYS), or "" when unset."""
    return os.environ.get(variable, "").strip() if variable else ""


def setting(env_name: str, env=None):
    """The value of one setting, parsed (for the places that read one outside the app config)."""
    return BY_ENV[env_name].read(env)


def from_environment(env=None) -> dict:
    """The app config from the environment, with the documented defaults."""
    return {s.config_key: s.read(env) for s in SETTINGS if s.config_key}


def problems(env=None) -> list[str]:
    """One line per setting the environment gives a value it cannot take (empty: every setting is good)."""
    from .fields import SOURCE_URLS
    from .url_policy import problem
    env = os.environ if env is None else env
    found = []
    for s in SETTINGS:
        try:
            s.read(env)
        except ValueError as error:
            found.append(str(error))
    for source in SOURCE_URLS:   # a source's base URL override: the one URL policy, like every URL it reads
        raw = env.get(source_url_variable(source), "")
        if raw and problem(raw):
            found.append(str(_bad(source_url_variable(source), raw, f"the URL {problem(raw)}")))
    return found


def require_valid(env=None) -> None:
    """Stop the program, exit status 2, with one line per bad setting on stderr: no traceback, no request
    answered with a 500 later (docs/running.md#environment-variables)."""
    lines = problems(env)
    if lines:
        import sys
        for line in lines:
            print(f"registry: error: {line}", file=sys.stderr)
        raise SystemExit(2)

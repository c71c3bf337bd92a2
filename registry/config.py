"""Configuration from the environment (the operator contract in README.md)."""
import os


def _int(env, name: str, default: int) -> int:
    """A non-negative integer variable; a bad value stops the app at startup, not at the first request."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ValueError(f"{name} must be a non-negative integer, not {raw!r}")
    return int(raw)


def from_environment() -> dict:
    """Settings read from REGISTRY_* and friends, with the documented defaults."""
    env = os.environ
    return {
        "DATABASE": env.get("REGISTRY_DB", "./registry.db"),
        "CURATION_DIR": env.get("REGISTRY_CURATION_DIR", "./curation"),
        "SEEDS_DIR": env.get("REGISTRY_SEEDS_DIR", "./seeds"),
        "OFFLINE": env.get("REGISTRY_OFFLINE", "") == "1",
        "ADMIN_API_KEYS": [k.strip() for k in env.get("ADMIN_API_KEY", "").split(",") if k.strip()],
        # flask-limiter reads RATELIMIT_STORAGE_URI itself; the two budgets are ours (registry/web/limits.py).
        "RATELIMIT_STORAGE_URI": env.get("RATELIMIT_STORAGE_URI") or "memory://",
        "RATELIMIT_PUBLIC": env.get("RATELIMIT_PUBLIC") or "100/minute",
        "RATELIMIT_ADMIN": env.get("RATELIMIT_ADMIN") or "20/minute",
        "TRUSTED_PROXIES": _int(env, "TRUSTED_PROXIES", 0),
        # Rendered public answers kept per process until the data changes (registry/web/response_cache.py).
        "RESPONSE_CACHE_BYTES": _int(env, "REGISTRY_RESPONSE_CACHE_BYTES", 8 * 1024 * 1024),
    }

"""Configuration from the environment (the operator contract in README.md)."""
import os


def from_environment() -> dict:
    """Settings read from REGISTRY_* and friends, with the documented defaults."""
    env = os.environ
    return {
        "DATABASE": env.get("REGISTRY_DB", "./registry.db"),
        "CURATION_DIR": env.get("REGISTRY_CURATION_DIR", "./curation"),
        "SEEDS_DIR": env.get("REGISTRY_SEEDS_DIR", "./seeds"),
        "OFFLINE": env.get("REGISTRY_OFFLINE", "") == "1",
        "ADMIN_API_KEYS": [k.strip() for k in env.get("ADMIN_API_KEY", "").split(",") if k.strip()],
    }

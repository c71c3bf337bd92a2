"""Field rules of the curation format: what each key may hold (curation-format.md)."""
import datetime as dt
import re

from ..fields import (BY_NAME, CURATED, KNOWLEDGE_CUTOFF, MODALITIES, MODEL_TYPES, PLATFORMS, REASONING_EFFORTS,
                      STATUSES)
from ..fields import RETIRING
from .. import pricing

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
MODEL_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")

PROVIDER_KEYS = {"slug", "name", "website_url", "api_models_url"}
FAMILY_KEYS = {"slug", "name", "description", "is_open_source", "match", "successor", "models"}
# Model fields a curation entry (or a correction) may set; each becomes a fact of source curation.
MODEL_FIELDS = CURATED
MODEL_KEYS = {"slug", "aliases", *MODEL_FIELDS} - {"family"}
CORRECTION_KEYS = {"aliases", *MODEL_FIELDS}


def _text(value):
    return None if isinstance(value, str) and value.strip() else "must be a non-empty string"


def _date(value):
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return "must be an ISO date YYYY-MM-DD (a month alone is not a day: leave it out)"
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return f"is not a real date: {value}"
    return None


def _count(value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return "must be a non-negative integer"
    return None


def _url(value):
    if not isinstance(value, str) or not re.match(r"^https?://\S+$", value):
        return "must be an http(s) URL"
    return None


def _one_of(choices):
    def check(value):
        return None if value in choices else f"must be one of {', '.join(choices)}"
    return check


def _model_slug(value):
    if not isinstance(value, str) or not MODEL_SLUG_RE.match(value):
        return "must be a model slug ([a-z0-9][a-z0-9.-]*)"
    return None


def _family_slug(value):
    if not isinstance(value, str) or not SLUG_RE.match(value):
        return "must be a family slug ([a-z0-9][a-z0-9-]*)"
    return None


def _version(value):
    return None if isinstance(value, str) else 'must be a string (quote it: "20241022")'


# What a platform's own schedule may state (docs/lifecycle.md#platforms): its days, the replacement it
# names (a model slug), a status only where no day says it (a platform listing an id as retired), and the page
# that says so (deprecation_url, the upgrade's named_by.url).
PLATFORM_KEYS = {"deprecation_date": _date, "sunset_date": _date, "successor": _model_slug,
                 "status": _one_of(RETIRING), "deprecation_url": _url}
SCHEDULED_PLATFORMS = PLATFORMS[1:]   # the provider's own API is the model's own fields


def _platforms(value):
    if not isinstance(value, dict) or not value:
        return f"must map a platform ({', '.join(SCHEDULED_PLATFORMS)}) to its own schedule"
    for platform, entry in value.items():
        if platform not in SCHEDULED_PLATFORMS:
            return (f"names '{platform}', which is not a platform with a schedule of its own"
                    f" ({', '.join(SCHEDULED_PLATFORMS)}; the provider's API is the model's own fields)")
        if not isinstance(entry, dict) or not entry or set(entry) - set(PLATFORM_KEYS):
            return f"{platform}: must hold some of {', '.join(sorted(PLATFORM_KEYS))}"
        for key, item in entry.items():
            problem = PLATFORM_KEYS[key](item)
            if problem:
                return f"{platform}.{key} {problem}"
    return None


def _modalities(value):
    if not isinstance(value, list) or not value or any(item not in MODALITIES for item in value) \
            or len(set(value)) != len(value):
        return f"must be a list of distinct modalities ({', '.join(MODALITIES)})"
    return None


def _efforts(value):
    if not isinstance(value, list) or not value or any(item not in REASONING_EFFORTS for item in value) \
            or len(set(value)) != len(value):
        return f"must be a list of distinct reasoning efforts ({', '.join(REASONING_EFFORTS)})"
    return None


def _month(value):
    if not isinstance(value, str) or not KNOWLEDGE_CUTOFF.fullmatch(value):
        return "must be a month YYYY-MM, or a day YYYY-MM-DD where the source names one"
    return _date(value) if len(value) > 7 else None


def _flag(value):
    return None if isinstance(value, bool) else "must be true or false (leave it out when no source says)"


def _prices(value):
    if not isinstance(value, dict) or not value:
        return "must map platforms to price entries"
    for platform, entry in value.items():
        why = pricing.platform_problem(platform, entry)
        if why:
            return f"{platform}: {why}"
    return None


# A field's kind (registry/fields.py) -> its checker.
KIND_CHECKS = {
    "family_slug": _family_slug, "text": _text, "version": _version, "model_type": _one_of(MODEL_TYPES),
    "date": _date, "count": _count, "url": _url, "model_slug": _model_slug, "status": _one_of(STATUSES),
    "platforms": _platforms, "modalities": _modalities, "flag": _flag, "prices": _prices,
    "efforts": _efforts, "month": _month,
}


def check_field(field: str, value) -> str | None:
    """Return why value is not valid for field, or None."""
    spec = BY_NAME[field]
    if value is None:
        return None if spec.nullable else "may not be null"
    return KIND_CHECKS[spec.kind](value)

"""Field rules of the curation format: what each key may hold (curation-format.md)."""
import datetime as dt
import re

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
MODEL_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
ALIAS_SOURCES = ("official", "cloud-a", "cloud-b", "gateway")
MODEL_TYPES = ("chat", "embedding", "image", "audio_generation", "speech_to_text", "realtime",
               "moderation", "video_generation", "search", "code", "unknown")
STATUSES = ("active", "latest", "deprecated", "sunset")

PROVIDER_KEYS = {"slug", "name", "website_url", "api_models_url"}
FAMILY_KEYS = {"slug", "name", "description", "is_open_source", "match", "models"}
# Model fields a curation entry (or a correction) may set; each becomes a fact of source curation.
MODEL_FIELDS = ("family", "display_name", "version", "model_type", "release_date", "deprecation_date",
                "sunset_date", "parameter_count", "parameter_label", "input_context_window",
                "output_context_window", "canonical_url", "successor", "status", "earliest_sunset_date")
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


# field -> (checker, null allowed)
FIELD_CHECKS = {
    "family": (_family_slug, False),
    "display_name": (_text, False),
    "version": (_version, False),
    "model_type": (_one_of(MODEL_TYPES), True),
    "release_date": (_date, True),
    "deprecation_date": (_date, True),
    "sunset_date": (_date, True),
    "parameter_count": (_count, True),
    "parameter_label": (_text, True),
    "input_context_window": (_count, True),
    "output_context_window": (_count, True),
    "canonical_url": (_url, True),
    "successor": (_model_slug, True),
    "status": (_one_of(STATUSES), True),
    # A provider's "not sooner than" retirement date: not a shutdown day, so it is kept in
    # metadata, never in sunset_date (docs/api-decisions.md#lifecycle).
    "earliest_sunset_date": (_date, True),
}


def check_field(field: str, value) -> str | None:
    """Return why value is not valid for field, or None."""
    checker, nullable = FIELD_CHECKS[field]
    if value is None:
        return None if nullable else "may not be null"
    return checker(value)

"""HTTP lifecycle signals on the answers about a deprecated or sunset model (docs/api-decisions.md#lifecycle).

Deprecation (RFC 9745) carries the deprecation day as `@<unix time>`, Sunset (RFC 8594) the shutdown
day as an HTTP-date, and `Link: <...>; rel="successor-version"` points to the recommended upgrade.
"""
from datetime import date, datetime, time, timezone
from email.utils import format_datetime

from ..fields import RETIRING


def _midnight(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(0), tzinfo=timezone.utc)


def lifecycle_headers(model, upgrade=None) -> dict:
    """The lifecycle headers for a model row (and its upgrade row); empty for a working model.

    Deprecation: the deprecation day, else the shutdown day (deprecated by then at the latest);
    left out when neither is known (RFC 9745 takes a date only).
    """
    if model["status"] not in RETIRING:
        return {}
    headers = {}
    deprecated_on = model["deprecation_date"] or model["sunset_date"]
    if deprecated_on:
        headers["Deprecation"] = f"@{int(_midnight(deprecated_on).timestamp())}"
    if model["sunset_date"]:
        headers["Sunset"] = format_datetime(_midnight(model["sunset_date"]), usegmt=True)
    if upgrade is not None:
        headers["Link"] = f'</api/v1/models/{upgrade["slug"]}>; rel="successor-version"'
    return headers

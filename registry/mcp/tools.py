"""What the MCP tools answer, over one read-only connection: the API's own resolve, upgrade and search.

Every date comes with its days left as a number (negative once passed), so an agent need not count.
"""
from __future__ import annotations

from datetime import date, timedelta

from ..fields import OFFICIAL
from ..queries import catalog, schedule
from .. import lifecycle
from ..lifecycle import days_left
from ..resolve import resolve_identifier
from ..resolve.answers import resolve_answer, shutdown_of, upgrade_answer
from ..resolve.upgrade import upgrade_for
from ..search import ranking

MAX_IDENTIFIERS = 100          # one check() call; more is a batch job for `registry scan`
MAX_DAYS = 36525               # upcoming_shutdowns looks at most a century ahead
MAX_TEXT = 200                 # the API's limit on q


def _text(value: str, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"'{name}' must be a non-empty string.")
    if len(value) > MAX_TEXT or any(ord(c) < 32 for c in value):
        raise ValueError(f"'{name}' must be at most {MAX_TEXT} characters, without control characters.")
    return value.strip()


def _when(day: str | None) -> dict:
    return {"date": day, "days_left": days_left(day)}


def resolve(db, path: str, identifier: str) -> dict:
    """GET /resolve's answer for identifier, with the shutdown date and days left; found: false when nothing matches."""
    identifier = _text(identifier, "identifier")
    found = resolve_identifier(db, path, None, identifier)
    if found is None:
        return {"identifier": identifier, "found": False}
    answer = resolve_answer(found)
    return {"identifier": identifier, "found": True, **answer,
            "shutdown": _when(shutdown_of(found.model, found.lifecycle))}


def check(db, path: str, identifiers: list[str]) -> dict:
    """For each identifier: its model, status, shutdown date, days left and upgrade in the same format."""
    if not isinstance(identifiers, list) or not 1 <= len(identifiers) <= MAX_IDENTIFIERS:
        raise ValueError(f"'identifiers' must be a list of 1 to {MAX_IDENTIFIERS} strings.")
    results = []
    for identifier in identifiers:
        r = resolve(db, path, identifier)
        if not r["found"]:
            results.append({"identifier": r["identifier"], "found": False})
            continue
        results.append({
            "identifier": r["identifier"], "found": True, "model": r["matched_model"]["slug"],
            "status": r["matched_model"]["status"], "confidence": r["confidence"], "shutdown": r["shutdown"],
            "upgrade": r["upgrade"]["slug"] if r["upgrade"] else None,
            "upgrade_alias": r["upgrade_alias"]["alias"] if r["upgrade_alias"] else None,
        })
    return {"results": results}


def upgrade(db, path: str, model: str) -> dict:
    """GET /models/{slug}/upgrade's answer for a slug (or any identifier, resolved first), with shutdown dates."""
    model = _text(model, "model")
    row = catalog.model_by_slug(db, model)
    if row is None:
        found = resolve_identifier(db, path, None, model)
        if found is None:
            raise ValueError(f"No model matches '{model}'.")
        row = found.model
    target = upgrade_for(db, row)
    answer = upgrade_answer(row, target, catalog.platform_lifecycle(db, row["id"], OFFICIAL) if target else None)
    answer["current"]["shutdown"] = _when(row["sunset_date"])
    if target is not None:
        answer["upgrade"]["shutdown"] = _when(target["sunset_date"])
    return answer


def search(db, query: str, limit: int = 10) -> dict:
    """GET /search's answer: models matching query, most relevant first."""
    query = _text(query, "query")
    if not isinstance(limit, int) or not 1 <= limit <= ranking.MAX_LIMIT:
        raise ValueError(f"'limit' must be between 1 and {ranking.MAX_LIMIT}.")
    return {"query": query, "results": ranking.search(db, query, limit)}


def upcoming_shutdowns(db, days: int, provider: str | None = None) -> dict:
    """Models whose shutdown day is today or within days, soonest first, each with days left and its upgrade."""
    if not isinstance(days, int) or not 0 <= days <= MAX_DAYS:
        raise ValueError(f"'days' must be a whole number from 0 to {MAX_DAYS}.")
    today = lifecycle.today()
    last = (date.fromisoformat(today) + timedelta(days=days)).isoformat()
    models = []
    for row in schedule.shutdowns_between(db, today, last, provider or None):
        target = upgrade_for(db, row)
        models.append({
            "slug": row["slug"], "display_name": row["display_name"], "provider": row["provider_slug"],
            "status": row["status"], "shutdown": _when(row["sunset_date"]),
            "upgrade": None if target is None else {"slug": target["slug"], "status": target["status"]},
        })
    return {"today": today, "until": last, "provider": provider or None, "models": models}

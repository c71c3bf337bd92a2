"""A model's prices: today's on each platform (metadata.prices, the merge's choice) and every earlier one, read
back from the change history, where each price that appeared, changed or went is a change (docs/api.md#prices)."""
import json

from .. import pricing


def lowest_sql(name: str) -> str:
    """SQL of a model's lowest price `name` (input_per_mtok, ...) on any platform (m: its models row), NULL when no
    platform prices it so: what /models and /search filter and sort by (docs/api.md#prices)."""
    assert name in pricing.VALUES
    return f"(SELECT min(json_extract(jp.value, '$.{name}')) FROM json_each(m.metadata, '$.prices') AS jp)"


def entry(platform: str, price: dict, effective_to: str | None = None) -> dict:
    """A Price object: its platform, every value (null where the source states none), its prices for long prompts
    and for faster modes (empty where none), its days and its source."""
    return {"platform": platform, "currency": price.get("currency"),
            **{name: price.get(name) for name in pricing.VALUES}, "tiers": price.get("tiers") or [],
            "modes": price.get("modes") or {},
            "effective_from": price.get("effective_from"), "effective_to": effective_to, "source": price.get("source")}


def current(metadata: dict) -> list:
    """Today's Price objects of a model (its metadata), in platform order."""
    stated = (metadata or {}).get("prices") or {}
    return [entry(platform, stated[platform]) for platform in pricing.PRICED_PLATFORMS if platform in stated]


def history(db, row, metadata: dict) -> list:
    """Every price the model had on each platform, oldest first per platform, each with the day it took effect and
    the day the next one did (effective_to: null for today's)."""
    periods: dict = {}
    for field, old, new, occurred_at in db.execute(
            "SELECT field, old, new, occurred_at FROM changes WHERE model_slug = ? AND field LIKE 'prices.%'"
            " ORDER BY id", (row["slug"],)):
        platform = field.split(".", 1)[1]
        old, new = (json.loads(old) if old else None), (json.loads(new) if new else None)
        shown = periods.setdefault(platform, [])
        if old and not shown:   # a price the history starts after
            shown.append([old, None])
        if shown and shown[-1][1] is None:
            shown[-1][1] = (new or {}).get("effective_from") or occurred_at[:10]
        if new:
            shown.append([new, None])
    for platform, price in ((metadata or {}).get("prices") or {}).items():
        shown = periods.setdefault(platform, [])
        if not shown or not pricing.same(shown[-1][0], price) or shown[-1][1] is not None:
            if shown and shown[-1][1] is None:
                shown[-1][1] = price.get("effective_from")
            shown.append([price, None])
    # A price another took the place of on the day it took effect was never a day's price (a model's first ingest
    # reads its sources one after another): the changes keep it, the history does not.
    return [entry(platform, price, until) for platform in pricing.PRICED_PLATFORMS
            for price, until in periods.get(platform, ())
            if until is None or until != price.get("effective_from")]

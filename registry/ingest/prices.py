"""A source's prices over time: the day each price was first seen, and a jump held for a curator
(docs/api.md#prices).

A source states today's price only. A price it states again unchanged keeps the day the registry first saw it
(effective_from); a new one starts today; one that jumps tenfold or falls to zero against the price this source
stated before is held: the old one stays served and the new one is listed in the run's details (`held_prices`)
and in `registry curate --drift`, for a curator to confirm in curation or to let the next run correct.
"""
import json

from .. import pricing
from ..lifecycle import today


def dated(conn, source: str, placed: dict) -> list:
    """Give each price in placed (slug -> fields, as records_to_facts gathers them) its effective_from, holding
    jumps (the stored price put back); return the held ones, as lines for the run's details."""
    priced = {slug: fields["prices"] for slug, fields in placed.items() if fields.get("prices")}
    if not priced:
        return []
    before = {slug: json.loads(value) for slug, value in conn.execute(
        "SELECT model_slug, value FROM facts WHERE source = ? AND field = 'prices'", (source,)) if value}
    day, held = today(), []
    for slug, entries in priced.items():
        stated = before.get(slug) or {}
        for platform, entry in list(entries.items()):
            old = stated.get(platform)
            if old and pricing.same(old, entry):
                entry["effective_from"] = old.get("effective_from") or day
            elif old and (why := pricing.held(old, entry)):
                entries[platform] = old
                held.append(f"{slug} on {platform}: {why} (the price stated before is kept)")
            else:
                entry["effective_from"] = day
    return held

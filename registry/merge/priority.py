"""The per-field priority table: which source's fact becomes the visible value."""
from ..fields import (CAPABILITIES, CATALOG_SOURCE, CURATION, FEED_SOURCE, HUB_SOURCE, PLATFORM_SOURCES,
                      PRICE_MAP_SOURCE)

# Signals for the lifecycle, not columns: a provider's deprecated / retired flags, a curated pin.
FLAG_FIELDS = ("deprecated", "retired", "status", "provider")

# The feed supplements lifecycle dates and replacements only (docs/data-flow.md).
FEED_FIELDS = {"deprecation_date", "sunset_date", "successor", "platforms"}
# The hub is authoritative for these on open-source models (docs/data-flow.md).
HUB_FIELDS = {"canonical_url", "parameter_count", "parameter_label"}


def precedence(source: str) -> int:
    """A source's place in the spec's conflict priority (curation, providers, feed, hub): lower wins. A platform's
    catalog stands with the providers: the first word on its own platform's ids and schedule; the public catalogs
    have the last word, models.dev's before LiteLLM's (docs/data-flow.md#the-public-catalog)."""
    if source == CURATION:
        return 0
    if source == FEED_SOURCE:
        return 2
    if source == HUB_SOURCE:
        return 3
    if source == CATALOG_SOURCE:
        return 4
    if source == PRICE_MAP_SOURCE:
        return 5
    return 1


def rank(source: str, field: str) -> tuple:
    """Sort key of a fact: curation first; the hub before vendors for its fields; then name."""
    if field in HUB_FIELDS and source == HUB_SOURCE:
        return (0.5, source)
    return (precedence(source), source)


def accepts(source: str, field: str) -> bool:
    """Whether a source may supply a field at all: the feed its lifecycle fields, a platform's catalog only that
    platform's schedule and price (docs/lifecycle.md#platform-catalogs), the public catalog prices and
    capabilities, the price map prices."""
    if source == FEED_SOURCE:
        return field in FEED_FIELDS
    if source in PLATFORM_SOURCES:
        return field in ("platforms", "prices")
    if source == CATALOG_SOURCE:
        return field == "prices" or field in CAPABILITIES
    if source == PRICE_MAP_SOURCE:
        return field == "prices"
    return True


def pick(field: str, by_source: dict):
    """Choose (value, source) for one field from {source: value}; None when nobody supplies one.

    Only curation can state "no value": an automated source's null means it does not know.
    """
    best = None
    for source, value in by_source.items():
        if not accepts(source, field):
            continue
        if value is None and source != CURATION:
            continue
        key = rank(source, field)
        if best is None or key < best[0]:
            best = (key, value, source)
    return (best[1], best[2]) if best else None


def entries_by_key(field: str, by_source: dict) -> dict:
    """For a field whose value maps keys to whole entries (prices: platform -> price): each key's entry from its
    best source, whole (one source's price, never one source's input beside another's output), with that source.
    Each of its modes (a batch or priority service of the same id) is whole from the best source that states that
    mode in the same currency, with its source; the entry then dates from the latest of the days of the sources it
    holds (docs/api.md#prices)."""
    chosen, modes = {}, {}
    for source in sorted(by_source, key=lambda s: rank(s, field), reverse=True):   # the best writes last
        value = by_source[source]
        if not isinstance(value, dict) or not accepts(source, field):
            continue
        for key, entry in value.items():
            if isinstance(entry, dict):
                chosen[key] = {**entry, "source": source}
                for name, mode in (entry.get("modes") or {}).items():
                    modes.setdefault(key, {}).setdefault(entry.get("currency"), {})[name] = (
                        {**mode, "source": source}, entry.get("effective_from"))
    for key, entry in chosen.items():
        served = modes.get(key, {}).get(entry.get("currency"))
        if served:
            entry["modes"] = {name: mode for name, (mode, _) in sorted(served.items())}
            days = [day for _, day in served.values() if day] + [entry.get("effective_from") or ""]
            if max(days):
                entry["effective_from"] = max(days)
    return dict(sorted(chosen.items()))


def merge_by_key(by_source: dict) -> tuple:
    """For a field whose value maps keys to facts (platforms): each key's entry field by field, each field from
    its best source (curation's days beside a platform catalog's word that it lists the id).

    Returns (merged dict, {key: {field: source}}); an empty dict when nobody supplies one.
    """
    merged, origin = {}, {}
    for source in sorted(by_source, key=lambda s: rank(s, "platforms"), reverse=True):   # the best writes last
        value = by_source[source]
        if isinstance(value, dict) and accepts(source, "platforms"):
            for key, entry in value.items():
                for name, item in (entry.items() if isinstance(entry, dict) else ()):
                    merged.setdefault(key, {})[name] = item
                    origin.setdefault(key, {})[name] = source
    return merged, origin

"""What a price is: one (model, platform) entry, its values per unit, and when a new one is held for a curator.

One copy of the price vocabulary (docs/api.md#prices): the ingest check (registry/ingest/validate.py), curation's
rules and the API read it. A price belongs to one platform (a key of metadata.prices: official, cloud-a, cloud-b,
gateway), carries its currency, the day the registry first saw it from its source (effective_from) and that
source. Standard library only.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from .fields import ALIAS_SOURCES

# Each price a source may state: per 1M tokens where a model is priced by tokens, else per unit.
VALUES = {
    "input_per_mtok": "input tokens, per 1M",
    "output_per_mtok": "output tokens, per 1M",
    "cached_input_read_per_mtok": "cached input tokens read, per 1M",
    "cached_input_write_per_mtok": "input tokens written to the cache, per 1M",
    "input_audio_per_mtok": "audio input tokens, per 1M",
    "output_audio_per_mtok": "audio output tokens, per 1M",
    "per_request": "each request",
    "per_image": "each image generated",
}
# A price for long prompts: above this many input tokens, each price of the tier replaces the entry's own
# (`tiers`, docs/api.md#prices; Anthropic's and Google's above 200k, OpenAI's above 272k).
TIER_KEY = "above_input_tokens"
MAX_PARTS = 8   # long-prompt tiers, or modes, an entry may hold
# The prices of another service of the same id at its own rate (`modes`): the Batch APIs (`batch`: answers within a
# day, for less), OpenAI's and Google's `flex` (slower, for less), `priority` processing and Anthropic's `fast`
# mode (for more); by the name the registry gives the mode (registry/ingest/sources/litellm.py) or its source does.
MODE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,19}$")
# The dollar amount past which a per-1M-token or per-unit price is taken for a typo (the dearest real one is in the
# hundreds): refused, never served.
MAX_PRICE = 100_000
CURRENCY = re.compile(r"^[A-Z]{3}$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A new price this many times the one served (or a fall to zero) is held for a curator, not served
# (docs/api.md#prices): upstream catalogs have sent per-token prices as per-1M ones.
JUMP = 10


def problem(entry) -> str | None:
    """Why a price entry is not one (None when it is): values non-negative numbers within MAX_PRICE, a currency
    code, an effective_from day; at least one value."""
    if not isinstance(entry, dict):
        return "must map price names to numbers"
    unknown = set(entry) - set(VALUES) - {"currency", "effective_from", "tiers", "modes"}
    if unknown:
        return (f"holds {', '.join(sorted(unknown))}, not one of {', '.join(VALUES)}, tiers, modes, currency,"
                " effective_from")
    why = _values_problem(entry) or _tiers_problem(entry.get("tiers")) or _modes_problem(entry.get("modes"))
    if why:
        return why
    if not CURRENCY.match(str(entry.get("currency", ""))):
        return "currency must be a three-letter code (USD)"
    if "effective_from" in entry and not DAY.match(str(entry["effective_from"])):
        return "effective_from must be a day (YYYY-MM-DD)"
    return None


def _values_problem(entry: dict) -> str | None:
    if not any(entry.get(name) is not None for name in VALUES):
        return "states no price"
    for name in VALUES:
        value = entry.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_PRICE:
            return f"{name} must be a number from 0 to {MAX_PRICE}"
    return None


def _tiers_problem(tiers) -> str | None:
    """Why `tiers` is no list of long-prompt prices (None when absent or one): each a distinct
    above_input_tokens (a whole number of tokens) and some of VALUES."""
    if tiers is None:
        return None
    if not isinstance(tiers, list) or not 0 < len(tiers) <= MAX_PARTS:
        return f"tiers must be a list of 1 to {MAX_PARTS} prices for long prompts"
    seen = set()
    for tier in tiers:
        if not isinstance(tier, dict) or set(tier) - set(VALUES) - {TIER_KEY}:
            return f"each tier must hold {TIER_KEY} and some of {', '.join(VALUES)}"
        above = tier.get(TIER_KEY)
        if isinstance(above, bool) or not isinstance(above, int) or not 0 < above <= 10**8 or above in seen:
            return f"each tier's {TIER_KEY} must be a distinct number of tokens from 1 to 100,000,000"
        seen.add(above)
        why = _values_problem(tier)
        if why:
            return f"the tier above {above} tokens {why}"
    return None


def _modes_problem(modes) -> str | None:
    """Why `modes` is no map of other services' prices (None when absent or one): at most MAX_PARTS names of
    lowercase letters, digits, _ and -, each with some of VALUES."""
    if modes is None:
        return None
    if not isinstance(modes, dict) or not 0 < len(modes) <= MAX_PARTS:
        return f"modes must map 1 to {MAX_PARTS} mode names to prices"
    for name, prices in modes.items():
        if not isinstance(name, str) or not MODE_NAME.match(name):
            return "each mode's name must be a lowercase word (fast, priority)"
        if not isinstance(prices, dict) or set(prices) - set(VALUES):
            return f"the mode {name} must hold some of {', '.join(VALUES)}"
        why = _values_problem(prices)
        if why:
            return f"the mode {name} {why}"
    return None


def amount(written, scale: int | str = 1) -> float | None:
    """A price as an upstream writes it ("0.000003"), times scale, read exactly (3.0 for scale 1,000,000: a per-token
    price per 1M tokens); None for none, and for a negative one (OpenRouter's -1: the price varies, as a router's).
    Raises ValueError for what is no number."""
    if written is None or isinstance(written, bool):
        return None
    try:
        value = Decimal(str(written)) * Decimal(scale)
    except InvalidOperation:
        raise ValueError(f"{str(written)[:40]!r} is not a price") from None
    if not value.is_finite():
        raise ValueError(f"{str(written)[:40]!r} is not a price")
    return None if value < 0 else float(value)


def stated(item: dict, read: dict, currency: str = "USD") -> dict | None:
    """An upstream's price entry from its own fields (read: field -> (the price it is, the scale to this module's
    units)); None when it states none. A value that is no number is passed on as written (its first 40
    characters), for the check of upstream values to refuse the entry, with why (registry/ingest/validate.py): one
    model's bad price never fails a run."""
    entry = {}
    for key, (name, scale) in read.items():
        try:
            entry[name] = amount(item.get(key), scale)
        except ValueError:
            entry[name] = str(item.get(key))[:40]
    entry = {name: value for name, value in entry.items() if value is not None}
    return {**entry, "currency": currency} if entry else None


def stated_values(item, read: dict) -> dict | None:
    """The prices a long-prompt tier or a mode states (stated's, without a currency: its entry's is theirs); None
    when it states none, or is no object."""
    values = stated(item, read) if isinstance(item, dict) else None
    if values:
        values.pop("currency")
    return values or None


def platform_problem(platform: str, entry) -> str | None:
    """Why an entry is no price of that platform (None when it is one)."""
    if platform not in PRICED_PLATFORMS:
        return f"is not one of {', '.join(PRICED_PLATFORMS)}"
    return problem(entry)


def same(old: dict, new: dict) -> bool:
    """Do two entries state the same prices (whatever their days and sources, and their modes' sources)?"""
    return (all(old.get(name) == new.get(name) for name in (*VALUES, "currency", "tiers"))
            and _mode_prices(old) == _mode_prices(new))


def _mode_prices(entry: dict) -> dict:
    return {name: {key: value for key, value in mode.items() if key != "source"}
            for name, mode in (entry.get("modes") or {}).items() if isinstance(mode, dict)}


def held(old: dict, new: dict) -> str | None:
    """Why a new entry is held instead of served (a jump of JUMP times or more, or a fall to zero, of any price the
    old one states), or None."""
    for name in VALUES:
        was, now = old.get(name), new.get(name)
        if not was or now is None:
            continue
        if now == 0:
            return f"{name} falls from {was} to 0"
        if now >= was * JUMP or now * JUMP <= was:
            return f"{name} moves from {was} to {now}, {JUMP} times or more"
    return None


PRICED_PLATFORMS = ALIAS_SOURCES   # the provider's API and the platforms that sell calls; the hub sells nothing

"""The rules that make an upgrade sound, one function each (docs/api-decisions.md#upgrade).

An upgrade the registry infers (the newest working model of a family) must pass every rule in
INFERRED_RULES. A replacement the provider named (a successor link) is the provider's word and
only has to keep the kind of model (LINK_RULES). The audit (registry audit) reports every
recommendation that breaks a rule, by rule.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .normalize import normalize, pins

WORKING = ("active", "latest")
# Code models answer through the same chat interface: a provider may name a general chat model as
# the replacement of its code model (Devstral -> Mistral Medium), and the reverse.
COMPATIBLE_TYPES = {frozenset({"code", "chat"})}
# Words that name a tier of a product line: an inferred upgrade keeps the same ones.
TIER_WORDS = frozenset({"nano", "micro", "mini", "lite", "flash", "haiku", "sonnet", "opus", "pro", "small",
                        "medium", "large", "max", "ultra"})
# Size classes of open weights, by total parameters: an inferred upgrade is in the same or a larger one.
SIZE_CLASS_BOUNDS = (3e9, 10e9, 20e9, 50e9, 150e9, 500e9)
_WORDS = re.compile(r"[a-z]+")


def working(model) -> bool:
    """Active or latest: a model a team can still call."""
    return model["status"] in WORKING


def pinned(model) -> bool:
    """Is this a dated snapshot (gpt-4o-2024-08-06, mistral-small-2409, gemini-1.5-pro-001)?"""
    return _pinned_slug(model["slug"])


@lru_cache(maxsize=8192)
def _pinned_slug(slug: str) -> bool:
    return bool(pins(normalize(slug)))


def size_class(parameter_count) -> int | None:
    """The size class of a parameter count (0 smallest), or None when unknown."""
    if not parameter_count:
        return None
    return sum(parameter_count >= bound for bound in SIZE_CLASS_BOUNDS)


def tiers(model) -> frozenset:
    """The tier words in a model's slug."""
    return frozenset(_WORDS.findall(model["slug"])) & TIER_WORDS


def same_type(current, upgrade) -> str | None:
    """Both have a model_type, and it is the same (or code and chat, for a named replacement)."""
    a, b = current["model_type"], upgrade["model_type"]
    if not a or not b:
        return "model_type unknown"
    if a != b and frozenset({a, b}) not in COMPATIBLE_TYPES:
        return f"crosses types ({a} -> {b})"
    return None


def strictly_same_type(current, upgrade) -> str | None:
    """Both have a known model_type, and it is the same."""
    if current["model_type"] in (None, "unknown") or upgrade["model_type"] in (None, "unknown"):
        return "model_type unknown"
    if current["model_type"] != upgrade["model_type"]:
        return f"crosses types ({current['model_type']} -> {upgrade['model_type']})"
    return None


def released_after(current, upgrade) -> str | None:
    """Both have a release date, and the upgrade's is later."""
    if not current["release_date"] or not upgrade["release_date"]:
        return "release date unknown"
    if upgrade["release_date"] <= current["release_date"]:
        return f"not newer ({upgrade['release_date']} <= {current['release_date']})"
    return None


def pinned_stays_pinned(current, upgrade) -> str | None:
    """A dated snapshot goes to a dated snapshot; a floating id never to a snapshot of itself."""
    if pinned(current) and not pinned(upgrade):
        return "a dated snapshot would move to a floating id"
    own_snapshot = normalize(upgrade["slug"]).startswith(normalize(current["slug"]) + "-")
    if not pinned(current) and pinned(upgrade) and own_snapshot:
        return "a floating id would move to a snapshot of itself"
    return None


def same_tier(current, upgrade) -> str | None:
    """The same tier words (mini stays mini, flash stays flash, haiku stays haiku)."""
    if tiers(current) != tiers(upgrade):
        return f"changes tier ({'/'.join(sorted(tiers(current))) or '-'} -> {'/'.join(sorted(tiers(upgrade))) or '-'})"
    return None


def not_smaller(current, upgrade) -> str | None:
    """For open weights, the same or a larger size class."""
    a, b = size_class(current["parameter_count"]), size_class(upgrade["parameter_count"])
    if a is not None and b is not None and b < a:
        return f"smaller ({upgrade['parameter_label'] or upgrade['parameter_count']} < " \
               f"{current['parameter_label'] or current['parameter_count']})"
    return None


def not_catch_all(current, upgrade) -> str | None:
    """Never into a catch-all family."""
    if upgrade["family_slug"].endswith("-uncategorized"):
        return "into a catch-all family"
    return None


# Cheapest first: is_sound() stops at the first broken rule.
INFERRED_RULES = (strictly_same_type, released_after, not_catch_all, not_smaller, same_tier, pinned_stays_pinned)
LINK_RULES = (same_type, not_catch_all)


def broken_rules(current, upgrade, rules) -> list[str]:
    """What makes upgrade unsound for current, by the given rules (empty: sound)."""
    return [why for why in (rule(current, upgrade) for rule in rules) if why]


def is_sound(current, upgrade, rules) -> bool:
    """Does upgrade break none of the rules for current (stops at the first broken one)?"""
    return not any(rule(current, upgrade) for rule in rules)

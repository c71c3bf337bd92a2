"""What makes a model a fit upgrade for another, one rule a function (docs/lifecycle.md#the-upgrade).

A fit is a working model (the caller checks that, in its platform's view) that breaks none of
FIT_RULES measured against the model it replaces. A replacement the provider named (a successor
link) is the provider's word and only has to keep the kind of model (LINK_RULES); a line the
provider named as a line's successor is too, so a fit there need not keep the tier words
(LINE_RULES). `registry audit` reports every stored upgrade that breaks a rule, by rule.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .status import Member

# Code models answer through the same chat interface: a provider may name a general chat model as
# the replacement of its code model (Devstral -> Mistral Medium), and the reverse.
COMPATIBLE_TYPES = {frozenset({"code", "chat"})}
# Words that name a tier of a product line: a fit keeps the same ones.
TIER_WORDS = frozenset({"nano", "micro", "mini", "lite", "flash", "haiku", "sonnet", "opus", "pro", "small",
                        "medium", "large", "max", "ultra"})
# Words of an id that name a preview or experimental release (`gemini-3.1-pro-preview`, `gemini-exp-1206`).
PREVIEW_WORDS = frozenset({"preview", "exp", "experimental"})
# Size classes of open weights, by total parameters: a fit is in the same or a larger one.
SIZE_CLASS_BOUNDS = (3e9, 10e9, 20e9, 50e9, 150e9, 500e9)
_WORDS = re.compile(r"[a-z]+")


def size_class(parameter_count) -> int | None:
    """The size class of a parameter count (0 smallest), or None when unknown."""
    if not parameter_count:
        return None
    return sum(parameter_count >= bound for bound in SIZE_CLASS_BOUNDS)


@lru_cache(maxsize=1 << 17)   # asked for every candidate a decision weighs: once per slug instead
def tiers(slug: str) -> frozenset:
    """The tier words in a model's slug."""
    return frozenset(_WORDS.findall(slug)) & TIER_WORDS


def is_preview(slug: str, stated: bool | None = None) -> bool:
    """Is a model a preview or experimental release: as a source states it (a curated `preview`), else as its id
    says (a preview word)?"""
    return bool(stated) if stated is not None else bool(frozenset(re.split(r"[^a-z0-9]+", slug)) & PREVIEW_WORDS)


def same_kind(current: Member, upgrade: Member) -> str | None:
    """Both have a model_type, and it is the same (or code and chat, for a provider's word)."""
    a, b = current.model_type, upgrade.model_type
    if not a or not b:
        return "model_type unknown"
    if a != b and frozenset({a, b}) not in COMPATIBLE_TYPES:
        return f"crosses types ({a} -> {b})"
    return None


def strictly_same_type(current: Member, upgrade: Member) -> str | None:
    """Both have a known model_type, and it is the same."""
    if current.model_type in (None, "unknown") or upgrade.model_type in (None, "unknown"):
        return "model_type unknown"
    if current.model_type != upgrade.model_type:
        return f"crosses types ({current.model_type} -> {upgrade.model_type})"
    return None


def released_after(current: Member, upgrade: Member) -> str | None:
    """Both have a release date, and the upgrade's is later."""
    if not current.release_date or not upgrade.release_date:
        return "release date unknown"
    if upgrade.release_date <= current.release_date:
        return f"not newer ({upgrade.release_date} <= {current.release_date})"
    return None


def same_tier(current: Member, upgrade: Member) -> str | None:
    """The same tier: a product line is one tier (docs/curating.md), so a model of the same family keeps it
    whatever its id says (`text-embedding-ada-002` -> `text-embedding-3-small`); across lines, the same tier words
    (mini stays mini, flash stays flash, haiku stays haiku)."""
    if current.family_id == upgrade.family_id:
        return None
    a, b = tiers(current.slug), tiers(upgrade.slug)
    if a != b:
        return f"changes tier ({'/'.join(sorted(a)) or '-'} -> {'/'.join(sorted(b)) or '-'})"
    return None


def not_smaller(current: Member, upgrade: Member) -> str | None:
    """For open weights, the same or a larger size class."""
    a, b = size_class(current.parameter_count), size_class(upgrade.parameter_count)
    if a is not None and b is not None and b < a:
        return f"smaller ({upgrade.parameter_count} < {current.parameter_count} parameters)"
    return None


def not_own_snapshot(current: Member, upgrade: Member) -> str | None:
    """A floating id never moves to a snapshot of itself (the one it points at, or one of its dated ids)."""
    if upgrade.id == current.points_to_id:
        return "a floating id would move to the snapshot it points at"
    if not current.pinned and upgrade.pinned and upgrade.key.startswith(current.key + "-"):
        return "a floating id would move to a snapshot of itself"
    return None


def keeps_modalities(current: Member, upgrade: Member) -> str | None:
    """It reads and writes at least what the model it replaces does (a vision model is not sent to a text-only one),
    where a source states both; a provider's named replacement may still change them (LINK_RULES)."""
    for what, a, b in (("reads", current.input_modalities, upgrade.input_modalities),
                       ("writes", current.output_modalities, upgrade.output_modalities)):
        if a is not None and b is not None and not a <= b:
            return f"{what} less ({'+'.join(sorted(a - b))} lost)"
    return None


def dated(current: Member, upgrade: Member) -> str | None:
    """The upgrade has a release date, and no lower version number where both are numbers (stands in for
    released_after when the model has no day: no day says which is newer, but Rerank v4.0 is no upgrade of an
    undated v5.0)."""
    if not upgrade.release_date:
        return "release date unknown"
    a, b = _number(current.version), _number(upgrade.version)
    if a is not None and b is not None and b < a:
        return f"a lower version ({upgrade.version} < {current.version})"
    return None


_VERSION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})?")   # "5.0", "2", "3.5"; not a stamp such as "0827", "2411"


def _number(version: str | None) -> float | None:
    """A version that is a plain number ("5.0", "2"), else None (a date stamp, a word)."""
    return float(version) if version and _VERSION_NUMBER.fullmatch(version) else None


# Cheapest first: fits() stops at the first broken rule.
FIT_RULES = (strictly_same_type, released_after, same_tier, not_smaller, not_own_snapshot, keeps_modalities)
LINE_RULES = (same_kind, released_after, not_smaller, not_own_snapshot, keeps_modalities)
LINK_RULES = (same_kind,)


def undated(rules: tuple) -> tuple:
    """The rules for a retiring model with no release date: `dated` in place of `released_after`."""
    return tuple(dated if rule is released_after else rule for rule in rules)


def broken_rules(current: Member, upgrade: Member, rules=FIT_RULES) -> list[str]:
    """What makes upgrade unfit for current, by the given rules (empty: a fit)."""
    return [why for why in (rule(current, upgrade) for rule in rules) if why]


def fits(current: Member, upgrade: Member, rules=FIT_RULES) -> bool:
    """Does upgrade break none of the rules for current (stops at the first broken one)?"""
    return not any(rule(current, upgrade) for rule in rules)

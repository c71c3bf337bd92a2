"""Why an upgrade: its basis, who named a replacement, and what the move keeps or changes (docs/lifecycle.md#why).

The basis is decided with the upgrade (registry/lifecycle/upgrade.py BASES) and stored on its platform lifecycle
row; what the move changes is read from the two models' rows when an answer is written, so it always says what
the registry holds today.
"""
from __future__ import annotations

import json

from ..fields import SOURCE_URLS
from ..lifecycle.fit import tiers

# The words of each basis, for pages and Markdown (the API gives the basis itself).
BASIS_TEXT = {
    "replacement": "the provider named it as the replacement",
    "line": "the newest working model of the same line",
    "successor-line": "the newest working model of the line the provider moved to",
    "platform": "the newest fitting model this platform serves (it serves none of the line)",
}


def named_by(lifecycle_row) -> dict | None:
    """Who named the replacement a `replacement` basis follows: {source, url} (url: the page that names it, as
    curated (`successor_url`) or as the platform's schedule gives it, else the source's own address; None where
    neither is known), or None for another basis."""
    if lifecycle_row["upgrade_basis"] != "replacement":
        return None
    sources = json.loads(lifecycle_row["sources"]) if lifecycle_row["sources"] else {}
    source = sources.get("successor")
    return {"source": source, "url": sources.get("successor_url") or SOURCE_URLS.get(source)} if source else None


def _capabilities(row) -> dict:
    try:
        return json.loads(row["capabilities"]) if row["capabilities"] else {}
    except (KeyError, IndexError, ValueError):
        return {}


def _price(row, platform: str | None) -> dict:
    try:
        stated = json.loads(row["metadata"]).get("prices") if row["metadata"] else None
    except (KeyError, IndexError, ValueError):
        return {}
    return ((stated or {}).get(platform) or {}) if platform else {}


def move(current, upgrade, platform: str | None = None) -> dict:
    """What the move from current to upgrade (two model rows) keeps and changes: {keeps: [...], changes: {what:
    {from, to}}}, over the kind of model, its tier, what it reads and writes, its context, its open weights, and
    its price per 1M tokens in and out on the caller's platform; a value the registry does not know on either
    side is neither kept nor changed."""
    had, has = _capabilities(current), _capabilities(upgrade)
    costs, will_cost = _price(current, platform), _price(upgrade, platform)
    same_money = costs.get("currency") == will_cost.get("currency")
    sides = {
        "model_type": (current["model_type"], upgrade["model_type"]),
        "tier": (" ".join(sorted(tiers(current["slug"]))) or None, " ".join(sorted(tiers(upgrade["slug"]))) or None),
        "input_modalities": (had.get("input_modalities"), has.get("input_modalities")),
        "output_modalities": (had.get("output_modalities"), has.get("output_modalities")),
        "input_context_window": (current["input_context_window"], upgrade["input_context_window"]),
        "open_weights": (bool(current["is_open_source"]), bool(upgrade["is_open_source"])),
        **{name: (costs.get(name), will_cost.get(name)) if same_money else (None, None)
           for name in ("input_per_mtok", "output_per_mtok")},
    }
    keeps, changes = [], {}
    for what, (before, after) in sides.items():
        if what == "tier" and before is None and after is None:
            keeps.append(what)
        elif before is None or after is None:
            continue
        elif before == after:
            keeps.append(what)
        else:
            changes[what] = {"from": before, "to": after}
    return {"keeps": keeps, "changes": changes}


def why(row, upgrade, lifecycle) -> dict:
    """Why a model's upgrade (docs/lifecycle.md#why): the basis decided with it, who named a replacement, and
    what the move keeps and changes; row and upgrade are model rows, lifecycle the platform row it was read from."""
    basis = lifecycle["upgrade_basis"] if "upgrade_basis" in lifecycle.keys() else None
    platform = lifecycle["platform"] if "platform" in lifecycle.keys() else None
    return {"basis": basis, "named_by": named_by(lifecycle) if basis else None, **move(row, upgrade, platform)}

"""The words the registry says about a change and a lifecycle day, in one module: the API's change
objects, the feeds (Atom, JSON Feed), webhooks, the calendar and the pages all word through it, so
rewording an Atom title is an edit here and nothing stored keeps old words
(docs/api-decisions.md#change-history). The change history stores what changed, as data
(merge/changes.py); the words are made when it is read.
"""
from .fields import PLATFORM_NAMES, RETIRING

# What a lifecycle day means, by the change kind that announces it (the calendar's events).
DAY_MEANINGS = {"deprecation_announced": "deprecated", "shutdown_scheduled": "shuts down"}


def _label(field: str) -> str:
    return field.replace("_", " ")


def _value(value) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _move(upgrade: str | None) -> str:
    return f"; move to {upgrade}" if upgrade else ""


def _was(old) -> str:
    return f" (was {old})" if old else ""


def _shown(value) -> str:
    return "none" if value is None else str(value)


def money(value, currency: str | None = "USD") -> str:
    """An amount as a person writes it: "$3", "$0.125", "EUR 2"."""
    return ("$" if currency == "USD" else f"{currency or ''} ") + f"{value:g}"


def capability_name(name: str) -> str:
    """A capability's name as a row's label: "Structured output"."""
    return _label(name).capitalize()


def capability(value) -> str | None:
    """A capability's value in words: "yes"/"no", a cutoff as written, a list joined ("text, image"); None unknown."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return ", ".join(value)


def price(entry) -> str:
    """A price entry in words: "$3 in / $15 out per 1M tokens" (or per request, per image)."""
    if not isinstance(entry, dict):
        return "none"
    currency = entry.get("currency")
    parts = []
    if entry.get("input_per_mtok") is not None or entry.get("output_per_mtok") is not None:
        parts.append(" / ".join(f"{money(entry[k], currency)} {word}" for k, word in (("input_per_mtok", "in"),
                                                                                    ("output_per_mtok", "out"))
                                if entry.get(k) is not None) + " per 1M tokens")
    for key, unit in (("per_request", "request"), ("per_image", "image")):
        if entry.get(key) is not None:
            parts.append(f"{money(entry[key], currency)} per {unit}")
    return ", ".join(parts) or "none"


def mode_prices(entry) -> dict:
    """Each mode of a price entry in words, by name: {"batch": "batch mode: $1.5 in / $7.5 out per 1M tokens"}."""
    return {name: f"{name} mode: {words}" for name, words in _modes_alone(entry).items()}


def _price_title(slug: str, platform: str, old, new) -> str:
    where = PLATFORM_NAMES.get(platform, platform)
    if old is None:
        return f"{slug}: priced on {where} at {price(new)}"
    if new is None:
        return f"{slug}: no longer priced on {where} (was {price(old)})"
    before, after = price(old), price(new)
    if before != after:
        return f"{slug}: price on {where} changed from {before} to {after}"
    # The price stands: say which of its services (batch, priority, ...) moved, else that its other prices did.
    was, now = _modes_alone(old), _modes_alone(new)
    moved = [_mode_move(name, was.get(name), now.get(name)) for name in sorted(was.keys() | now.keys())
             if was.get(name) != now.get(name)]
    if moved:
        return f"{slug}: on {where}, " + "; ".join(moved)
    return f"{slug}: cached input or long-prompt prices on {where} changed ({after})"


def _modes_alone(entry: dict) -> dict:
    """Each mode's price of an entry in words, by name ("$1.5 in / $7.5 out per 1M tokens")."""
    modes = entry.get("modes") if isinstance(entry, dict) else None
    return {name: price({**values, "currency": entry.get("currency")})
            for name, values in (modes or {}).items() if isinstance(values, dict)}


def _mode_move(name: str, was: str | None, now: str | None) -> str:
    if was is None:
        return f"{name} priced at {now}"
    if now is None:
        return f"{name} no longer priced (was {was})"
    return f"{name} price changed from {was} to {now}"


def title(change: dict) -> str:
    """The line a person would write: "gpt-4o: shutdown scheduled for 2027-01-14; move to gpt-5".

    change: a Change object's fields (kind, model_slug, family_slug, field, old, new, source,
    upgrade_slug). A row recorded before changes were stored as data only (schema version 11) also
    has the title it stored: that is its words when its fields cannot be worded.
    """
    slug, kind, old, new = change["model_slug"], change["kind"], change["old"], change["new"]
    move = _move(change.get("upgrade_slug"))   # recorded only where the change retires the model
    if kind == "model_added":
        return f"{slug}: added (listed by {change['source']})"
    if kind == "model_removed":
        return f"{slug}: no longer listed by any source"
    if kind == "deprecation_announced":
        return f"{slug}: deprecation announced for {new}{move}"
    if kind == "shutdown_scheduled":
        return f"{slug}: shutdown scheduled for {new}{_was(old)}{move}"
    if kind == "status_changed":
        return f"{slug}: now {new} (was {old}){move if new in RETIRING else ''}"
    if kind == "alias_added":
        return f"{slug}: new identifier {new}"
    if kind == "alias_removed":
        return f"{slug}: identifier {old} no longer listed"
    if kind == "latest_changed":
        return f"{change['family_slug']}: latest is now {new}{_was(old)}" if new else \
            f"{change['family_slug']}: no working model left (latest was {old})"
    if kind != "field_changed" or not change["field"]:
        return change.get("title") or f"{slug}: {_label(kind)}"
    if change["field"].startswith("prices."):
        return _price_title(slug, change["field"].split(".", 1)[1], old, new)
    if old is None:
        return f"{slug}: {_label(change['field'])} set to {_value(new)}"
    if new is None:
        return f"{slug}: {_label(change['field'])} removed (was {_value(old)})"
    return f"{slug}: {_label(change['field'])} changed from {_value(old)} to {_value(new)}"


def summary(change: dict) -> str:
    """The text under a change's title: old and new values, whose value it is, the upgrade."""
    lines = []
    if change["field"] is not None:
        lines.append(f"{change['field']}: {_shown(change['old'])} -> {_shown(change['new'])}")
    lines.append(f"source: {change['source']}")
    if change["upgrade_slug"]:
        lines.append(f"recommended upgrade: {change['upgrade_slug']}")
    return "\n".join(lines)


def countdown(days: int | None, day: str | None) -> str:
    """A shutdown day seen from today, worded the same on the pages, in webhooks and in calendar alarms:
    "shuts down in 12 days (2027-01-01)", "shuts down today (...)", "shut down on 2026-01-01 (3 days ago)"."""
    if days is None:
        return ""
    if days > 0:
        return f"shuts down in {days} day{'s' if days != 1 else ''} ({day})"
    if days == 0:
        return f"shuts down today ({day})"
    return f"shut down on {day} ({-days} day{'s' if days != -1 else ''} ago)"


def shutdown_upcoming(name: str, left: int, day: str, upgrade: str | None) -> str:
    """A webhook's title for a shutdown within its threshold: "gpt-4o: shuts down in 30 days (...)"."""
    return f"{name}: {countdown(left, day)}{_move(upgrade)}"


def day_summary(label: str, kind: str, upgrade: str | None) -> str:
    """A calendar event's summary: "gpt-4o shuts down; move to gpt-5"."""
    return f"{label} {DAY_MEANINGS[kind]}{_move(upgrade)}"


def day_description(model: str, provider: str, kind: str, day: str, upgrade: str | None,
                    source: str | None, url: str) -> str:
    """A calendar event's description: what happens that day, where to move, whose date it is, the model's URL."""
    lines = [f"{model} ({provider}) {DAY_MEANINGS[kind]} on {day}.",
             f"Move to: {upgrade}." if upgrade else "No sound upgrade is known.",
             f"Source: {source}." if source else None, url]
    return "\n".join(line for line in lines if line)


def day_alarm(label: str, days: int, day: str) -> str:
    """A calendar alarm's text, days before a shutdown."""
    return f"{label} {countdown(days, day)}"

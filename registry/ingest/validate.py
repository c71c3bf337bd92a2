"""Every value an upstream sends passes here once, before it becomes a fact (docs/threat-model.md#upstreams).

A source's parse() checks the upstream's shape (a list where a list belongs); this checks what the values
may be, the same for every source: each field has a kind (an id, a name, free text, a date, a count, a
URL, a flag, a list of ids, a platform's schedule, or metadata), and each kind one rule. A value is
either cleaned (control and invisible characters taken out, whitespace folded) or refused: dropped, so
the merge reads "this source does not say", and listed with why in the run's details. A record whose
own id is no identifier is refused whole. Nothing an upstream sends is trusted to be small, well-formed
or in its place; its lane is match.py's check, after this one.
"""
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date

from ..fields import (ALIAS_SOURCES, BY_NAME, COUNT_RANGES, DATE_WINDOW, ID_PATTERN, KNOWLEDGE_CUTOFF, MAX_ID,
                     MAX_NAME, MAX_TEXT, MODEL_TYPES, PLATFORMS, REASONING_EFFORTS)
from .. import pricing
from ..text import one_line, without_controls
from ..url_policy import problem as url_problem

_ID = re.compile(ID_PATTERN)
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_PROVIDER = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
MAX_ALIASES = 100      # ids one record may give its model (Mistral's cards give a handful)
MAX_ITEMS = 500        # items of a metadata list (a hub repo's tags: a few dozen)
MAX_KEYS = 200         # keys of a metadata object (Anthropic's capabilities: a few dozen)
MAX_DEPTH = 6          # nesting of a metadata value
MAX_NUMBER = 2**53     # beyond this a JSON number is not exact in every reader
SHOWN = 60             # characters of a refused value quoted in the run's details


class Refused(ValueError):
    """A value this kind does not take; the message says why, for the run's details."""


def _id(value) -> str:
    if not isinstance(value, str) or not value:
        raise Refused("is not an identifier (not a string)")
    if len(value) > MAX_ID:
        raise Refused(f"is not an identifier (longer than {MAX_ID} characters)")
    if not _ID.fullmatch(value):
        raise Refused("is not an identifier (letters, digits and . _ : / @ + - only)")
    return value


def identifier(value) -> str:
    """value when it is an identifier the ingest would store, else Refused saying why (scan's remote answers too)."""
    return _id(value)


def day(value) -> str:
    """value when it is a day the ingest would store (YYYY-MM-DD, in DATE_WINDOW), else Refused."""
    return _date(value)


def display_name(value) -> str:
    """value as a name the ingest would store (one line, no control characters), else Refused."""
    return _name(value)


def _name(value) -> str:
    if type(value) is not str:
        raise Refused("is not text")
    cleaned = one_line(value)
    if len(cleaned) > MAX_NAME:
        raise Refused(f"is longer than {MAX_NAME} characters")
    return cleaned


def _text(value) -> str:
    if not isinstance(value, str):
        raise Refused("is not text")
    cleaned = without_controls(value.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if len(cleaned) > MAX_TEXT:
        raise Refused(f"is longer than {MAX_TEXT} characters")
    return cleaned


def _date(value) -> str:
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        raise Refused("is not a date (YYYY-MM-DD)")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise Refused("is not a real date") from None
    if not DATE_WINDOW[0] <= value <= DATE_WINDOW[1]:
        raise Refused(f"is outside {DATE_WINDOW[0]}..{DATE_WINDOW[1]}")
    return value


def _timestamp(value) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", value):
        raise Refused("is not a UTC timestamp")
    _date(value[:10])
    return value


def _count(name: str):
    low, high = COUNT_RANGES[name]

    def check(value) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refused("is not a whole number")
        if not low <= value <= high:
            raise Refused(f"is outside {low}..{high:,}")
        return value
    return check


def _url(value) -> str:
    why = url_problem(value)
    if why:
        raise Refused(f"is not a link the registry keeps: it {why}")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise Refused("is not true or false")
    return value


def _month(value) -> str:
    """A knowledge cutoff: YYYY-MM, or a day (fields.KNOWLEDGE_CUTOFF), within DATE_WINDOW."""
    if not isinstance(value, str) or not KNOWLEDGE_CUTOFF.fullmatch(value):
        raise Refused("is not a month (YYYY-MM) or a day")
    return _date(value) if len(value) > 7 else _date(value + "-01")[:7]


def _efforts(value) -> list:
    """Reasoning efforts: the words of fields.REASONING_EFFORTS the list holds, in that order; none known refused."""
    if not isinstance(value, list):
        raise Refused("is not a list of reasoning efforts")
    known = [effort for effort in REASONING_EFFORTS if effort in value]
    if not known:
        raise Refused(f"names none of {', '.join(REASONING_EFFORTS)}")
    return known


def _one_of(choices):
    def check(value):
        if value not in choices:
            raise Refused(f"is not one of {', '.join(choices)}")
        return value
    return check


# What a platform's own schedule may hold (docs/lifecycle.md#platforms), from the feed.
def _platform_status(value) -> str:
    if value not in ("deprecated", "sunset"):
        raise Refused("is not a platform's status (deprecated or sunset)")
    return value


# A platform's schedule of a model (metadata.platforms): its days, its own word on the status, and from its own
# catalog whether it states the lifecycle of its own copy (listed: Bedrock's modelLifecycle) and calls it a preview
# (docs/lifecycle.md#platform-catalogs).
SCHEDULE = {"deprecation_date": _date, "sunset_date": _date, "deprecation_url": _url, "status": _platform_status,
            "listed": _flag, "preview": _flag}
SCHEDULED = PLATFORMS[1:]   # the provider's own API is the model's own fields


def _metadata(value, depth: int = 0):
    """What a source says beyond the spec's fields (tags, capabilities): bounded JSON, text cleaned.

    Strings first and by type: a hub listing of 50k repos brings some 800k of them (their tags).
    """
    kind = type(value)
    if kind is str:
        return _text(value) if depth == 0 else _name(value)
    if depth > MAX_DEPTH:
        raise Refused(f"is nested deeper than {MAX_DEPTH}")
    if kind is list:
        if len(value) > MAX_ITEMS:
            raise Refused(f"holds more than {MAX_ITEMS} items")
        return [_name(item) if type(item) is str else _metadata(item, depth + 1) for item in value]
    if kind is dict:
        if len(value) > MAX_KEYS:
            raise Refused(f"holds more than {MAX_KEYS} keys")
        return {_name(key): _metadata(item, depth + 1) for key, item in value.items()}
    if value is None or kind is bool:
        return value
    if kind is int:
        if abs(value) > MAX_NUMBER:
            raise Refused("holds a number too large to keep exactly")
        return value
    if kind is float:
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise Refused("holds a number that is not finite or too large")
        return value
    raise Refused(f"is not JSON ({type(value).__name__})")


# Each field's rule: from its kind in registry/fields.py, plus the fields only sources state.
# (A modality list is metadata here: registry/merge/capabilities.py keeps only the words it knows.)
_BY_KIND = {"text": _name, "version": _name, "date": _date, "url": _url, "model_slug": _id,
            "model_type": _one_of(MODEL_TYPES), "flag": _flag, "month": _month, "efforts": _efforts}
RULES = {f.name: _count(f.name) if f.kind == "count" else _BY_KIND[f.kind]
         for f in BY_NAME.values() if f.kind == "count" or f.kind in _BY_KIND}
RULES.update({"hub_id": _id, "base_model_id": _id, "deprecation_url": _url, "created": _timestamp,
              "deprecated": _flag, "retired": _flag, "description": _text})
# Never an upstream's to state: the lifecycle pins and links curation alone sets.
CURATION_ONLY = {"status", "family", "points_to", "provider"}


def _shown(value) -> str:
    """A value as the run's details quote it: repr (controls escaped), at most SHOWN characters of it."""
    if not isinstance(value, str):
        text = repr(value)
        return text[:SHOWN] + "..." if len(text) > SHOWN else text
    return repr(value[:SHOWN] + "...") if len(value) > SHOWN else repr(value)


@dataclass
class Checked:
    """What the check let through, and what it refused or cleaned (for the run's details)."""

    records: list = field(default_factory=list)
    refused: list = field(default_factory=list)          # one line per refused record, value or alias
    refused_records: Counter = field(default_factory=Counter)
    refused_values: Counter = field(default_factory=Counter)
    cleaned: Counter = field(default_factory=Counter)

    def refuse(self, label: str, name: str, value, why: str) -> None:
        """Record one refused value (name: the field, or 'alias')."""
        self.refused.append(f"{label}: {name} {_shown(value)} {why}")
        self.refused_values[f"{name} {re.sub(r' [(].*', '', why)}"] += 1

    def details(self) -> dict:
        """The details a run adds for these (refused_values, cleaned), empty when nothing happened."""
        out = {}
        if self.refused_values:
            out["refused_values"] = dict(sorted(self.refused_values.items()))
        if self.cleaned:
            out["cleaned"] = dict(sorted(self.cleaned.items()))
        return out


def check(records) -> Checked:
    """Every record's id, aliases and fields checked by the rule of their kind (see the module's doc)."""
    checked = Checked()
    for record in records:
        if record.skip:   # says nothing; its reason is shown (an upstream's provider name may be in it)
            checked.records.append(replace(record, skip=one_line(record.skip)[:100] or "skipped"))
            continue
        label = f"{record.provider or 'platform'}/{_shown(record.model_id)[1:-1]}"
        try:
            _id(record.model_id)
        except Refused as exc:
            checked.refused.append(f"{label}: the record is refused: its id {_shown(record.model_id)} {exc}")
            checked.refused_records["refused: its id is not an identifier"] += 1
            continue
        if record.provider is not None and not _PROVIDER.fullmatch(str(record.provider)):
            checked.refused.append(f"{label}: the record is refused: {_shown(record.provider)} is no provider slug")
            checked.refused_records["refused: no provider slug"] += 1
            continue
        checked.records.append(replace(record, fields=_fields(record.fields, label, checked),
                                       aliases=_aliases(record.aliases, label, checked),
                                       links=_ids(record.links, label, "link", checked) if record.links else []))
    return checked


def _aliases(aliases, label: str, checked: Checked) -> list:
    kept = []
    for alias, alias_source in aliases:
        try:
            _id(alias)
            _one_of(ALIAS_SOURCES)(alias_source)
        except Refused as exc:
            checked.refuse(label, "alias", alias, str(exc))
            continue
        if len(kept) >= MAX_ALIASES:
            checked.refuse(label, "alias", alias, f"is past the {MAX_ALIASES} ids one record may give")
            continue
        if (alias, alias_source) not in kept:
            kept.append((alias, alias_source))
    return kept


def _fields(fields: dict, label: str, checked: Checked) -> dict:
    kept = {}
    for name, value in fields.items():
        if name in CURATION_ONLY:
            checked.refuse(label, name, value, "is curation's to state, not an upstream's")
            continue
        if value is None:
            continue
        try:
            if name == "platforms":   # these three refuse their parts one by one
                cleaned = _platforms(value, label, checked)
            elif name == "prices":
                cleaned = _prices(value, label, checked)
            elif name == "replacement_models":
                cleaned = _ids(value, label, name, checked)
            else:
                cleaned = RULES.get(name, _metadata)(value)
                if cleaned != value:
                    checked.cleaned[f"{name}: control or invisible characters removed, whitespace folded"] += 1
        except Refused as exc:
            checked.refuse(label, name, value, str(exc))
            continue
        if cleaned not in ("", [], {}):
            kept[name] = cleaned
    return kept


def _ids(value, label: str, name: str, checked: Checked) -> list:
    if not isinstance(value, list) or len(value) > MAX_ALIASES:
        raise Refused(f"is not a list of at most {MAX_ALIASES} identifiers")
    kept = []
    for item in value:
        try:
            kept.append(_id(item))
        except Refused as exc:
            checked.refuse(label, name, item, str(exc))
    return kept


def _prices(value, label: str, checked: Checked) -> dict:
    """A source's prices of a model, platform by platform (registry/pricing.py): an entry that is no price is
    refused whole, the others kept."""
    if not isinstance(value, dict):
        raise Refused("is not a model's prices by platform")
    kept = {}
    for platform, entry in value.items():
        why = pricing.platform_problem(platform, entry)
        if why:
            checked.refuse(label, f"prices.{platform}", entry, why)
        else:
            kept[platform] = entry
    return kept


def _platforms(value, label: str, checked: Checked) -> dict:
    if not isinstance(value, dict):
        raise Refused("is not a platform's schedule")
    kept = {}
    for platform, schedule in value.items():
        if platform not in SCHEDULED or not isinstance(schedule, dict):
            checked.refuse(label, "platforms", platform, f"is not one of {', '.join(SCHEDULED)} with a schedule")
            continue
        entry = {}
        for key, item in schedule.items():
            rule = SCHEDULE.get(key)
            try:
                if rule is None:
                    raise Refused("is not part of a platform's schedule")
                if item is not None:
                    entry[key] = rule(item)
            except Refused as exc:
                checked.refuse(label, f"platforms.{platform}.{key}", item, str(exc))
        if entry:
            kept[platform] = entry
    return kept

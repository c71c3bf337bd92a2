"""What a remote registry's answer may hold before a scan reports or writes it (docs/scan.md#registry).

`registry scan --registry URL --fix` writes the upgrade id a service sends into the caller's source code, so a
hostile or broken service is an upstream like any other (docs/threat-model.md#upstreams): every id passes the
rule ingest applies to identifiers (letters, digits and `. _ : / @ + -`, bounded; a quote or a newline never
passes), every name is cleaned to one line without control characters before a terminal sees it, every status
is one of the registry's, every day an ISO day. An answer with an id, a status or a confidence no registry
would send is refused whole: the scan treats that string as unknown.
"""
from __future__ import annotations

from ..fields import STATUSES
from ..ingest.validate import Refused, display_name, identifier
from ..ingest.validate import day as stored_day

__all__ = ["Refused", "identifier", "day", "trusted"]
MAX_NOTE = 500   # characters of an upgrade note shown beside a finding


def day(value) -> str | None:
    """A day as ingest would store it (validate.day), or None (absent); anything else is Refused."""
    return None if value is None else stored_day(value)


def _model(value, required: bool) -> dict | None:
    if value is None and not required:
        return None
    if not isinstance(value, dict) or value.get("status") not in STATUSES:
        raise Refused("is not a model with a known status")
    return {**value, "slug": identifier(value.get("slug")), "status": value["status"],
            "display_name": display_name(value.get("display_name", value.get("slug")))}


def _alias(value) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Refused("is not an alias")
    alias = {**value, "alias": identifier(value.get("alias"))}
    if value.get("written") is not None:
        alias["written"] = identifier(value["written"])
    return alias


def trusted(answer) -> dict | None:
    """The resolve answer with every value a scan uses checked and cleaned, or None when one is refused."""
    try:
        if not isinstance(answer, dict):
            raise Refused("is not an object")
        confidence = answer.get("confidence")
        if type(confidence) not in (int, float) or not 0 <= confidence <= 1:
            raise Refused("has no confidence between 0 and 1")
        checked = {**answer, "matched_model": _model(answer.get("matched_model"), required=True),
                   "upgrade": _model(answer.get("upgrade"), required=False),
                   "upgrade_alias": _alias(answer.get("upgrade_alias"))}
        platform = answer.get("platform_lifecycle")
        if platform is not None:
            if not isinstance(platform, dict):
                raise Refused("has a platform lifecycle that is not an object")
            checked["platform_lifecycle"] = {**platform, "sunset_date": day(platform.get("sunset_date")),
                                             "deprecation_date": day(platform.get("deprecation_date"))}
        note = answer.get("upgrade_alias_note")
        checked["upgrade_alias_note"] = display_name(note)[:MAX_NOTE] if note is not None else None
        return checked
    except Refused:
        return None

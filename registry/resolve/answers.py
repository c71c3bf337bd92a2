"""The JSON shapes of resolve and upgrade answers: one copy for the API views, the scanner and MCP."""
from __future__ import annotations

from ..lifecycle import is_preview
from ..queries import catalog
from ..queries.basis import why
from . import Resolution


def resolve_answer(found: Resolution) -> dict:
    """What GET /resolve answers for a Resolution (docs/lifecycle.md#what-resolve-answers)."""
    row, upgrade, chosen, kept = found.model, found.upgrade, found.upgrade_alias, found.kept
    notes = found.notes + ([kept.note] if kept is not None and kept.note else [])
    return {
        "matched_model": {"slug": row["slug"], "display_name": row["display_name"], "status": found.status,
                          "family": row["family_slug"]},
        "matched_alias": {"alias": found.match.row.alias, "source": found.match.row.source},
        "confidence": found.match.confidence,
        "is_latest": found.status == "latest",
        "upgrade": None if upgrade is None else {**_model(upgrade), "why": why(row, upgrade, found.lifecycle)},
        "upgrade_alias": {"alias": chosen.alias, "source": chosen.source, "written": found.how.around(chosen.alias),
                          "listed": bool(chosen.listed)} if chosen else None,
        "upgrade_alias_kept": None if upgrade is None else bool(kept and kept.kept),
        "upgrade_alias_note": " ".join(notes) or None,
        "first_party_upgrade": None if found.first_party is None else _model(found.first_party),
        "platform_lifecycle": catalog.platform_dict(found.lifecycle),
    }


def _model(row) -> dict:
    """An upgrade as an answer names it: slug, name, status, and whether it is a preview release."""
    return {"slug": row["slug"], "display_name": row["display_name"], "status": row["status"],
            "preview": is_preview(row["slug"], catalog.metadata_of(row).get("preview"))}


def upgrade_answer(row, upgrade, lifecycle=None) -> dict:
    """What GET /models/{slug}/upgrade answers for a model row and its upgrade row (or None); lifecycle: the
    platform lifecycle row the upgrade was read from (its basis)."""
    return {
        "current": {"slug": row["slug"], "display_name": row["display_name"], "status": row["status"]},
        "upgrade": None if upgrade is None else {
            "slug": upgrade["slug"], "display_name": upgrade["display_name"], "status": upgrade["status"],
            "release_date": upgrade["release_date"],
            **({"why": why(row, upgrade, lifecycle)} if lifecycle is not None else {})},
        "is_latest": row["status"] == "latest",
    }


def shutdown_of(model, platform=None) -> str | None:
    """The shutdown day that applies to an id: its platform's lifecycle (a row or its dict), else the
    model's sunset_date."""
    return (platform if platform is not None else model)["sunset_date"]

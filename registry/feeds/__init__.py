"""Feeds rendered from the change history and the lifecycle dates: Atom 1.0 (atom.py), JSON Feed 1.1
(jsonfeed.py), an iCalendar of deprecations and shutdowns (calendar.py). The views are api/feeds.py."""
import uuid

GENERATOR = "model-registry"
FEED_TITLE = "Model registry: changes"


def entry_id(base_url: str, change_id: int) -> str:
    """A change's entry id: a URN stable for this deployment (the same change always has the same id)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"{base_url}api/v1/changes#{change_id}").urn


def model_url(base_url: str, slug: str) -> str:
    """The absolute URL of a model's JSON answer."""
    return f"{base_url}api/v1/models/{slug}"


def _shown(value) -> str:
    return "none" if value is None else str(value)


def describe(change: dict) -> str:
    """The text under a change's title: old and new values, whose value it is, the upgrade."""
    lines = []
    if change["field"] is not None:
        lines.append(f"{change['field']}: {_shown(change['old'])} -> {_shown(change['new'])}")
    lines.append(f"source: {change['source']}")
    if change["upgrade_slug"]:
        lines.append(f"recommended upgrade: {change['upgrade_slug']}")
    return "\n".join(lines)


def entries(changes: list, base_url: str) -> list:
    """What every feed format shows of each change (id, title, url, text, date, kind, the change)."""
    return [{"id": entry_id(base_url, c["id"]), "title": c["title"], "url": model_url(base_url, c["model_slug"]),
             "text": describe(c), "date": c["occurred_at"], "kind": c["kind"], "change": c} for c in changes]

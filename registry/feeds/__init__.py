"""Feeds rendered from the change history and the lifecycle dates: Atom 1.0 (atom.py), JSON Feed 1.1
(jsonfeed.py), an iCalendar of deprecations and shutdowns (calendar.py). The views are api/feeds.py."""
import uuid

from .. import wording

GENERATOR = "model-registry"
FEED_TITLE = "Model registry: changes"


def entry_id(base_url: str, change_id: int) -> str:
    """A change's entry id: a URN stable for this deployment (the same change always has the same id)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"{base_url}api/v1/changes#{change_id}").urn


def model_url(base_url: str, slug: str) -> str:
    """The absolute URL of a model's JSON answer."""
    return f"{base_url}api/v1/models/{slug}"


def entries(changes: list, base_url: str) -> list:
    """What every feed format shows of each change (id, title, url, text, date, kind, the change)."""
    return [{"id": entry_id(base_url, c["id"]), "title": c["title"], "url": model_url(base_url, c["model_slug"]),
             "text": wording.summary(c), "date": c["occurred_at"], "kind": c["kind"], "change": c} for c in changes]

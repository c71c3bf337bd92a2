"""JSON Feed 1.1 (https://jsonfeed.org/version/1.1) from feed entries; `_registry` carries the change."""
import json

from . import FEED_TITLE, GENERATOR

VERSION = "https://jsonfeed.org/version/1.1"
MIMETYPE = "application/feed+json"


def render(items: list, self_url: str, home_url: str, next_url: str | None) -> bytes:
    """The feed document, newest items first; next_url pages on (the spec's pagination)."""
    feed = {"version": VERSION, "title": FEED_TITLE, "home_page_url": home_url, "feed_url": self_url,
            "description": "What changed in the model registry: models added and removed, fields, statuses,"
                           " deprecations, shutdowns, identifiers and each family's latest.",
            "authors": [{"name": GENERATOR}], "language": "en",
            "items": [{"id": item["id"], "url": item["url"], "title": item["title"], "content_text": item["text"],
                       "date_published": item["date"], "tags": [item["kind"]], "_registry": item["change"]}
                      for item in items]}
    if next_url:
        feed["next_url"] = next_url
    return json.dumps(feed, ensure_ascii=False).encode("utf-8")

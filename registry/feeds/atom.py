"""Atom 1.0 (RFC 4287) from feed entries, with RFC 5005 paging (rel="next")."""
from xml.etree import ElementTree

from ..text import without_controls
from . import FEED_TITLE, GENERATOR

ATOM = "http://www.w3.org/2005/Atom"
EPOCH = "1970-01-01T00:00:00Z"
MIMETYPE = "application/atom+xml"


def _add(parent, tag: str, text: str | None = None, **attrs):
    # ElementTree writes control characters as they are, and an XML reader then refuses the whole feed
    # (docs/threat-model.md#writers): whatever is stored, nothing XML 1.0 forbids is written.
    element = ElementTree.SubElement(parent, tag, {k.rstrip("_"): without_controls(v) for k, v in attrs.items()})
    if text is not None:
        element.text = without_controls(text)
    return element


def render(items: list, self_url: str, home_url: str, next_url: str | None) -> bytes:
    """The feed document: newest entries first; `updated` is the newest entry's time (stable per data)."""
    feed = ElementTree.Element("feed", {"xmlns": ATOM})
    _add(feed, "id", self_url)
    _add(feed, "title", FEED_TITLE)
    _add(feed, "updated", items[0]["date"] if items else EPOCH)
    _add(_add(feed, "author"), "name", GENERATOR)
    _add(feed, "generator", GENERATOR)
    _add(feed, "link", rel="self", href=self_url, type=MIMETYPE)
    _add(feed, "link", rel="alternate", href=home_url, type="application/json")
    if next_url:
        _add(feed, "link", rel="next", href=next_url, type=MIMETYPE)
    for item in items:
        entry = _add(feed, "entry")
        _add(entry, "id", item["id"])
        _add(entry, "title", item["title"])
        _add(entry, "updated", item["date"])
        _add(entry, "published", item["date"])
        _add(entry, "link", rel="alternate", href=item["url"], type="application/json")
        _add(entry, "category", term=item["kind"])
        _add(entry, "summary", item["text"], type="text")
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(feed, encoding="utf-8")

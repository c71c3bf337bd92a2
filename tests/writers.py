"""Every writer of the app, read back by a strict reader (issue 28): what a hostile value must never break.

JSON (a strict json load), HTML (no control characters, links only to this site or http(s), scripts only
the site's own), the SVG timeline inside it (a strict XML parser), Markdown (markdown-it with GFM tables:
no raw HTML, links only to this site or http(s), one heading 1, every table row as wide as its header),
Atom (a strict XML parser and feedparser), JSON Feed (the 1.1 schema), iCalendar (icalendar) and MCP
(a tools/call over /mcp). Each check returns nothing and asserts with the writer and URL named.
"""
import json
import re
from html.parser import HTMLParser
from xml.etree import ElementTree

import feedparser
import icalendar
import jsonschema
from markdown_it import MarkdownIt

from helpers import DATA

JSON_FEED_SCHEMA = json.loads((DATA / "jsonfeed-1.1.schema.json").read_text(encoding="utf-8"))
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
SAFE_LINK = re.compile(r"^(/(?!/)|#|https?://)")
MARKDOWN = MarkdownIt("commonmark").enable("table").enable("strikethrough")
# markdown-it drops javascript: links by itself; another renderer (or an agent reading the text) does not,
# so every link the text makes is kept here and judged.
MARKDOWN.validateLink = lambda url: True


def _strict_json(data: bytes):
    def refuse(constant):
        raise ValueError(f"{constant} in JSON")
    return json.loads(data, parse_constant=refuse)


class _Tags(HTMLParser):
    """Collects every link target, script source and event-handler attribute of a page."""

    def __init__(self):
        super().__init__()
        self.links, self.scripts, self.handlers = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src", "action", "formaction", "xlink:href"):
            if attrs.get(name) is not None and (tag != "script" or name != "src"):
                self.links.append(attrs[name])
        if tag == "script":
            self.scripts.append(attrs.get("src"))
        self.handlers += [name for name in attrs if name.startswith("on")]


def check_json(data: bytes, where: str):
    """Strict JSON."""
    assert _strict_json(data) is not None, where


def check_html(data: bytes, where: str):
    """No control characters; links to this site or http(s) only; no script but the site's own; SVG is XML."""
    text = data.decode("utf-8")
    assert not CONTROLS.search(text), f"{where}: control character at {CONTROLS.search(text).start()}"
    tags = _Tags()
    tags.feed(text)
    assert all(SAFE_LINK.match(link) for link in tags.links), (where, [x for x in tags.links if not SAFE_LINK.match(x)])
    assert set(tags.scripts) <= {"/static/app.js"} and not tags.handlers, (where, tags.scripts, tags.handlers)
    for svg in re.findall(r"<svg\b.*?</svg>", text, flags=re.S):
        ElementTree.fromstring(svg)   # the timeline is XML: a control character or a stray < would raise


def check_markdown(data: bytes, where: str):
    """CommonMark + GFM tables: no raw HTML, safe links only, one title, every table row as wide as its header."""
    text = data.decode("utf-8")
    assert not CONTROLS.search(text), where
    tokens = MARKDOWN.parse(text)
    inline = [child for token in tokens for child in (token.children or [])]
    assert not [t for t in tokens + inline if t.type in ("html_block", "html_inline")], where
    links = [t.attrs["href"] for t in inline if t.type == "link_open"]
    assert all(SAFE_LINK.match(href) for href in links), (where, links)
    assert sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h1") == 1, where
    width = None
    for line in text.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line)) - 1
        width = width or cells
        assert cells == width, f"{where}: a table row of {cells} cells under a header of {width}: {line!r}"


def check_atom(data: bytes, where: str):
    """A strict XML parser reads it, and feedparser finds nothing wrong."""
    ElementTree.fromstring(data)
    parsed = feedparser.parse(data)
    assert not parsed.bozo, (where, parsed.get("bozo_exception"))


def check_json_feed(data: bytes, where: str):
    """JSON Feed 1.1 by its schema."""
    jsonschema.validate(_strict_json(data), JSON_FEED_SCHEMA)


def check_ics(data: bytes, where: str):
    """icalendar reads it; no control character but the line ends."""
    assert not CONTROLS.search(data.decode("utf-8").replace("\r\n", "")), where
    icalendar.Calendar.from_ical(data)


def check_mcp(client, identifier: str, where: str) -> dict:
    """tools/call resolve over /mcp: a JSON-RPC result (not an error), its structured answer returned."""
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "resolve", "arguments": {"identifier": identifier}}}
    response = client.post("/mcp", json=call, headers={"Accept": "application/json, text/event-stream"})
    assert response.status_code == 200, (where, response.get_data(as_text=True)[:300])
    result = _strict_json(response.data)["result"]
    assert not result.get("isError"), (where, result)
    return result.get("structuredContent") or {}


def everywhere(client, slug: str | None = None, family: str | None = None) -> dict:
    """Fetch and check every writer, for one model (and its family) when named, else the whole registry;
    return {url: body} of what was fetched (for the caller's own assertions)."""
    checks = [("/api/v1/models", check_json), ("/api/v1/changes?limit=200", check_json),
              ("/", check_html), ("/deprecations", check_html), ("/index.md", check_markdown),
              ("/deprecations.md", check_markdown), ("/llms.txt", check_markdown),
              ("/api/v1/feeds/changes.atom?limit=200", check_atom),
              ("/api/v1/feeds/changes.json?limit=200", check_json_feed),
              ("/api/v1/feeds/lifecycle.ics", check_ics)]
    if slug:
        checks += [(f"/api/v1/models/{slug}", check_json), (f"/api/v1/resolve?q={slug}", check_json),
                   (f"/models/{slug}", check_html), (f"/models/{slug}.md", check_markdown),
                   (f"/api/v1/feeds/changes.atom?model={slug}", check_atom),
                   (f"/api/v1/feeds/changes.json?model={slug}", check_json_feed),
                   (f"/api/v1/feeds/lifecycle.ics?model={slug}", check_ics)]
    if family:
        checks += [(f"/families/{family}", check_html), (f"/families/{family}.md", check_markdown)]
    bodies = {}
    for url, check in checks:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.get_data(as_text=True)[:300])
        check(response.data, url)
        bodies[url] = response.data
    if slug:
        bodies["mcp"] = check_mcp(client, slug, "mcp resolve")
    return bodies

"""The one URL policy: what a URL that the registry stores, links to or sends to must look like.

An http or https URL with a host, at most MAX_URL characters of printable ASCII, no user name or
password, no backslash. Everything else (javascript:, data:, a URL two parsers read two ways, a
space or control character) is refused: at ingest (registry/ingest/validate.py), by curation
(registry/curation/rules.py), by the webhook guard (registry/notify/urls.py, which then checks the
addresses) and by the writers before they make a link (docs/threat-model.md#one-url-policy).
"""
import re
from urllib.parse import urlsplit

MAX_URL = 2000
SCHEMES = ("http", "https")
_NEVER = re.compile(r'[\\<>"`]')
# scheme://host/path?query#fragment with a host of letters, digits, dots and hyphens, and nothing the
# checks below refuse: such a URL passes them all.
PLAIN_URL = re.compile(r'(?i:https?)://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?:[/?#][!#-;=?-\[\]-_a-~]*)?')


def problem(value) -> str | None:
    """Why value is not an http(s) URL the registry may use, or None when it is."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_URL:
        return f"must be a string of 1 to {MAX_URL} characters"
    if PLAIN_URL.fullmatch(value):   # the usual shape, without a port or user: no parse needed (50k hub pages)
        return None
    return parsed_problem(value)


def parsed_problem(value: str) -> str | None:
    """problem() the long way, for a string of at most MAX_URL characters: what PLAIN_URL spares it."""
    if not value.isascii() or not value.isprintable() or " " in value:
        return "must be printable ASCII without spaces (percent-encode the rest)"
    found = _NEVER.search(value)
    if found and found.group() == "\\":   # WHATWG parsers (browsers, urllib3) read it as '/', RFC 3986 ones not
        return "must not contain a backslash"
    if found:   # never in a URL (RFC 3986 2.2); each ends an HTML attribute or a Markdown autolink
        return 'must percent-encode < > " and `'
    try:
        parts = urlsplit(value)
        port = parts.port   # raises on a port that is not a number from 0 to 65535
    except ValueError as exc:
        return f"is malformed ({exc})"
    if parts.scheme.lower() not in SCHEMES:
        return "must be an http:// or https:// URL"
    if not parts.hostname:
        return "must name a host"
    if "@" in parts.netloc:
        return "must not carry a user name or password"
    if port == 0:
        return "must name a port from 1 to 65535"
    return None


def http_url(value) -> str | None:
    """value when it is an http(s) URL by the policy above, else None (for writers: no link)."""
    return value if problem(value) is None else None

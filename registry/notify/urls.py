"""Receiver URLs: http or https, and not pointing inside the network unless the operator allows it.

A webhook makes the server send requests where a caller says; pointed at 127.0.0.1 or 10.0.0.0/8 it
would reach services that trust the local network (SSRF). Every address the host name resolves to
must be global, checked when the endpoint is registered and again before each attempt.
"""
import ipaddress
import socket
from urllib.parse import urlsplit

MAX_URL = 2000


class UnsafeURL(ValueError):
    """A receiver URL that may not be used (the message says why)."""


def _addresses(host: str, port: int) -> list:
    try:
        return [ipaddress.ip_address(info[4][0].split("%")[0])
                for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)]
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise UnsafeURL(f"the host '{host}' does not resolve ({exc})") from None


def _private(address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address
    return not address.is_global or address.is_multicast


def check(url: str, allow_private: bool) -> str:
    """Return url when it may receive webhooks, else raise UnsafeURL naming the reason."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise UnsafeURL(f"the URL must be a string of 1 to {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise UnsafeURL(f"the URL is malformed ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeURL("the URL must be http:// or https:// with a host")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise UnsafeURL("the URL must not contain spaces or control characters")
    if allow_private:
        return url
    blocked = [str(a) for a in _addresses(parts.hostname, port) if _private(a)]
    if blocked:
        raise UnsafeURL(f"the host '{parts.hostname}' is a loopback or private address ({blocked[0]});"
                        " set REGISTRY_WEBHOOKS_ALLOW_PRIVATE=1 to allow it")
    return url

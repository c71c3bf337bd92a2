"""Receiver URLs: parsed once, resolved once, and only global addresses (docs/threat-model.md#admins).

A webhook makes the server send requests where a caller says; pointed at 127.0.0.1 or 10.0.0.0/8 it
would reach services that trust the local network (SSRF), and the delivery log's status or connection
error would tell what answers there. So the URL is read by one parser here (the one URL policy first:
http or https, no user name, no backslash, which two parsers read two ways), its host is resolved
once, every address it resolves to must be global, and the sender connects to those very addresses
(deliver.py), keeping the host name for TLS and `Host`: a DNS answer that changes after the check
(rebinding) is never asked for.
"""
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..url_policy import problem

# Ranges whose addresses stand for an IPv4 address inside them, checked as that address: NAT64's
# well-known prefix (RFC 6052) and 6to4 (RFC 3056); IPv4-mapped (::ffff:0:0/96) through .ipv4_mapped.
NAT64 = ipaddress.ip_network("64:ff9b::/96")
# Never global, whatever the ipaddress module of this Python says: site-local (RFC 3879, deprecated but
# routed by some stacks), NAT64 for local use (RFC 8215), IPv4-compatible (::a.b.c.d, deprecated).
NEVER_GLOBAL = tuple(ipaddress.ip_network(n) for n in ("fec0::/10", "64:ff9b:1::/48", "::/96"))


class UnsafeURL(ValueError):
    """A receiver URL that may not be used (the message says why)."""


@dataclass(frozen=True)
class Receiver:
    """A checked receiver: where to connect (addresses, port), what to say (host for TLS and Host, target)."""

    url: str
    scheme: str
    host: str          # the name (or literal) as TLS and the Host header need it, without brackets
    port: int
    target: str        # path and query, what the request line asks for
    addresses: tuple   # the checked addresses, in the resolver's order: the only ones connected to

    @property
    def host_header(self) -> str:
        """The Host header: the name, [bracketed] when an IPv6 literal, with the port when not the default."""
        name = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


def embedded_ipv4(address):
    """The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4), or None."""
    if address.version != 6:
        return None
    if address.ipv4_mapped:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


def is_global(address) -> bool:
    """Whether a connection to address stays outside the network: global, not multicast, and so is
    any IPv4 address it stands for."""
    if address.is_multicast or not address.is_global:
        return False
    if address.version == 6 and any(address in net for net in NEVER_GLOBAL):
        return False
    inner = embedded_ipv4(address)
    return inner is None or is_global(inner)


def _resolve(host: str, port: int) -> tuple:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise UnsafeURL(f"the host '{host}' does not resolve ({exc})") from None
    found = []
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if address not in found:
            found.append(address)
    return tuple(found)


def parse(url) -> tuple[str, str, int, str]:
    """(scheme, host, port, target) of a receiver URL by the one URL policy, or UnsafeURL."""
    why = problem(url)
    if why:
        raise UnsafeURL(f"the URL {why}")
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), parts.hostname
    port = parts.port if parts.port is not None else (443 if scheme == "https" else 80)
    if "%" in host:
        raise UnsafeURL("the URL's host must not hold a zone or percent-escape")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port, target


def check(url: str, allow_private: bool) -> Receiver:
    """The checked receiver of url: every address its host resolves to is global (unless allow_private);
    else UnsafeURL naming the reason."""
    scheme, host, port, target = parse(url)
    addresses = _resolve(host, port)
    if not addresses:
        raise UnsafeURL(f"the host '{host}' does not resolve")
    blocked = [str(a) for a in addresses if not is_global(a)]
    if blocked and not allow_private:
        raise UnsafeURL(f"the host '{host}' is a loopback, private or otherwise non-global address ({blocked[0]});"
                        " set REGISTRY_WEBHOOKS_ALLOW_PRIVATE=1 to allow it")
    return Receiver(url, scheme, host, port, target, addresses)

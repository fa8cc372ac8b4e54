"""The one way the service sends HTTP to an address a player gave (a webhook URL, a push
service endpoint): a guard against server-side request forgery, and bounds on what one
request may cost a worker.

- Only `http` and `https` URLs, with a host and no `user:password@`.
- The host is resolved once; every address it resolves to must be public. Refused unless
  an operator allows their range (`OUTBOUND_ALLOW`, a CIDR list): loopback, private
  (RFC 1918, IPv6 unique local), link-local, shared (CGNAT, 100.64.0.0/10), multicast,
  unspecified, reserved and documentation ranges, and the same addresses written inside
  IPv6 (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible, 6to4, Teredo, NAT64 `64:ff9b::/96`).
  Cloud metadata addresses (METADATA) are refused even inside an allowed range unless the
  range names exactly that one address.
- The connection goes to the address that was checked (the URL's name is only sent as
  `Host` and as the TLS server name, whose certificate is verified), so a name that
  resolves to something else a moment later (DNS rebinding) cannot move the request.
- Redirects are never followed: a 3xx is an answer like any other (a failed delivery).
- Connecting and the whole exchange have a deadline (`OUTBOUND_TIMEOUT_S`; a watchdog
  closes the socket when it passes, so a receiver that trickles bytes is cut off too), and
  at most `OUTBOUND_MAX_BYTES` of the answer are read.

Written on the standard library (`http.client`, `ssl`, `ipaddress`) rather than on
`requests`: pinning the connection to the checked address and bounding the whole exchange
need the socket in hand, which `requests` hides behind its connection pool.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_URL = 2048
# where clouds answer a machine's questions about itself (credentials among them)
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle...
        "169.254.170.2",  # AWS ECS task metadata
        "169.254.169.253",  # AWS DNS
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud (classic)
        "fd00:ec2::254",  # AWS over IPv6
        "fd00:ec2::253",
    )
)
# public-looking ranges that are not: the standard library's `is_global` misses some
NOT_GLOBAL = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "192.0.0.0/24",
        "192.0.2.0/24",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "64:ff9b:1::/48",
        "100::/64",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "ff00::/8",
    )
)
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Refused(Exception):
    """An outbound request that must not be made: the URL, or the address it names."""


@dataclass(frozen=True)
class Answer:
    """What the other side answered: its status, headers (lower-case names) and the first
    bytes of its body."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Policy:
    """The ranges an operator allows, and the bounds of one request."""

    allow: tuple[Network, ...] = ()
    timeout_s: float = 5.0
    max_bytes: int = 64 * 1024

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Policy:
        """The policy the configuration sets (service.config: OUTBOUND_*)."""
        return cls(
            allow=networks(config.get("OUTBOUND_ALLOW") or ()),
            timeout_s=float(config.get("OUTBOUND_TIMEOUT_S") or 5),
            max_bytes=int(config.get("OUTBOUND_MAX_BYTES") or 64 * 1024),
        )


def networks(ranges: Iterable[str] | str) -> tuple[Network, ...]:
    """Parse a CIDR list (`"127.0.0.0/8,::1/128"` or a list); raise ValueError on a bad one."""
    if isinstance(ranges, str):
        ranges = ranges.split(",")
    return tuple(ipaddress.ip_network(r.strip(), strict=False) for r in ranges if r.strip())


def _embedded(ip: Address) -> list[Address]:
    """The IPv4 addresses an IPv6 address carries (mapped, compatible, 6to4, Teredo,
    NAT64): each must pass the same rules."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    inner: list[Address] = []
    if ip.ipv4_mapped is not None:
        inner.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        inner.append(ip.sixtofour)
    if ip.teredo is not None:
        inner.extend(ip.teredo)
    if ip in NAT64 or (int(ip) >> 32 == 0 and int(ip) > 1):  # 64:ff9b::a.b.c.d, ::a.b.c.d
        inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return inner


def why_forbidden(ip: Address, allow: tuple[Network, ...] = ()) -> str | None:
    """Return why the service may not connect to `ip` (a short reason), or None."""
    if ip in METADATA:
        exact = any(n.num_addresses == 1 and ip in n for n in allow)
        return None if exact else "a cloud metadata address"
    if any(ip.version == n.version and ip in n for n in allow):
        return None
    for inner in _embedded(ip):
        if reason := why_forbidden(inner, allow):
            return f"{reason} (inside the IPv6 address {ip})"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return None  # ::ffff:a.b.c.d is the IPv4 address checked above
    checks = (
        (ip.is_unspecified, "the unspecified address"),
        (ip.is_loopback, "a loopback address"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_private, "a private address"),
        (any(ip.version == n.version and ip in n for n in NOT_GLOBAL), "a non-public address"),
        (ip.is_reserved, "a reserved address"),
        (not ip.is_global, "a non-public address"),
    )
    return next((reason for hit, reason in checks if hit), None)


@dataclass(frozen=True)
class Endpoint:
    """A checked URL: where to connect, and what to say there."""

    scheme: str
    host: str  # the name in the URL (Host header, TLS server name)
    port: int
    path: str  # path and query
    address: Address  # the checked address the connection goes to


def check_url(url: str) -> tuple[str, str, int, str]:
    """Return (scheme, host, port, path) of an http(s) URL, or raise Refused."""
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise Refused(f"a URL of at most {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 0x20 for c in url):
        raise Refused("no spaces or control characters in the URL")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise Refused(f"not a URL: {e}") from e
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise Refused("only http and https URLs")
    if not parts.hostname:
        raise Refused("the URL names no host")
    if parts.username is not None or parts.password is not None:
        raise Refused("no user:password@ in the URL")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, parts.hostname, port or (443 if scheme == "https" else 80), path


def resolve(url: str, policy: Policy) -> Endpoint:
    """Check a URL and the addresses its host resolves to; return where to connect, or
    raise Refused saying why. Every address the name resolves to must be allowed (a name
    with one public and one private address is refused: either could be used)."""
    scheme, host, port, path = check_url(url)
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as e:
            raise Refused(f"the host {host!r} does not resolve") from e
        found = list(dict.fromkeys(ipaddress.ip_address(i[4][0].split("%")[0]) for i in infos))
    if not found:
        raise Refused(f"the host {host!r} does not resolve")
    for ip in found:
        if reason := why_forbidden(ip, policy.allow):
            raise Refused(f"{host} is {reason}" if literal else f"{host} resolves to {reason}")
    return Endpoint(scheme, host, port, path, found[0])


def post(url: str, body: bytes, headers: Mapping[str, str], policy: Policy) -> Answer:
    """POST `body` to `url` through the guard; return the answer (any status, redirects
    included, never followed). Raise Refused for a forbidden URL or address, OSError (a
    timeout among them) when the exchange fails or passes its deadline."""
    target = resolve(url, policy)
    deadline = time.monotonic() + policy.timeout_s
    family = socket.AF_INET6 if target.address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.settimeout(policy.timeout_s)
    try:  # the checked address itself: no second name lookup
        sock.connect((str(target.address), target.port))
    except OSError:
        sock.close()
        raise
    watchdog = threading.Timer(policy.timeout_s, _cut, (sock,))
    watchdog.daemon = True
    watchdog.start()
    try:
        if target.scheme == "https":
            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=target.host)
        conn = _Pinned(target.host, target.port, sock)
        conn.putrequest("POST", target.path, skip_accept_encoding=True)
        names = {k.lower() for k in headers}
        for name, value in headers.items():
            conn.putheader(name, value)
        if "user-agent" not in names:
            conn.putheader("User-Agent", "marketfold")
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        data = response.read(policy.max_bytes)
        if time.monotonic() > deadline:
            raise TimeoutError(f"no whole answer within {policy.timeout_s:g} s")
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
    except (OSError, http.client.HTTPException) as e:
        if time.monotonic() >= deadline:
            raise TimeoutError(f"no whole answer within {policy.timeout_s:g} s") from e
        raise OSError(f"{type(e).__name__}: {e}") from e
    finally:
        watchdog.cancel()
        sock.close()


def _cut(sock: socket.socket) -> None:
    """End an exchange past its deadline: a blocked read returns at once."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _Pinned(http.client.HTTPConnection):
    """An HTTP/1.1 connection over a socket already connected to the checked address."""

    def __init__(self, host: str, port: int, sock: socket.socket) -> None:
        super().__init__(host, port)
        self.sock = sock

    def connect(self) -> None:  # never dial again (a name lookup would happen here)
        raise OSError("the connection was closed")

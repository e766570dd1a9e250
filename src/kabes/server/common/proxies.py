"""Who the client is behind a reverse proxy (PROTOCOL.md, "Safe for strangers": "Proxies").

The rate limits count by client address and ``/metrics`` answers only loopback clients, so
the address a request is counted under must be one the client cannot choose. A connection
from an address or network in ``--trusted-proxies`` (a reverse proxy or balancer) has its
client named in ``X-Forwarded-For``, where each proxy appends the address it was connected
from: the client is the rightmost address of that header that is not itself a trusted proxy
(everything to its left was written by the client, who may write anything). Every other
connection is its own client, whatever headers it sends.

Why here and not uvicorn's ``proxy_headers`` (uvicorn 0.54's ProxyHeadersMiddleware, which
``kabes serve`` used until issue 24): its ``forwarded_allow_ips='*'`` trusts every
connection and then takes the *leftmost* address, the one the client wrote, so a stranger
sending ``X-Forwarded-For: 127.0.0.1`` read ``/metrics`` and a new address per request
escaped every rate limit; and an entry it cannot read (``10.0.0.300``, ``10.0.0.1/8``) is
kept as a literal that matches nothing, so an operator's typo trusts nobody and nobody is
told. Here the list is read once, at start (:meth:`TrustedProxies.parse`): ``*``, a network
of every address (``0.0.0.0/0``, ``::/0``) and anything that is not an address or network
stop ``kabes serve`` with the reason. The walk itself is the same rule as uvicorn's for a
list of proxies; the addresses it yields are canonical (``2001:DB8::1`` and
``2001:db8:0::1`` are one client, an IPv4-mapped IPv6 address is its IPv4 one), so that a
client cannot escape a limit by spelling its address another way.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

EVERYONE: Final = (
    "would trust every connection's X-Forwarded-For: anyone could claim to be 127.0.0.1 "
    "(and read /metrics) or a new address at every request (and escape every rate limit); "
    "name the proxies' addresses or networks instead, such as 10.0.0.5 or 10.0.0.0/24")
"""Why ``*`` (or a network of every address) is refused."""
MAX_TEXT: Final = 64
"""Characters kept of an ``X-Forwarded-For`` entry that is not an address (``unknown``, an
obfuscated name): it is its own client, never a trusted one and never loopback."""


def address(text: str) -> Address | None:
    """``text`` as an address, an IPv4-mapped IPv6 address as its IPv4 one; None if it is
    not an address."""
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def canonical(text: str) -> str:
    """A client's address as it is counted: the canonical form of an address, else the
    text itself (shortened)."""
    found = address(text)
    return text[:MAX_TEXT] if found is None else str(found)


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The addresses and networks whose ``X-Forwarded-For`` is believed."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, text: str) -> TrustedProxies:
        """``--trusted-proxies``: addresses and networks (CIDR), comma-separated; ValueError
        saying why for ``*``, a network of every address, or an entry that is neither."""
        networks: list[Network] = []
        for part in (piece.strip() for piece in text.split(",")):
            if not part:
                continue
            if part == "*":
                raise ValueError(f"'*' {EVERYONE}")
            try:
                network = ipaddress.ip_network(part, strict=True)
            except ValueError as err:
                if "host bits set" in str(err):
                    loose = ipaddress.ip_network(part, strict=False)
                    raise ValueError(f"{part!r} has host bits set: the network is "
                                     f"{loose}") from None
                raise ValueError(f"{part!r} is neither an address nor a network "
                                 "(10.0.0.5, 10.0.0.0/24, fd00::/8)") from None
            if network.prefixlen == 0:
                raise ValueError(f"{part!r} {EVERYONE}")
            networks.append(network)
        return cls(tuple(networks))

    def trusts(self, host: str) -> bool:
        """Whether a connection from ``host`` is a trusted proxy."""
        found = address(host)
        return found is not None and any(found in network for network in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client of a connection from ``peer`` whose ``X-Forwarded-For`` headers are
        ``forwarded`` (in order; each a comma-separated list): see the module's docstring.
        When every entry is a trusted proxy, the leftmost is the client (a trusted proxy is
        believed about whom it forwards)."""
        if not self.trusts(peer):
            return canonical(peer)
        hops = [host for value in forwarded for part in value.split(",")
                if (host := _host(part.strip()))]
        if not hops:
            return canonical(peer)
        for hop in reversed(hops):
            if not self.trusts(hop):
                return canonical(hop)
        return canonical(hops[0])


LOOPBACK: Final = TrustedProxies.parse("127.0.0.1,::1")
"""The default: a reverse proxy on the same machine."""


def _host(entry: str) -> str:
    """An ``X-Forwarded-For`` entry without its port: ``[::1]:80`` and ``10.0.0.1:80``
    give ``::1`` and ``10.0.0.1``; anything else is kept as it is."""
    if entry.startswith("["):
        end = entry.find("]")
        return entry[1:end] if end > 0 else entry
    if entry.count(":") == 1:
        return entry.split(":", 1)[0]
    return entry


class ProxyHeaders:
    """A pure ASGI middleware, outermost: gives every HTTP request and socket the client
    address :meth:`TrustedProxies.client` finds (``scope["client"]``, read by the rate
    limits, the sockets-per-address cap and the ``/metrics`` guard), and, from a trusted
    proxy, the scheme of ``X-Forwarded-Proto``."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies = LOOPBACK) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope.get("client"):
            peer, port = scope["client"][0], scope["client"][1]
            forwarded: list[str] = []
            scheme = None
            for name, value in scope.get("headers", ()):
                if name == b"x-forwarded-for":
                    forwarded.append(bytes(value).decode("latin-1"))
                elif name == b"x-forwarded-proto":
                    scheme = bytes(value).decode("latin-1").strip().lower()
            client = self.proxies.client(str(peer), forwarded)
            scope = {**scope, "client": (client, port if client == peer else 0)}
            if scheme in ("http", "https") and self.proxies.trusts(str(peer)):
                scope["scheme"] = (scheme.replace("http", "ws", 1)
                                   if scope["type"] == "websocket" else scheme)
        await self.app(scope, receive, send)

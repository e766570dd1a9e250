"""The server's edge as browsers and strangers meet it (PROTOCOL.md, "Safe for strangers"):
security headers on every HTTP answer, the table socket refused to other sites' pages, no
plain-text crash reaching a client, and who may read the operator's pages.

:class:`Guard` is a pure ASGI middleware, not Starlette's BaseHTTPMiddleware: an HTTP answer
gets its headers as its start goes out, and a socket is looked at once, at its handshake;
its frames pass untouched, so the guard costs a socket nothing once it is open.

- **Headers.** ``Content-Security-Policy: default-src 'self'; frame-ancestors 'none'`` (no
  script, style, frame or connection from elsewhere, and no page may frame ours: ``/t/CODE``
  joins its table on load, so a framing page could make a visitor join), ``nosniff``,
  ``Referrer-Policy: same-origin`` (a table's address, which holds its code, is not sent to
  other sites) and ``X-Frame-Options: DENY`` for browsers that predate frame-ancestors.
- **Origin.** A browser names the page that opens a socket in ``Origin``; a socket opened by
  another site's page (whose visitor's token it could use) is refused before it is accepted,
  which the client sees as an HTTP 403 to its handshake. The server's own site is the
  ``Host`` the request was sent to; ``--allow-origin`` adds others. A client that sends no
  ``Origin`` is not a browser (a bot, a command-line client) and is served.
- **Sockets per address.** With the rate limits on, one client address holds at most
  ``--sockets-per-address`` table sockets at once (64: a club's phones behind one Wi-Fi share
  an address); one more is accepted only to be told ``slow_down`` and closed 1008, so that a
  script cannot hold thousands of sockets (each costs memory and a 30 s wait for its hello).
- **Documentation pages.** ``/docs`` and ``/redoc`` exist only with ``--api-docs``, and only
  they, then, get a policy that lets in their CDN and inline script (DOCS_POLICY).
- **The offline worker.** Its script alone gets a policy that lets it compile WebAssembly
  (WASM_POLICY): Pyodide runs the engine in it with no network (docs/offline.md).
- **Crashes.** An exception no handler knew reaches the client as 500
  ``{"code": "unavailable"}`` JSON, logged with its traceback once, here.
"""

from __future__ import annotations

import logging
import secrets
from typing import Final

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kabes.server.common.config import Edge
from kabes.server.common.protocol import ErrorCode, Refused, encode
from kabes.server.common.proxies import address
from kabes.server.http.http_input import optional_token

log = logging.getLogger("kabes.app")

POLICY: Final = b"default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
"""The Content-Security-Policy of every answer but the API's own documentation."""
DOCS_POLICY: Final = (
    b"default-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
    b"script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"img-src 'self' data: https://fastapi.tiangolo.com")
"""FastAPI's ``/docs`` and ``/redoc`` are built of an inline script and files from a CDN.
They are served only with ``--api-docs`` (and only then get this policy): a script from a CDN
on the origin whose localStorage holds players' tokens is a risk a public server need not
take, so by default they are 404 and every path gets POLICY."""
DOCS_PATHS: Final = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
WASM_POLICY: Final = (
    b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; "
    b"base-uri 'self'; form-action 'self'")
"""The policy of the offline table's worker script: a worker runs under its own script's
answer's policy, and Pyodide in it compiles WebAssembly (docs/offline.md). No other answer
lets WebAssembly be compiled; nothing gets 'unsafe-eval'."""
WASM_PATHS: Final = frozenset({"/static/offline/worker.js"})
HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)
DEFAULT_PORTS: Final = {"http": "80", "https": "443"}


class Guard:
    """The middleware around the whole application (see the module's docstring)."""

    def __init__(self, app: ASGIApp, origins: frozenset[str] = frozenset(),
                 sockets_per_address: int | None = None, api_docs: bool = False) -> None:
        self.app = app
        self.origins = origins
        self.docs_paths = DOCS_PATHS if api_docs else frozenset[str]()
        """The paths that get DOCS_POLICY: none unless ``--api-docs`` serves them."""
        self.sockets_per_address = sockets_per_address
        """None: no cap (``--rate-limits off``)."""
        self.sockets: dict[str, int] = {}
        """Open table sockets by client address (only addresses with one or more)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket" and not self.allowed(scope):
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})  # before accept: 403
        elif scope["type"] == "websocket" and self.sockets_per_address is not None:
            await self._counted(scope, receive, send, self.sockets_per_address)
        else:
            await self.app(scope, receive, send)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, cap: int) -> None:
        """A socket counted against its address's cap while it is open, or refused."""
        client = scope.get("client")
        who = "unknown" if not client else str(client[0])
        if self.sockets.get(who, 0) >= cap:
            if (await receive())["type"] == "websocket.connect":
                refused = Refused(ErrorCode.SLOW_DOWN, f"more than {cap} sockets open at once "
                                  "from one address")
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send",
                            "text": encode(refused.to_error(None)).decode()})
                await send({"type": "websocket.close", "code": 1008})
            return
        self.sockets[who] = self.sockets.get(who, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.sockets[who] - 1
            if left:
                self.sockets[who] = left
            else:
                del self.sockets[who]

    def allowed(self, scope: Scope) -> bool:
        """Whether a socket's handshake may go on: no Origin, the server's own, or one
        given by --allow-origin."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        origin = origin.strip().rstrip("/").lower()
        if origin in self.origins:
            return True
        scheme, sep, place = origin.partition("://")
        host = _header(scope, b"host")
        if not sep or host is None:
            return False  # "null" (a sandboxed frame, a file) is nobody's site
        return _without_default_port(place, scheme) == _without_default_port(
            host.strip().lower(), scheme)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        policy = (DOCS_POLICY if path in self.docs_paths
                  else WASM_POLICY if path in WASM_PATHS else POLICY)
        started = False

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                headers.append((b"content-security-policy", policy))
                headers.extend(HEADERS)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise
            answer = JSONResponse({"code": "unavailable", "message": "the server failed on "
                                   "this request; it is logged"}, status_code=500)
            await answer(scope, receive, guarded)


def _header(scope: Scope, name: bytes) -> str | None:
    """The first header ``name`` (lower case) of a request, as Latin-1 text."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _without_default_port(place: str, scheme: str) -> str:
    """``host:port`` without the port a browser leaves out for ``scheme`` (ws is http)."""
    default = DEFAULT_PORTS.get(scheme.replace("ws", "http", 1))
    if default is not None and place.endswith(":" + default):
        return place[: -len(default) - 1]
    return place


def trusted(request: HTTPConnection, edge: Edge) -> bool:
    """Whether a client may read the operator's pages (``/metrics``, ``/healthz``'s
    addresses): it is on this machine, or sends ``--metrics-token`` as its bearer token."""
    if request.client is not None:
        found = address(request.client.host)  # behind a trusted proxy: kabes.server.common.proxies
        if found is not None and found.is_loopback:
            return True
    token = optional_token(request)
    return (edge.metrics_token is not None and token is not None
            and secrets.compare_digest(token.encode(), edge.metrics_token.encode()))

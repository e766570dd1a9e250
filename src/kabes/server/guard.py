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
- **Crashes.** An exception no handler knew reaches the client as 500
  ``{"code": "unavailable"}`` JSON, logged with its traceback once, here.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from typing import Final

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kabes.server.config import Edge
from kabes.server.http_input import optional_token

log = logging.getLogger("kabes.app")

POLICY: Final = b"default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
"""The Content-Security-Policy of every answer but the API's own documentation."""
DOCS_POLICY: Final = (
    b"default-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
    b"script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"img-src 'self' data: https://fastapi.tiangolo.com")
"""FastAPI's ``/docs`` and ``/redoc`` are built of an inline script and files from a CDN;
they join no table and hold no token, and no page may frame them either."""
DOCS_PATHS: Final = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)
DEFAULT_PORTS: Final = {"http": "80", "https": "443"}


class Guard:
    """The middleware around the whole application (see the module's docstring)."""

    def __init__(self, app: ASGIApp, origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket" and not self.allowed(scope):
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})  # before accept: 403
        else:
            await self.app(scope, receive, send)

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
        policy = DOCS_POLICY if scope["path"] in DOCS_PATHS else POLICY
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
        try:
            if ipaddress.ip_address(request.client.host).is_loopback:
                return True
        except ValueError:
            pass
    token = optional_token(request)
    return (edge.metrics_token is not None and token is not None
            and secrets.compare_digest(token.encode(), edge.metrics_token.encode()))

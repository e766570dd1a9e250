"""One player on every phone over HTTP: ``POST /api/me/link`` makes a code, ``POST /api/link``
uses it (PROTOCOL.md, "Public tables, watching and phrases"), ``POST /api/me/logout`` ends
the token presented or, with ``{"everywhere": true}``, every token of its player.

A player's only key is a token kept by one browser; these routes let them carry it to
another device without an account or a password, and take it back from every device (a
lost phone, a code someone saw). Every try at a code counts against the address's limit
(``--link-codes-per-minute``, 10 by default) and its IPv6 /64's, a malformed body included,
and every try that does not link counts among the server's wrong codes (100 a minute), so
a million codes cannot be tried from one address nor from many (kabes.server.common.limits).
"""

from __future__ import annotations

import secrets
from typing import Any

import msgspec
from fastapi import FastAPI, Request

from kabes.server.common.limits import Limits
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.http.callers import unknown_token
from kabes.server.http.http_input import bearer_token, read_body
from kabes.server.store.links import LINK_SECONDS, LinkCodes, is_code
from kabes.server.store.store import Store
from kabes.server.table.clock import Clock


class LinkTry(msgspec.Struct):
    """``POST /api/link``."""

    code: str


class Logout(msgspec.Struct):
    """``POST /api/me/logout``'s body, which may be left out."""

    everywhere: bool = False


def link_routes(app: FastAPI, store: Store, clock: Clock, limits: Limits) -> None:
    """Add the link routes to ``app``."""
    codes = LinkCodes(store.engine)

    @app.post("/api/me/link", status_code=201, tags=["identity"])
    async def make_link_code(request: Request) -> dict[str, Any]:
        """A 6-digit code that gives another device this player, once, for 5 minutes; it
        replaces the player's previous code."""
        code = await codes.make(bearer_token(request), clock.now())
        if code is None:
            raise unknown_token()
        return {"code": code, "expires_in": LINK_SECONDS}

    @app.post("/api/link", status_code=201, tags=["identity"])
    async def use_link_code(request: Request) -> dict[str, Any]:
        """A new token for the player whose code this is (their other tokens keep
        working)."""
        tried = await limits.link_code(request)
        code = (await read_body(request, LinkTry)).code
        if not is_code(code):
            raise Refused(ErrorCode.BAD_MESSAGE, "a code is 6 digits, 0 to 9")
        token = secrets.token_urlsafe(32)
        player = await codes.use(code, token, clock.now())
        if player is None:
            raise Refused(ErrorCode.NOT_FOUND, "no such code: it is wrong, used or expired")
        await limits.linked(tried)
        found = await store.player_by_token(token)
        assert found is not None
        return {"player": player, "name": found[1], "token": token}

    @app.post("/api/me/logout", tags=["identity"])
    async def logout(request: Request) -> dict[str, Any]:
        """End the caller's token: from now on it is ``bad_token``, here and at a hello.
        With ``{"everywhere": true}``, every token of its player, on every device, and its
        live link code."""
        token = bearer_token(request)
        everywhere = (await read_body(request, Logout)).everywhere
        ended = await (store.revoke_everywhere(token) if everywhere
                       else store.revoke_token(token))
        if not ended:
            raise unknown_token()
        return {"ok": True}

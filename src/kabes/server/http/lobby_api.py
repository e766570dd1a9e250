"""The lobby's routes: ``GET /api/lobby`` and ``POST /api/quick`` (PROTOCOL.md, "Public tables,
watching and phrases"). What they answer is :class:`~kabes.server.lobby.lobby.Lobby`'s; this module
only reads the requests and refuses bad ones with the protocol's codes."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from kabes.rules import VARIANTS
from kabes.server.common.protocol import BadInput, ErrorCode, QuickSeat, Refused
from kabes.server.http.callers import Callers
from kabes.server.http.http_input import read_body
from kabes.server.lobby.lobby import Lobby
from kabes.server.store.store import Store
from kabes.table.creation import unknown_variant


def lobby_routes(app: FastAPI, store: Store, lobby: Lobby) -> None:
    """Add the lobby's routes to ``app``."""
    callers = Callers(store)

    @app.get("/api/lobby", tags=["tables"])
    async def lobby_now(variant: str | None = None) -> dict[str, Any]:
        """People online, and the public tables waiting for people and in play (at most 50
        of each); ``variant`` keeps one variant's. An unknown variant is 404 ``bad_variant``,
        as for rankings."""
        if variant is not None and variant not in VARIANTS:
            raise Refused(ErrorCode.BAD_VARIANT, f"no variant {variant!r}", status=404)
        return await lobby.lobby(variant)

    @app.post("/api/quick", tags=["tables"])
    async def quick_seat(request: Request) -> dict[str, Any]:
        """A seat at a public waiting table that fits (the fullest, then the oldest), or at a
        new public table with the caller as host."""
        caller = await callers.who(request)
        try:
            body = await read_body(request, QuickSeat)
        except BadInput as err:
            raise (unknown_variant(err.message) if err.code == ErrorCode.BAD_VARIANT
                   else err) from None
        return await lobby.quick(caller.player, caller.name, body)

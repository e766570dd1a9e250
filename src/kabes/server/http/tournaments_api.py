"""The tournaments over HTTP (PROTOCOL.md, "Tournaments"): create, enter, start, read, list.

Bodies are read by msgspec as every input is (kabes.server.http.http_input); what they mean is
checked by kabes.server.tournaments.service, which keeps each change before it is answered.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from kabes.server.common.limits import Limits
from kabes.server.common.protocol import (
    BadInput,
    EnterTournament,
    ErrorCode,
    NewTournament,
)
from kabes.server.http.callers import Callers
from kabes.server.http.http_input import read_body
from kabes.server.store.store import Store
from kabes.server.tournaments.rounds import RoundRunner
from kabes.table.creation import unknown_variant


def tournament_routes(app: FastAPI, store: Store, runner: RoundRunner, limits: Limits) -> None:
    """Add the tournament routes to ``app``, on ``runner``'s tournaments (it moves their
    rounds on, started and stopped with the server). Creating a tournament counts against
    ``limits`` as opening a table does (each round opens tables, and each tournament is a
    log in the store)."""
    service = runner.service

    callers = Callers(store)

    @app.post("/api/tournaments", status_code=201, tags=["tournaments"])
    async def create(request: Request) -> dict[str, Any]:
        """Open a tournament; the caller is its host (and has not entered it)."""
        caller = await callers.who(request)
        try:
            body = await read_body(request, NewTournament)
        except BadInput as err:
            raise (unknown_variant(err.message) if err.code == ErrorCode.BAD_VARIANT
                   else err) from None
        await limits.table(caller.player)
        return (await service.create(caller.player, caller.name, body)).document()

    @app.get("/api/tournaments", tags=["tournaments"])
    async def listed() -> dict[str, Any]:
        """The public tournaments, open or running, newest first."""
        return {"tournaments": [t.document() for t in await service.public()]}

    @app.get("/api/tournaments/{tournament}", tags=["tournaments"])
    async def one(tournament: str) -> dict[str, Any]:
        """The tournament document."""
        return (await service.state(tournament)).document()

    @app.post("/api/tournaments/{tournament}/enter", tags=["tournaments"])
    async def enter(tournament: str, request: Request) -> dict[str, Any]:
        """Enter, alone or naming a partner (team variants)."""
        caller = await callers.who(request)
        body = await read_body(request, EnterTournament)
        return (await service.enter(tournament, caller.player, caller.name, body)).document()

    @app.post("/api/tournaments/{tournament}/start", tags=["tournaments"])
    async def start(tournament: str, request: Request) -> dict[str, Any]:
        """Begin round 1 (host only)."""
        caller = await callers.who(request)
        doc = (await service.start(tournament, caller.player)).document()
        runner.started(doc["id"])
        return doc

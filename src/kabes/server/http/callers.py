"""Who is calling: the player a request's guest token names, read in one place for every
HTTP route, so each route refuses a missing or an unknown token with the same answer
(401 ``bad_token``, PROTOCOL.md) and no route writes the lookup again.

Three kinds of route ask: most need a player (:meth:`Callers.who`); a few read better with
one and serve anyone without (:meth:`Callers.maybe`, which still refuses a token the server
does not know, so a client learns its token is stale); a public page only shows more to its
own player (:meth:`Callers.if_known`, where an unknown token reads as no token, since it
asks for nothing private).

The methods are called by each route where it needs them, not declared as FastAPI
dependencies: a dependency runs before the route's other checks (a lesson that does not
exist, a language that is not one), which would change which refusal a bad request gets.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.http.http_input import bearer_token, optional_token
from kabes.server.store.store import Store


@dataclass(frozen=True, slots=True)
class Caller:
    """The player whose token a request sent."""

    player: int
    name: str


def unknown_token() -> Refused:
    """The refusal of a token the server does not know (never made, or ended by a logout)."""
    return Refused(ErrorCode.BAD_TOKEN, "this token is unknown")


@dataclass(frozen=True, slots=True)
class Callers:
    """Reads who a request comes from, on the server's store."""

    store: Store

    async def who(self, request: HTTPConnection) -> Caller:
        """The calling player; Refused ``bad_token`` (401) without a token or for one the
        server does not know."""
        found = await self.store.player_by_token(bearer_token(request))
        if found is None:
            raise unknown_token()
        return Caller(*found)

    async def maybe(self, request: HTTPConnection) -> Caller | None:
        """The calling player, or None for a request without a token; Refused
        ``bad_token`` (401) for a token the server does not know."""
        token = optional_token(request)
        if token is None:
            return None
        found = await self.store.player_by_token(token)
        if found is None:
            raise unknown_token()
        return Caller(*found)

    async def if_known(self, request: HTTPConnection) -> Caller | None:
        """The calling player, or None without a token or with one the server does not
        know: never refused."""
        token = optional_token(request)
        found = None if token is None else await self.store.player_by_token(token)
        return None if found is None else Caller(*found)

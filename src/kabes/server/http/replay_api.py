"""``GET /api/tables/{code}/replay?hand=N``: one finished hand of a match, position by position,
face up, for the replay page (/r/CODE, web/replay.js).

The positions are the engine's (``kabes.table.replays``: the record replayed, a watcher's VIEW
and every seat's tiles after the deal and after each move): the client draws them with the
table's own code and never plays the rules itself. The record is the one
``GET /api/tables/{code}/record`` answers (the hands finished so far), so a match in play
shows only its finished hands, and whoever holds a private match's code reads its replay as
they read its record.

What a stranger can cost is bounded: a hand is at most one position per tile of the set; only
the hands up to the asked one are replayed; the work runs beside the event loop (a thread), at
most :data:`AT_ONCE` at a time, so tables keep answering; and what was built is kept
(:data:`KEPT` hands, :data:`KEPT_BYTES` in all) under the record's digest, so a hand asked
again costs a look-up, and a match in play that finishes another hand is a new record.

``POST /api/tables/{code}/review?hand=N`` (a token): the expert's review of the caller's own
moves in hand N, as after a hand against the computer (the socket's ``review``, the same
answer), for a finished match or a table against the computer only (a review in the middle of
a match against people would be advice during play). It takes the workers' lane as the
socket's reviews do (``Priority.REVIEW``: after hints, never ahead of a computer's move; a full
lane is 429 ``slow_down``), and a hand reviewed is kept (:data:`KEPT` reviews), so asking
again costs nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections import OrderedDict
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import Response

from kabes.errors import BadRecord
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.compute.lane import Priority
from kabes.server.http.callers import Callers
from kabes.server.services import Services, patience
from kabes.server.table.table_requests import AskRecord, AskSummary
from kabes.table import JSON
from kabes.table.replays import NoSuchHand, hand_count, hand_replay

KEPT: Final = 64
"""Hands' positions kept, the latest asked."""
KEPT_BYTES: Final = 16 * 1024 * 1024
"""At most this many bytes of them in all."""
AT_ONCE: Final = 2
"""Hands built at the same time; others wait their turn."""
MAX_HAND: Final = 10_000
"""The highest ``hand`` read (past any match's hands)."""


class Replays:
    """The hands built, by (record digest, hand), least recently asked first."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self.size = 0
        self.turns = asyncio.Semaphore(AT_ONCE)

    def get(self, key: tuple[str, int]) -> bytes | None:
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
        return found

    def keep(self, key: tuple[str, int], body: bytes) -> None:
        if key in self.kept or len(body) > KEPT_BYTES:
            return
        self.kept[key] = body
        self.size += len(body)
        while len(self.kept) > KEPT or self.size > KEPT_BYTES:
            _, dropped = self.kept.popitem(last=False)
            self.size -= len(dropped)

    async def hand(self, record: dict[str, Any], number: int) -> bytes:
        """Hand ``number`` of ``record`` as the route's JSON body."""
        digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
        key = (digest, number)
        found = self.get(key)
        if found is not None:
            return found
        async with self.turns:
            found = self.get(key)  # built meanwhile by another request
            if found is None:
                found = await asyncio.to_thread(_built, record, number)
                self.keep(key, found)
        return found


def _built(record: dict[str, Any], number: int) -> bytes:
    return JSON.encode(hand_replay(record, number))


def hand_number(text: str | None) -> int:
    """``?hand=N`` (from 1; 1 when absent): ASCII digits only, else 422 ``bad_message``."""
    if text is None:
        return 1
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_HAND:
        raise Refused(ErrorCode.BAD_MESSAGE,
                      f"hand is a whole number from 1 to {MAX_HAND}", status=422)
    return int(text)


def replay_routes(app: FastAPI, services: Services) -> None:
    """Add the replay's routes to ``app``: the hand's positions, and its review."""
    replays = Replays()
    app.state.replays = replays
    reviews: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
    reviewing: dict[tuple[str, int, int], asyncio.Future[bytes]] = {}
    callers = Callers(services.store)

    async def finished(code: str, number: int) -> dict[str, Any]:
        """The record of table ``code``, which has a finished hand ``number``."""
        record = await services.hub.ask(code.upper(), AskRecord(), patience(services))
        if record is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r}")
        if not 1 <= number <= hand_count(record):
            raise Refused(ErrorCode.NOT_FOUND,
                          f"no finished hand {number} (finished: {hand_count(record)})")
        return dict(record)

    @app.post("/api/tables/{code}/review", tags=["tables"])
    async def review(code: str, request: Request) -> Response:
        """The expert's review of the caller's own moves in finished hand ``?hand=N``: for a
        finished match, or at a table against the computer."""
        caller = await callers.who(request)
        number = hand_number(request.query_params.get("hand"))
        summary = await services.hub.ask(code.upper(), AskSummary(), patience(services))
        if summary is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r}")
        seats = summary.get("seats") or []
        mine = [i for i, s in enumerate(seats) if s and s.get("player") == caller.player]
        if not mine:
            raise Refused(ErrorCode.NOT_SEATED, "you played no seat of this match")
        seat = mine[0]
        people = [s for s in seats if s and s.get("kind") != "computer"]
        if summary.get("status") != "over" and len(people) > 1:
            raise Refused(ErrorCode.NO_HINTS, "a match against people is reviewed once over")
        record = await finished(code, number)
        key = (hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest(), seat,
               number)
        found = reviews.get(key)
        if found is None:
            waiting = reviewing.get(key)
            if waiting is not None:
                found = await asyncio.shield(waiting)
            else:
                found = await _reviewed(record, seat, number, key)
        return Response(found, media_type="application/json")

    async def _reviewed(record: dict[str, Any], seat: int, number: int,
                        key: tuple[str, int, int]) -> bytes:
        workers = services.hub.workers
        if not workers.admit(Priority.REVIEW):
            raise Refused(ErrorCode.SLOW_DOWN, "the expert is busy with other reviews; ask "
                          "again in a moment")
        done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        reviewing[key] = done
        try:
            moves = await workers.review(record, seat, number, secrets.randbits(64),
                                         services.settings.review_budget)
            body = JSON.encode({"type": "review", "hand": number, "moves": moves})
            reviews[key] = body
            while len(reviews) > KEPT:
                reviews.popitem(last=False)
            done.set_result(body)
            return body
        except Exception as err:
            done.set_exception(Refused(ErrorCode.UNAVAILABLE, "no review now; try again"))
            done.exception()  # retrieved: those waiting get it, nobody else must
            if isinstance(err, Refused):
                raise
            raise Refused(ErrorCode.UNAVAILABLE, "no review now; try again") from None
        finally:
            reviewing.pop(key, None)
            workers.leave(Priority.REVIEW)

    @app.get("/api/tables/{code}/replay", tags=["tables"])
    async def replay(code: str, request: Request) -> Response:
        """One finished hand of the match, position by position, every hand face up
        (``?hand=N``, from 1): 404 ``not_found`` for no such table or no such finished hand."""
        number = hand_number(request.query_params.get("hand"))
        record = await finished(code, number)
        try:
            body = await replays.hand(record, number)
        except (NoSuchHand, BadRecord) as err:
            raise Refused(ErrorCode.NOT_FOUND, str(err)) from None
        return Response(body, media_type="application/json")

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
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import Response

from kabes.errors import BadRecord
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.services import Services, patience
from kabes.server.table.table_requests import AskRecord
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
    """Add the replay route to ``app``."""
    replays = Replays()
    app.state.replays = replays

    @app.get("/api/tables/{code}/replay", tags=["tables"])
    async def replay(code: str, request: Request) -> Response:
        """One finished hand of the match, position by position, every hand face up
        (``?hand=N``, from 1): 404 ``not_found`` for no such table or no such finished hand."""
        number = hand_number(request.query_params.get("hand"))
        record = await services.hub.ask(code.upper(), AskRecord(), patience(services))
        if record is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r}")
        if not 1 <= number <= hand_count(record):
            raise Refused(ErrorCode.NOT_FOUND,
                          f"no finished hand {number} (finished: {hand_count(record)})")
        try:
            body = await replays.hand(dict(record), number)
        except (NoSuchHand, BadRecord) as err:
            raise Refused(ErrorCode.NOT_FOUND, str(err)) from None
        return Response(body, media_type="application/json")

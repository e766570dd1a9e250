"""Puzzles over HTTP (PROTOCOL.md, "Puzzles"): the daily puzzle, the next one near a player's
puzzle rating, and a try.

A puzzle goes out as a seat's VIEW (``legal`` filled) with the hand's moves so far, never
with its solution or proof: those come back only in the answer to a try. A try is judged by
the puzzle's own rule (``Puzzle.solves``: the same tile in the same place as a solving move,
however it is written); a move that is not legal in the view is refused (422
``illegal_move``) and changes nothing. Only a player's first try of a puzzle is kept and
moves the ratings (kabes.server.store.puzzles); a later one is answered all the same.

"Today" is the date in the server's time zone, so the daily puzzle turns over at the local
midnight of the server, the same for everyone.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from fastapi import FastAPI, Request

from kabes.puzzles.model import Puzzle, move_class
from kabes.rules import VARIANTS
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.http.callers import Callers
from kabes.server.http.http_input import read_body
from kabes.server.store.puzzles import public_puzzle
from kabes.server.store.store import Store


class PuzzleTry(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/puzzles/{id}/try``: the move, in record notation."""

    move: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


def local_today() -> str:
    """Today's date (ISO) in the server's time zone."""
    return datetime.datetime.now().astimezone().date().isoformat()


def _variant(request: Request) -> str | None:
    """The ``?variant=V`` asked for, or None; Refused ``bad_variant`` for an unknown one."""
    name = request.query_params.get("variant")
    if name is None:
        return None
    if name not in VARIANTS:
        raise Refused(ErrorCode.BAD_VARIANT, f"no variant {name!r}", status=404)
    return name


def _none_left(what: str) -> Refused:
    return Refused(ErrorCode.NOT_FOUND, what)


def is_legal(puzzle: Puzzle, move: str) -> bool:
    """Whether ``move`` is one of the view's legal moves, however it is written (the same
    tile in the same place: ``6-3@L`` is ``3-6@L``)."""
    ends = puzzle.view.get("ends")
    wanted = move_class(move, ends)
    return wanted is not None and any(
        move_class(str(legal), ends) == wanted for legal in puzzle.view.get("legal") or [])


def puzzle_routes(app: FastAPI, store: Store, today: Callable[[], str] = local_today) -> None:
    """Add the puzzle routes to ``app``; ``today`` names the date (the server's, by
    default)."""

    callers = Callers(store)
    kept = store.puzzles

    @app.get("/api/puzzles/daily", tags=["puzzles"])
    async def daily(request: Request) -> dict[str, Any]:
        """Today's puzzle (of ``?variant=V``, else of any variant): the same for everyone
        on this date."""
        variant = _variant(request)
        day = today()
        found = await kept.daily(day, variant)
        if found is None:
            raise _none_left("no puzzles are stored" + (f" for {variant}" if variant else ""))
        key, data = found
        return public_puzzle(key, data, day)

    @app.get("/api/puzzles/next", tags=["puzzles"])
    async def next_puzzle(request: Request) -> dict[str, Any]:
        """A puzzle the caller has not tried, near their puzzle rating (``?variant=V`` to
        keep to one variant)."""
        caller = await callers.who(request)
        variant = _variant(request)
        found = await kept.next_for(caller.player, variant)
        if found is None:
            raise _none_left("no puzzle is left that you have not tried")
        key, data = found
        return public_puzzle(key, data, today())

    @app.post("/api/puzzles/{key}/try", tags=["puzzles"])
    async def try_puzzle(key: str, request: Request) -> dict[str, Any]:
        """Judge a move: whether it solves the puzzle, the solution and its proof, and the
        caller's puzzle rating (moved by their first try only)."""
        caller = await callers.who(request)
        data = await kept.get(key)
        if data is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no puzzle {key!r}")
        move = (await read_body(request, PuzzleTry)).move
        puzzle = Puzzle.from_dict(data)
        if not is_legal(puzzle, move):
            raise Refused(ErrorCode.ILLEGAL_MOVE,
                          f"{move!r} is not one of the legal moves "
                          f"{', '.join(puzzle.view.get('legal') or [])}", status=422)
        correct = puzzle.solves(move)
        tried = await kept.attempt(caller.player, key, move, correct)
        return {"correct": correct, "solution": list(puzzle.solution),
                "proof": puzzle.proof.to_dict(), "rating": tried.card["rating"]}

"""Table states for looking at the page without playing up to them: the engine plays a
match with quick computer players until a condition holds, and the seat's view is turned
into the wire's JSON by the server's own serializer. Used by fake_table() in helpers.py."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from kabes.ai import make_player
from kabes.match import Match
from kabes.moves import TIMEOUT
from kabes.table.messages import Clock, Pause
from kabes.table.wire import view_json
from kabes.views import View, view


def summary(
    code: str,
    match: Match,
    names: list[str],
    computers: dict[int, str] | None = None,
    status: str = "playing",
) -> dict[str, Any]:
    computers = computers or {}
    seats = []
    for seat in range(match.players):
        level = computers.get(seat)
        seats.append(
            {
                "seat": seat,
                "name": level.capitalize() if level else names[seat % len(names)],
                "player": None if level else seat + 1,
                "kind": "computer" if level else "person",
                "level": level,
                "connected": seat != 3,
                "left": False,
            }
        )
    options = {
        "target": match.options.target,
        "open_ended": match.options.open_ended,
        "hands": match.options.hands,
        "mexican_train": getattr(match.options, "mexican_train", False),
    }
    return {
        "code": code,
        "variant": match.variant,
        "players": match.players,
        "options": options,
        "host": 0,
        "status": status,
        "seats": seats,
        "next_table": None,
    }


def play_until(
    variant: str,
    players: int,
    stop: Callable[[Match, View], bool],
    seed: int = 1,
    options: dict[str, Any] | None = None,
    seat: int = 0,
    max_moves: int = 2000,
) -> Match:
    """Plays (casual level, seeded) until stop(match, view of seat) holds at seat's turn or
    between hands."""
    rng = Random(seed)
    match = Match(variant, players, options, rng)
    player = make_player("casual", rng)
    match.deal_hand()
    for _ in range(max_moves):
        v = view(match, seat)
        if (match.turn == seat or not match.hand_in_progress) and stop(match, v):
            return match
        if match.over:
            return match
        if not match.hand_in_progress:
            match.deal_hand()
            continue
        mover = match.turn
        assert mover is not None
        try:
            match.apply(mover, player.choose(view(match, mover)))
        except Exception:
            match.apply(mover, TIMEOUT)
    return match


def state(match: Match, seat: int = 0, clock_ms: int = 31000) -> dict[str, Any]:
    v = view(match, seat)
    clock = (
        None
        if v.turn is None
        else Clock(seat=v.turn, remaining_ms=clock_ms, away=False, total_ms=45000)
    )
    pause = (
        None if match.hand_in_progress or match.over else Pause(remaining_ms=24000, total_ms=30000)
    )
    return view_json(v, clock, pause)

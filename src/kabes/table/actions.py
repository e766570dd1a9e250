"""What each action of a seat asks of a table, checked against the table's state.

Pure: each function reads a :class:`~kabes.table.state.TableState` and the action's own values
(a move's text, a seat), never a decoded message, and returns the log entry the action makes
(its kind and data), or raises :class:`~kabes.table.refusals.Refused` with the protocol's
code and nothing changed. Whoever drives the table (the server's actor) commits what these
return; the engine has the last word on a move when the entry is applied.
"""

from __future__ import annotations

import random
from typing import Any

from kabes.errors import BadMove
from kabes.moves import Timeout
from kabes.rules import get_rules
from kabes.table.refusals import ErrorCode, Refused
from kabes.table.state import Status, TableState, read_move

EntryData = tuple[str, dict[str, Any]]
"""A log entry to make: its kind and its data."""


def play(state: TableState, seat: int, text: str) -> EntryData:
    """``seat`` plays ``text`` (record notation), once the engine would read it."""
    if state.status != Status.PLAYING or state.match is None:
        raise Refused(ErrorCode.NOT_NOW, "no hand is being played")
    if seat != state.turn:
        raise Refused(ErrorCode.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn",
                      "not_your_turn", {"seat": seat, "turn": state.turn})
    try:
        move = read_move(text, state.match.rules.top)
    except BadMove as err:
        raise Refused(ErrorCode.ILLEGAL_MOVE, err.message, err.reason, err.facts) from None
    if isinstance(move, Timeout):
        raise Refused(ErrorCode.ILLEGAL_MOVE, "'timeout' is the table's move, not a player's",
                      "table_move", {"move": "timeout"})
    return "move", {"seat": seat, "move": str(move)}


def _host(state: TableState, seat: int) -> None:
    if seat != state.host:
        raise Refused(ErrorCode.NOT_HOST, "only the host may do that")


def start(state: TableState, seat: int, rng: random.Random) -> EntryData:
    """The host starts the match, once every seat is taken (never a tournament's table,
    which starts by itself)."""
    _host(state, seat)
    if state.tournament is not None:
        raise Refused(ErrorCode.NOT_NOW, "a tournament table starts by itself")
    if state.status != Status.WAITING:
        raise Refused(ErrorCode.NOT_NOW, "the match has already started")
    if state.free_seats:
        raise Refused(ErrorCode.NOT_NOW, f"seat {state.free_seats[0]} is still free")
    return "started", new_deal(state, rng)


def next_hand(state: TableState, seat: int, rng: random.Random) -> EntryData:
    """The host deals the next hand now, between hands."""
    _host(state, seat)
    if state.status != Status.BETWEEN_HANDS:
        raise Refused(ErrorCode.NOT_NOW, "the next hand is dealt only between hands")
    return "dealt", new_deal(state, rng)


def finish(state: TableState, seat: int) -> EntryData:
    """The host ends an open-ended match, between hands."""
    _host(state, seat)
    if state.match is None or not state.match.options.open_ended:
        raise Refused(ErrorCode.NOT_NOW, "only an open-ended table can be finished by its host")
    if state.status != Status.BETWEEN_HANDS:
        raise Refused(ErrorCode.NOT_NOW, "the match can be finished only between hands")
    return "finish", {}


def leave(state: TableState, seat: int) -> EntryData:
    """``seat`` gives up its seat; a host hands the table to the first to have sat down among
    those who stay (before the start, with nobody staying, the table closes)."""
    if state.status == Status.OVER:
        raise Refused(ErrorCode.NOT_NOW, "the match is over")
    if state.tournament is not None and state.status == Status.WAITING:
        # Freed, the seat would keep the table from ever starting: the round would stall.
        raise Refused(ErrorCode.NOT_NOW, "a tournament seat is kept until the match starts")
    sitter = state.seats[seat]
    data: dict[str, Any] = {"seat": seat}
    if sitter is not None and sitter.player is not None:
        # whose waiting seat is freed (kabes.server.table.seat_holds)
        data["player"] = sitter.player
    if seat == state.host:
        data["host"] = state.next_host(seat)
        if data["host"] is None:
            data["host"] = seat
            data["closed"] = state.status == Status.WAITING
    return "left", data


def remove(state: TableState, seat: int, target: int) -> EntryData:
    """The host, before the start, frees ``target``'s seat; its player may not sit here
    again (:func:`join`)."""
    if seat != state.host:
        raise Refused(ErrorCode.NOT_HOST, "only the host may remove a player")
    if state.match is not None:
        raise Refused(ErrorCode.STARTED, "the match has started: nobody can be removed")
    if state.status != Status.WAITING:
        raise Refused(ErrorCode.NOT_NOW, "this table is closed")
    if target >= state.players:
        raise Refused(ErrorCode.BAD_MESSAGE, f"there is no seat {target} at this table")
    if target == seat:
        raise Refused(ErrorCode.BAD_MESSAGE, "a host cannot remove themselves; leave instead")
    sitter = state.seats[target]
    if sitter is None or not sitter.person:
        raise Refused(ErrorCode.NOT_SEATED, f"no person sits at seat {target}")
    return "removed", {"seat": target, "player": sitter.player}


def join(state: TableState, player: int, name: str) -> EntryData | int:
    """A person asks for a seat: the seat they already hold, or the entry that seats them at
    the lowest free seat (never for a player the host removed)."""
    held = state.seat_of(player)
    if held is not None:
        return held
    if player in state.removed:
        raise Refused(ErrorCode.REMOVED, "the host removed you from this table")
    if state.status == Status.OVER and state.match is None:
        raise Refused(ErrorCode.STARTED, "this table was closed before its match began")
    if state.status != Status.WAITING:
        raise Refused(ErrorCode.STARTED, "the match began without you")
    free = state.free_seats
    if not free:
        raise Refused(ErrorCode.TABLE_FULL, "every seat at this table is taken")
    return "joined", {"seat": free[0], "player": player, "name": name}


def play_again(state: TableState) -> None:
    """Whether the match may be opened again now (else Refused)."""
    if state.status != Status.OVER or state.match is None:
        raise Refused(ErrorCode.NOT_NOW, "play again once the match is over")


def new_deal(state: TableState, rng: random.Random) -> dict[str, Any]:
    """Shuffle and deal the next hand (drawing for the lead first where the rules say); the
    tiles dealt and the stock in draw order are the entry's, never a seed."""
    rules = get_rules(state.variant)
    leader = None
    if rules.draws_for_lead(state.rules_match.state):
        leader, _ = rules.draw_for_lead(rng, state.players)
    deal, stock = rules.deal(rng, state.players)
    return {
        "deal": [[str(t) for t in hand] for hand in deal],
        "stock": [str(t) for t in stock],
        "leader": leader,
    }

"""The socket's refusals carry the engine's structure, and the end of a hand explains itself.

A refused move is ``{"type": "error", "id", "code": "illegal_move", "message", "reason",
"facts"}`` (additions to PROTOCOL.md, docs/server.md): ``reason`` and ``facts`` are the
engine's (kabes.errors), so that every client words the refusal in its own language. A
``not_your_turn`` names whose turn it is. ``last_hand`` carries the result's ``counts`` and
the hand's ``explanation`` (kabes.explain).
"""

from __future__ import annotations

from typing import Any

from harness import Server, fresh
from test_server_protocol import act, play_out_hand, play_turn, same_state, seat_people

from kabes.explain import CODES


async def after_the_lead(server: Server) -> tuple[Any, int, dict[str, Any]]:
    """A 2-player Haitian table past its lead: the sockets, the seat to move, its update."""
    table = await seat_people(server, 2, start=True)
    await play_turn(table.socks)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    return table, turn, await fresh(table.socks[turn])


async def test_a_tile_not_held_is_refused_with_reason_not_held_and_its_facts(
    server: Server,
) -> None:
    table, turn, before = await after_the_lead(server)
    view = before["view"]
    every = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    tile = next(t for t in every if t not in view["hand"] and t not in view["line"])
    refused = await act(table.socks[turn], "play", move=f"{tile}@R")
    assert refused["code"] == "illegal_move"
    assert refused["message"] == f"seat {turn} does not hold {tile}"
    assert refused["reason"] == "not_held"
    assert refused["facts"] == {"seat": turn, "tile": tile}
    same_state(before, await fresh(table.socks[turn]))


async def test_an_unreadable_move_is_refused_with_reason_unreadable(server: Server) -> None:
    table, turn, before = await after_the_lead(server)
    refused = await act(table.socks[turn], "play", move="pass")
    assert (refused["code"], refused["reason"]) == ("illegal_move", "unreadable")
    assert refused["facts"] == {"move": "pass"}
    same_state(before, await fresh(table.socks[turn]))


async def test_timeout_sent_by_a_player_is_refused_with_reason_table_move(
    server: Server,
) -> None:
    table, turn, _ = await after_the_lead(server)
    refused = await act(table.socks[turn], "play", move="timeout")
    assert (refused["code"], refused["reason"]) == ("illegal_move", "table_move")
    assert refused["facts"] == {"move": "timeout"}


async def test_playing_out_of_turn_names_whose_turn_it_is(server: Server) -> None:
    table, turn, before = await after_the_lead(server)
    idle = 1 - turn
    refused = await act(table.socks[idle], "play", move=before["view"]["line"][0])
    assert (refused["code"], refused["reason"]) == ("not_your_turn", "not_your_turn")
    assert refused["facts"] == {"seat": idle, "turn": turn}


async def test_other_refusals_keep_the_protocols_shape(server: Server) -> None:
    table = await seat_people(server, 2)
    refused = await act(table.socks[1], "start")
    assert set(refused) == {"type", "id", "code", "message"}
    assert refused["code"] == "not_host"


async def test_last_hand_carries_counts_and_the_explanation(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    ended = await play_out_hand(table.socks)
    last = ended["view"]["last_hand"]
    pips = [sum(int(n) for t in hand for n in t.split("-")) for hand in last["hands"]]
    assert last["result"]["counts"] == pips
    explanation = last["explanation"]
    assert explanation and {step["code"] for step in explanation} <= CODES
    shown = next(step for step in explanation if step["code"] == "counts")
    assert shown["facts"]["counts"] == pips
    assert "winner_points" in {step["code"] for step in explanation}  # 2 players: +10 or +15

"""The clock rule (PROTOCOL.md guarantee 4, RULES.md) on the fake clock: 45 s a turn, then the
table plays the first fitting tile for the seat, recorded as ``timeout``; 5 s for a seat with no
socket, never more than the turn had left, and no time given back on return; 30 s between hands
unless the host deals or finishes; the view's ``clock`` and ``pause`` count down exactly as the
clock moves. Steps are binary fractions of a second, so the fake time adds up exactly.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from harness import Server, Socket, fresh, running, sqlite_url

from kabes.records import replay
from kabes.server.common.config import Settings
from kabes.server.table.clock import Alarm, FakeClock
from kabes.table import wire

_ids = itertools.count()


# Helpers -----------------------------------------------------------------------------------


async def act(sock: Socket, kind: str, **fields: Any) -> dict[str, Any]:
    """Send an action with a fresh id; its ack or error."""
    action_id = f"c{next(_ids)}"
    sock.send({"type": kind, "id": action_id, **fields})
    while True:
        message = await sock.recv()
        if message["type"] in ("ack", "error") and message.get("id") == action_id:
            return message


async def at_seq(sock: Socket, seq: int) -> dict[str, Any]:
    """The socket's update for change ``seq`` (already received, or read on until it comes)."""
    message: dict[str, Any]
    for message in reversed(sock.log):
        if message["type"] == "update" and message["seq"] == seq:
            return message
    return await sock.until("update", seq=seq)


async def until_event(sock: Socket, event: dict[str, Any]) -> dict[str, Any]:
    """The next update whose events include ``event``."""
    while True:
        update = await sock.until("update")
        if event in update["events"]:
            return update


async def play(sock: Socket, move: str) -> dict[str, Any]:
    """Play ``move``; the ack."""
    acked = await act(sock, "play", move=move)
    assert acked["type"] == "ack", acked
    return acked


async def play_turn(socks: list[Socket], seq: int) -> dict[str, Any]:
    """After change ``seq``, the seat to move plays its first legal move; the ack."""
    turn = (await at_seq(socks[0], seq))["view"]["turn"]
    mine = await at_seq(socks[turn], seq)
    return await play(socks[turn], mine["view"]["legal"][0])


async def play_out_hand(socks: list[Socket]) -> dict[str, Any]:
    """Both people play their first legal move until the hand ends; the update after it."""
    seq = (await fresh(socks[0]))["seq"]
    while True:
        update = await at_seq(socks[0], seq)
        if update["table"]["status"] != "playing":
            return update
        seq = (await play_turn(socks, seq))["seq"]


async def two_people(server: Server, **options: Any) -> tuple[str, list[str], list[Socket]]:
    """A started haitian table of two people (open-ended, as tables of people are): its
    code, the tokens and one socket per seat."""
    tokens = [(await server.guest(name))[1] for name in ("Roselène", "Jacmel")]
    body: dict[str, Any] = {"variant": "haitian", "players": 2}
    if options:
        body["options"] = options
    code = (await server.open_table(tokens[0], **body))["code"]
    await server.join(tokens[1], code)
    socks = [(await server.connect(code, token))[0] for token in tokens]
    assert (await act(socks[0], "start"))["type"] == "ack"
    return code, tokens, socks


def first_fit(view: dict[str, Any]) -> tuple[str, str]:
    """RULES.md's first-fit move for the seat of ``view``: the first tile of the hand as shown
    (ascending) that fits the line, on the left end if it fits there: that tile as the hand
    shows it, and the move as the table writes it."""
    left, right = view["ends"]
    for tile in view["hand"]:
        halves = {int(n) for n in tile.split("-")}
        for end, number in (("L", left), ("R", right)):
            if number in halves:
                return tile, written_as_legal(view, halves, end)
    raise AssertionError("no tile fits")


def written_as_legal(view: dict[str, Any], halves: set[int], end: str) -> str:
    """The view's own ``legal`` entry for that tile on that end: the table writes a move as its
    legal list does (which half first is the notation's choice, not the rule's)."""
    for move in view["legal"]:
        tile, _, where = move.partition("@")
        if {int(n) for n in tile.split("-")} == halves and where == end:
            return str(move)
    raise AssertionError(f"{sorted(halves)}@{end} is not among the legal moves {view['legal']}")


def clock(update: dict[str, Any]) -> dict[str, Any]:
    """The view's clock (checked to be there), with the fields PROTOCOL.md names."""
    running_clock: dict[str, Any] | None = update["view"]["clock"]
    assert running_clock is not None, "no clock is running"
    return {name: running_clock[name] for name in ("seat", "remaining_ms", "away")}


def pause(update: dict[str, Any]) -> dict[str, Any] | None:
    """The view's pause, with the fields PROTOCOL.md names."""
    between: dict[str, Any] | None = update["view"]["pause"]
    return None if between is None else {"remaining_ms": between["remaining_ms"]}


# The turn clock ----------------------------------------------------------------------------


async def test_after_45_seconds_the_table_plays_the_first_fitting_tile_recorded_as_timeout(
    server: Server,
) -> None:
    code, _, socks = await two_people(server)
    seq = (await fresh(socks[0]))["seq"]
    seq = (await play_turn(socks, seq))["seq"]  # the lead: one tile, no choice
    while True:  # on to a turn with a choice, so first-fit means something
        turn = (await at_seq(socks[0], seq))["view"]["turn"]
        mine = await at_seq(socks[turn], seq)
        if len(mine["view"]["legal"]) >= 2:
            break
        seq = (await play(socks[turn], mine["view"]["legal"][0]))["seq"]
    tile, expected = first_fit(mine["view"])
    assert clock(mine) == {"seat": turn, "remaining_ms": 45000, "away": False}
    await server.advance(44.5)
    waiting = await fresh(socks[turn])
    assert waiting["seq"] == seq
    assert clock(waiting) == {"seat": turn, "remaining_ms": 500, "away": False}
    await server.advance(0.5)
    timed = await at_seq(socks[1 - turn], seq + 1)
    assert timed["view"]["played"][-1] == [turn, expected]
    assert {"kind": "played", "seat": turn, "tile": tile, "move": expected,
            "timeout": True} in timed["events"]
    assert clock(timed) == {"seat": 1 - turn, "remaining_ms": 45000, "away": False}
    moves_before = len(mine["view"]["played"])
    await play_out_hand(socks)
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    moves = record["hands"][0]["moves"]
    assert moves[moves_before] == "timeout"
    assert moves.count("timeout") == 1
    replayed: list[dict[str, Any]] = []
    match = replay(record, lambda events: replayed.extend(
        wire.event_json(e) for e in events if e.kind == "played"))
    # The record's "timeout" replays to the very tile the table played.
    assert replayed[moves_before]["move"] == expected
    assert replayed[moves_before]["timeout"] is True
    assert match.log[0].result is not None
    assert match.log[0].result.to_json() == record["hands"][0]["result"]


async def test_a_timed_out_lead_lays_the_first_tile_of_the_hand(server: Server) -> None:
    _, _, socks = await two_people(server)
    await play_out_hand(socks)
    assert (await act(socks[0], "next_hand"))["type"] == "ack"
    dealt = await fresh(socks[0])
    turn = dealt["view"]["turn"]
    leader = await fresh(socks[turn])
    assert leader["view"]["line"] is None and len(leader["view"]["legal"]) > 1  # any tile
    first = leader["view"]["hand"][0]
    await server.advance(45)
    after = await at_seq(socks[turn], dealt["seq"] + 1)
    assert after["view"]["line"] == [first]  # the lower number on the left
    assert after["view"]["played"] == [[turn, first]]


async def test_the_clock_counts_down_exactly_as_time_passes_for_every_seat(
    server: Server,
) -> None:
    _, _, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    assert clock(start) == {"seat": turn, "remaining_ms": 45000, "away": False}
    assert start["view"]["pause"] is None
    await server.advance(12.25)
    for sock in socks:
        now = await fresh(sock)
        assert now["seq"] == start["seq"]
        assert clock(now) == {"seat": turn, "remaining_ms": 32750, "away": False}
    await server.advance(0.001)
    assert clock(await fresh(socks[0]))["remaining_ms"] == 32749


async def test_a_move_starts_the_next_seat_on_a_full_45_seconds(server: Server) -> None:
    _, _, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    await server.advance(30)
    acked = await play_turn(socks, start["seq"])
    after = await at_seq(socks[0], acked["seq"])
    assert clock(after) == {"seat": 1 - turn, "remaining_ms": 45000, "away": False}


# Away seats --------------------------------------------------------------------------------


async def away_turn(server: Server) -> tuple[list[str], list[Socket], int, dict[str, Any]]:
    """Two people; the seat not to move disconnects, then the other plays, so the away seat
    is to move. The tokens, the sockets, the away seat, and the update of its turn's start."""
    _, tokens, socks = await two_people(server)
    start = await fresh(socks[0])
    here = start["view"]["turn"]
    away = 1 - here
    socks[away].disconnect()
    gone = await until_event(socks[here], {"kind": "disconnected", "seat": away})
    mine = await at_seq(socks[here], gone["seq"])
    acked = await play(socks[here], mine["view"]["legal"][0])
    return tokens, socks, away, await at_seq(socks[here], acked["seq"])


async def test_a_disconnected_seats_turn_runs_out_after_5_seconds(server: Server) -> None:
    _, socks, away, turn_start = await away_turn(server)
    here = socks[1 - away]
    assert turn_start["view"]["turn"] == away
    assert clock(turn_start) == {"seat": away, "remaining_ms": 5000, "away": True}
    assert turn_start["table"]["seats"][away]["connected"] is False
    await server.advance(4.5)
    waiting = await fresh(here)
    assert waiting["seq"] == turn_start["seq"]
    assert clock(waiting) == {"seat": away, "remaining_ms": 500, "away": True}
    await server.advance(0.5)
    timed = await at_seq(here, turn_start["seq"] + 1)
    assert timed["view"]["played"][-1][0] == away
    assert any(e["kind"] == "played" and e.get("timeout") for e in timed["events"])


async def test_a_seat_disconnecting_mid_turn_with_more_than_5_seconds_left_gets_5_from_then(
    server: Server,
) -> None:
    _, _, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    other = socks[1 - turn]
    await server.advance(10)
    socks[turn].disconnect()
    gone = await until_event(other, {"kind": "disconnected", "seat": turn})
    assert clock(gone) == {"seat": turn, "remaining_ms": 5000, "away": True}
    await server.advance(4.5)
    waiting = await fresh(other)
    assert waiting["seq"] == gone["seq"]
    assert clock(waiting) == {"seat": turn, "remaining_ms": 500, "away": True}
    await server.advance(0.5)
    timed = await at_seq(other, gone["seq"] + 1)
    assert timed["view"]["played"][-1][0] == turn


async def test_a_seat_disconnecting_with_less_than_5_seconds_left_keeps_only_what_it_had(
    server: Server,
) -> None:
    _, _, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    other = socks[1 - turn]
    await server.advance(42)
    socks[turn].disconnect()
    gone = await until_event(other, {"kind": "disconnected", "seat": turn})
    assert clock(gone) == {"seat": turn, "remaining_ms": 3000, "away": True}
    await server.advance(2.5)
    assert (await fresh(other))["seq"] == gone["seq"]
    await server.advance(0.5)
    timed = await at_seq(other, gone["seq"] + 1)
    assert timed["view"]["played"][-1][0] == turn


async def test_coming_back_mid_turn_never_gives_back_time_already_spent(server: Server) -> None:
    code, tokens, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    other = socks[1 - turn]
    await server.advance(10)
    socks[turn].disconnect()
    await until_event(other, {"kind": "disconnected", "seat": turn})
    await server.advance(3)
    back, _ = await server.connect(code, tokens[turn])
    returned = await until_event(back, {"kind": "connected", "seat": turn})
    # The turn ends where it always would have: 45 s after it began, not 45 s from now.
    assert clock(returned) == {"seat": turn, "remaining_ms": 32000, "away": False}
    told = await until_event(other, {"kind": "connected", "seat": turn})
    assert clock(told)["remaining_ms"] == 32000
    await server.advance(31.5)
    # The return reached the log once the seat's 10 s were over (docs/server.md): one entry
    # that changes no clock.
    logged = await fresh(other)
    assert logged["seq"] == returned["seq"] + 1 and clock(logged)["remaining_ms"] == 500
    await server.advance(0.5)
    timed = await at_seq(other, returned["seq"] + 2)
    assert timed["view"]["played"][-1][0] == turn


async def test_going_away_again_after_coming_back_gives_5_seconds_from_then(
    server: Server,
) -> None:
    code, tokens, socks = await two_people(server)
    start = await fresh(socks[0])
    turn = start["view"]["turn"]
    other = socks[1 - turn]
    await server.advance(2)
    socks[turn].disconnect()
    await until_event(other, {"kind": "disconnected", "seat": turn})
    await server.advance(2)
    back, _ = await server.connect(code, tokens[turn])
    await until_event(back, {"kind": "connected", "seat": turn})
    await server.advance(8)  # at 12 s, the 10 s after its going are over: its return logged
    await server.advance(8)
    back.disconnect()
    gone = await until_event(other, {"kind": "disconnected", "seat": turn})
    # Told at once; the log, told of this seat's return 8 s ago (at the end of the 10 s
    # after its going), hears of it 2 s later, with the moment it went: the 5 s count
    # from then (docs/server.md, "A table's log holds the game").
    assert clock(gone) == {"seat": turn, "remaining_ms": 25000, "away": False}
    await server.advance(2)
    logged = await fresh(other)
    assert logged["seq"] == gone["seq"] + 1
    assert clock(logged) == {"seat": turn, "remaining_ms": 3000, "away": True}
    await server.advance(3)
    timed = await at_seq(other, gone["seq"] + 2)
    assert timed["view"]["played"][-1][0] == turn


async def test_a_seat_away_before_its_turn_coming_back_gets_the_rest_of_the_45_seconds(
    server: Server,
) -> None:
    tokens, socks, away, turn_start = await away_turn(server)
    here = socks[1 - away]
    code = turn_start["table"]["code"]
    await server.advance(3)
    back, _ = await server.connect(code, tokens[away])
    returned = await until_event(back, {"kind": "connected", "seat": away})
    assert clock(returned) == {"seat": away, "remaining_ms": 42000, "away": False}
    told = await until_event(here, {"kind": "connected", "seat": away})
    assert clock(told)["remaining_ms"] == 42000  # its return is held from the log a while
    await server.advance(41.5)
    assert (await fresh(here))["seq"] == returned["seq"] + 1  # then logged, once
    await server.advance(0.5)
    timed = await at_seq(here, returned["seq"] + 2)
    assert timed["view"]["played"][-1][0] == away


# Between hands -----------------------------------------------------------------------------


async def test_after_a_30_second_pause_between_hands_the_next_hand_is_dealt(
    server: Server,
) -> None:
    _, _, socks = await two_people(server)
    ended = await play_out_hand(socks)
    assert ended["table"]["status"] == "between_hands"
    assert pause(ended) == {"remaining_ms": 30000}
    assert ended["view"]["clock"] is None and ended["view"]["turn"] is None
    assert ended["view"]["last_hand"] is not None
    await server.advance(29.5)
    waiting = await fresh(socks[1])
    assert waiting["seq"] == ended["seq"]
    assert pause(waiting) == {"remaining_ms": 500}
    await server.advance(0.5)
    dealt = await at_seq(socks[1], ended["seq"] + 1)
    assert dealt["table"]["status"] == "playing"
    assert dealt["view"]["hand_number"] == 2 and dealt["view"]["hands_played"] == 1
    assert dealt["view"]["pause"] is None and dealt["view"]["last_hand"] is None
    assert clock(dealt) == {"seat": dealt["view"]["turn"], "remaining_ms": 45000, "away": False}


async def test_next_hand_deals_at_once_and_the_pause_is_forgotten(server: Server) -> None:
    _, _, socks = await two_people(server)
    ended = await play_out_hand(socks)
    await server.advance(10)
    acked = await act(socks[0], "next_hand")
    assert acked["type"] == "ack" and acked["seq"] == ended["seq"] + 1
    dealt = await at_seq(socks[1], acked["seq"])
    assert dealt["table"]["status"] == "playing" and dealt["view"]["hand_number"] == 2
    assert dealt["view"]["pause"] is None
    assert clock(dealt)["remaining_ms"] == 45000
    await server.advance(20)  # when the pause would have ended: nothing is dealt again
    now = await fresh(socks[1])
    assert now["seq"] == dealt["seq"]
    assert clock(now)["remaining_ms"] == 25000


async def test_finish_between_hands_ends_an_open_ended_match(server: Server) -> None:
    code, _, socks = await two_people(server)
    ended = await play_out_hand(socks)
    assert ended["table"]["options"]["open_ended"] is True
    acked = await act(socks[0], "finish")
    assert acked["type"] == "ack"
    over = await at_seq(socks[1], acked["seq"])
    assert over["table"]["status"] == "over"
    assert {"kind": "finished"} in over["events"]
    assert over["view"]["result"]["finished"] is True
    assert over["view"]["pause"] is None and over["view"]["clock"] is None
    assert over["view"]["last_hand"] is not None  # the last hand stays face up
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    assert record["result"] == over["view"]["result"]
    assert record["result"]["finished"] is True
    assert len(record["hands"]) == 1
    await server.advance(60)  # no pause runs any more: nothing is dealt
    assert (await fresh(socks[1]))["seq"] == over["seq"]
    refused = await act(socks[0], "next_hand")
    assert refused["type"] == "error" and refused["code"] == "not_now"


# Settings ----------------------------------------------------------------------------------


async def test_the_clocks_follow_the_servers_settings(tmp_path: Path) -> None:
    settings = Settings(turn_seconds=10, away_seconds=2, pause_seconds=3,
                        computer_delay=0.0, expert_budget=0.02, hint_budget=0.02)
    async with running(sqlite_url(tmp_path), settings) as server:
        _, _, socks = await two_people(server)
        start = await fresh(socks[0])
        turn = start["view"]["turn"]
        assert clock(start)["remaining_ms"] == 10000
        await server.advance(9.5)
        assert (await fresh(socks[0]))["seq"] == start["seq"]
        await server.advance(0.5)
        timed = await at_seq(socks[0], start["seq"] + 1)
        assert [seat for seat, _ in timed["view"]["played"]] == [turn]
        mover = 1 - turn
        await server.advance(5)
        socks[mover].disconnect()
        gone = await until_event(socks[turn], {"kind": "disconnected", "seat": mover})
        assert clock(gone) == {"seat": mover, "remaining_ms": 2000, "away": True}
        ended = await play_out_hand_against_the_clock(server, socks[turn], turn)
        assert pause(ended) == {"remaining_ms": 3000}
        await server.advance(3)
        dealt = await at_seq(socks[turn], ended["seq"] + 1)
        assert dealt["view"]["hand_number"] == 2


async def play_out_hand_against_the_clock(
    server: Server, sock: Socket, seat: int
) -> dict[str, Any]:
    """``seat`` plays its first legal move; the away seat is played for by its clock."""
    while True:
        now = await fresh(sock)
        if now["table"]["status"] != "playing":
            return now
        if now["view"]["turn"] == seat:
            await play(sock, now["view"]["legal"][0])
        else:
            await server.advance(2)


async def test_a_computer_seat_waits_the_computer_delay_before_moving(tmp_path: Path) -> None:
    settings = Settings(computer_delay=1.5, expert_budget=0.02, hint_budget=0.02)
    async with running(sqlite_url(tmp_path), settings) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="haitian", players=2, computers={"1": "casual"}))["code"]
        sock, _ = await server.connect(code, token)
        assert (await act(sock, "start"))["type"] == "ack"
        now = await fresh(sock)
        if now["view"]["turn"] == 0:
            now = await at_seq(sock, (await play(sock, now["view"]["legal"][0]))["seq"])
        assert now["view"]["turn"] == 1
        assert clock(now) == {"seat": 1, "remaining_ms": 45000, "away": False}
        await server.advance(1)
        assert (await fresh(sock))["seq"] == now["seq"]
        await server.advance(0.5)
        moved = await sock.until("update", seq=now["seq"] + 1)
        assert moved["view"]["played"][-1][0] == 1


async def test_after_a_restart_a_person_keeps_the_normal_clock_until_back_or_a_turn_ended(
    tmp_path: Path,
) -> None:
    """The restart forced everyone off: a person who has not reconnected yet is not on the
    away clock at their first turn after it, only from their next turn on."""
    fake = FakeClock()  # the same clock carries over the restart
    url = sqlite_url(tmp_path)
    slow = Settings(computer_delay=5.0, expert_budget=0.02)
    async with running(url, slow, fake) as first:
        _, token = await first.guest()
        code = (await first.open_table(
            token, variant="haitian", players=2, computers={"1": "casual"}
        ))["code"]
        sock, _ = await first.connect(code, token)
        sock.send({"type": "start", "id": "s"})
        await sock.until("ack", id="s")
        table = first.hub.tables[code]
        for n in itertools.count():  # play until the computer is to move, then stop
            if table.state.turn == 1:
                break
            sock.send({"type": "play", "id": f"p{n}", "move": table.view_json(0)["legal"][0]})
            await sock.until("ack", id=f"p{n}")
    async with running(url, Settings(computer_delay=0.0, expert_budget=0.02), fake) as second:
        table = second.hub.tables[code]
        await second.advance(0)
        assert table.state.turn == 0, "the computer moved after the restart"
        assert not table.state.away(0)
        assert table.state.deadline() == table.state.turn_start + 45
        await second.advance(45)  # the person never came back: their turn runs out at 45 s
        while table.state.turn == 1:
            await second.advance(0)
        if table.state.turn == 0:
            assert table.state.away(0)
            assert table.state.deadline() == table.state.turn_start + 5


def test_an_alarm_goes_off_by_its_earliest_deadline_and_never_late() -> None:
    """A table's alarm set for a later deadline keeps its earlier one (it goes off early and
    the table sets it again); set for an earlier one, it goes off then."""
    fake = FakeClock(start=100.0)
    rang: list[float] = []
    alarm = Alarm(fake, lambda: rang.append(fake.now()))
    alarm.set(145.0)
    alarm.set(150.0)  # a move moved the deadline on: the alarm stays at 145
    alarm.set(120.0)  # a seat went away: the deadline came sooner
    fake.advance(19.9)
    assert rang == []
    fake.advance(0.1)
    assert rang == [120.0]
    fake.advance(100.0)
    assert rang == [120.0], "it went off once; the table sets it again"
    alarm.set(230.0)
    alarm.cancel()
    fake.advance(100.0)
    assert rang == [120.0]

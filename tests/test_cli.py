"""The terminal: a person plays whole matches by typing, records are saved and replayed."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from random import Random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from deals import with_counts
from kabes.ai import Beginner, Expert, Player
from kabes.cli.app import app
from kabes.cli.play import HUMAN, Command, TerminalGame, read_input
from kabes.errors import BadMove, BadTile
from kabes.match import Match
from kabes.moves import Play
from kabes.records import filled, to_record
from kabes.tiles import Tile
from kabes.views import view

RECORDS = Path(__file__).parent / "data" / "records"
runner = CliRunner()


def typist(match: Match, bad_first: list[str]) -> tuple[list[str], Callable[[str], str]]:
    """An ``ask`` that types a few bad lines, then the number (and end) of a legal move."""
    typed: list[str] = []
    pending = list(bad_first)

    def ask(prompt: str) -> str:
        if "Enter" in prompt:
            text = ""
        elif pending:
            text = pending.pop(0)
        else:
            seen = view(match, HUMAN)
            move = seen.legal[-1]
            number = seen.hand.index(move.tile) + 1
            text = f"{number}" if move.at is None else f"{number} {move.at}"
        typed.append(text)
        return text

    return typed, ask


def play_at_terminal(variant: str, players: int, seed: int, bad: list[str]) -> tuple[Match, str]:
    match = Match(variant, players, rng=Random(seed))
    computers: dict[int, Player] = {s: Beginner(Random(seed + s)) for s in range(1, players)}
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    _typed, ask = typist(match, bad)
    TerminalGame(match, computers, console, ask).run()
    return match, out.getvalue()


@pytest.mark.parametrize(
    ("variant", "players"),
    [("haitian", 2), ("haitian", 3), ("plaza", 2), ("plaza-partners", 4), ("haitian-partners", 4)],
)
def test_a_person_plays_a_whole_match_by_typing_tile_numbers(variant: str, players: int) -> None:
    match, shown = play_at_terminal(variant, players, seed=11, bad=[])
    assert match.over
    assert "Your hand" in shown
    assert "Match over" in shown
    assert "Hands face up" in shown


def test_mexican_train_is_played_by_typing_tile_and_train() -> None:
    match = Match("mexican-train", 3, rng=Random(5))
    computers: dict[int, Player] = {s: Beginner(Random(s)) for s in (1, 2)}
    console = Console(file=io.StringIO(), width=100, color_system=None)
    _typed, ask = typist(match, [])
    game = TerminalGame(match, computers, console, ask)
    while len(match.log) < 2 or match.hand_in_progress:
        seat = match.turn
        if not match.hand_in_progress:
            game._tell(match.deal_hand())
        elif seat == HUMAN:
            game._person_moves()
        else:
            assert seat is not None
            game._tell(match.apply(seat, computers[seat].choose(view(match, seat))))
    assert match.log[0].result is not None and match.log[1].result is not None


def test_bad_input_is_refused_with_a_message_and_asked_again() -> None:
    bad = ["", "zz", "9-9", "99", "1 X", "1 2 3", "6-3@Q", "?"]
    match, shown = play_at_terminal("haitian", 2, seed=4, bad=bad)
    assert match.over
    assert "Type a tile number or a tile" in shown
    assert "'zz' is not a tile" in shown
    assert "not in the double-six set" in shown
    assert "There is no tile 99 in your hand" in shown
    assert "'X' is not a place" in shown
    assert "give a tile and at most one end" in shown
    assert "Type a tile's number from your hand" in shown


def test_a_move_against_the_rules_is_refused_and_changes_nothing() -> None:
    match = Match("haitian", 2, rng=Random(2))
    match.deal_hand()
    assert match.hand is not None
    if match.turn != HUMAN:
        match.apply(None, match.hand.legal_moves()[0])
    seen = view(match, HUMAN)
    playable = {m.tile for m in seen.legal}
    stuck = [t for t in seen.hand if t not in playable]
    if not stuck:
        pytest.skip("every tile fits in this deal")
    assert match.hand is not None
    before = (list(match.hand.moves), [list(h) for h in match.hand.hands])
    out = io.StringIO()
    answers = iter([str(stuck[0]), "q"])
    game = TerminalGame(
        match, {1: Beginner(Random(1))}, Console(file=out), lambda _p: next(answers)
    )
    game.run()
    shown = out.getvalue()
    assert "fits neither end" in shown or "doesn't fit: both ends show" in shown
    assert match.hand is not None
    assert (match.hand.moves, match.hand.hands) == before


def test_read_input_understands_numbers_tiles_and_ends() -> None:
    match = Match("haitian", 2, rng=Random(1))
    match.deal_hand()
    seen = view(match, 0)
    first = seen.hand[0]
    assert read_input("1", seen) == Play(first, None, None)
    assert read_input("1 l", seen) == Play(first, "L", None)
    assert read_input("6-3 R", seen) == Play(Tile.of(6, 3), "R", 6)
    assert read_input("6-3@L", seen) == Play(Tile.of(6, 3), "L", 6)
    assert read_input("q", seen) == Command("quit")
    with pytest.raises(BadMove):
        read_input("0", seen)
    with pytest.raises(BadTile):
        read_input("6-7", seen)


def test_stopping_mid_game_saves_an_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "plaza", "--seed", "3", "--save", str(path)], input="q\n"
    )
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["variant"] == "plaza"
    assert record["result"]["finished"] is False
    assert filled(record) == record


def test_play_refuses_partnership_because_only_people_sit_there() -> None:
    result = runner.invoke(app, ["play", "partnership"])
    assert result.exit_code == 2
    assert "only by people" in result.output


def test_play_refuses_a_target_the_variant_does_not_allow() -> None:
    result = runner.invoke(app, ["play", "plaza", "--target", "75"])
    assert result.exit_code == 2
    assert "target 75 is not allowed" in result.output


def test_a_saved_whole_game_replays_exactly(tmp_path: Path) -> None:
    match, _shown = play_at_terminal("haitian", 3, seed=8, bad=[])
    record = json.loads(json.dumps(to_record(match)))
    assert filled(record) == record
    assert record["result"]["finished"] is True


def test_replay_json_prints_every_result_of_an_example_record() -> None:
    path = RECORDS / "haitian-3.json"
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    given = with_counts(json.loads(path.read_text()))
    assert [h["result"] for h in printed["hands"]] == [h["result"] for h in given["hands"]]
    assert printed["result"] == given["result"]


def test_replay_shows_the_record_hand_by_hand() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "plaza-2.json")])
    assert result.exit_code == 0, result.output
    assert "Hand 7" in result.output
    assert "Blocked: Seat 0 wins the hand." in result.output
    assert "Seat 0 scores every pip left: 8 + 36 = 44." in result.output
    assert "Match over: Seat 0 wins the match." in result.output


def test_replay_of_a_broken_record_names_the_hand_and_move(tmp_path: Path) -> None:
    record = json.loads((RECORDS / "haitian-2.json").read_text())
    record["hands"][1]["moves"][3] = "6-6@L"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "hand 2, move 4 ('6-6@L')" in result.output


def test_hint_shows_the_experts_move_and_its_reason() -> None:
    match = Match("plaza", 2, rng=Random(6))
    out = io.StringIO()
    answers = iter(["hint", "q"])
    adviser = Expert(Random(0), budget=0.01)
    game = TerminalGame(
        match, {1: Beginner(Random(1))}, Console(file=out, width=200), lambda _p: next(answers),
        adviser,
    )
    game.run()
    shown = out.getvalue()
    assert "Hint: " in shown
    line = next(li for li in shown.splitlines() if li.startswith("Hint: "))
    assert len(line) > len("Hint: open with 6-3: ") + 5


def test_play_seats_the_chosen_level_in_each_computer_seat() -> None:
    result = runner.invoke(
        app, ["play", "haitian", "-p", "4", "--levels", "skilled,expert,casual"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    assert "against Skilled 1, Expert 2, Casual 3" in result.output


def test_play_refuses_an_unknown_level() -> None:
    result = runner.invoke(app, ["play", "haitian", "--levels", "wizard"])
    assert result.exit_code == 2
    assert "no level 'wizard'" in result.output


def test_an_open_ended_match_ends_when_the_person_finishes_it() -> None:
    match = Match("haitian", 3, {"open_ended": True}, rng=Random(2))
    computers: dict[int, Player] = {s: Beginner(Random(s)) for s in (1, 2)}
    out = io.StringIO()
    _typed, play_ask = typist(match, [])
    finished_after = 2

    def ask(prompt: str) -> str:
        if "finish" in prompt:
            return "finish" if len(match.log) >= finished_after else ""
        return play_ask(prompt)

    TerminalGame(match, computers, Console(file=out, width=120), ask).run()
    assert match.over and match.result is not None
    assert len(match.log) == finished_after
    assert "Match over" in out.getvalue()

"""The terminal's wording, typed end to end: what a new player reads at every step."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random

from rich.console import Console
from typer.testing import CliRunner

from kabes.ai import Beginner
from kabes.cli.app import app
from kabes.cli.boards import BOARDS
from kabes.cli.boards.line import LineBoard
from kabes.cli.describe import narrate
from kabes.cli.display import LEGEND, render
from kabes.cli.explain import ENDINGS, word_explanation
from kabes.cli.play import HUMAN, TerminalGame
from kabes.cli.refusals import word_hint
from kabes.cli.words import Names
from kabes.events import (
    DrewCount,
    EngineSet,
    HandStarted,
    LeaderChosen,
    MarkerChanged,
    Passed,
    Played,
)
from kabes.explain import step
from kabes.match import Match
from kabes.moves import Play
from kabes.tiles import Tile
from kabes.views import View, view

RECORDS = Path(__file__).parent / "data" / "records"
runner = CliRunner()
LEVELS = {1: "skilled", 2: "expert", 3: "casual"}


def game(
    match: Match, ask: Callable[[str], str], terminal: bool = False
) -> tuple[TerminalGame, io.StringIO]:
    """A terminal game against beginners named by level, its screen in a string."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=terminal)
    computers = {s: Beginner(Random(s)) for s in range(1, match.players)}
    levels = {s: LEVELS[s] for s in range(1, match.players)}
    return TerminalGame(match, computers, console, ask, None, levels), out  # type: ignore[arg-type]


def autoplay(match: Match, typed_first: list[str], hands: int = 99) -> Callable[[str], str]:
    """Types ``typed_first``, then always the first legal move; stops after ``hands``."""
    pending = list(typed_first)

    def ask(prompt: str) -> str:
        if "Enter" in prompt:
            return "q" if len(match.log) >= hands else ""
        if pending:
            return pending.pop(0)
        seen = view(match, HUMAN)
        if "Left or right?" in prompt:
            return "L"
        if "Which train?" in prompt:
            return str(HUMAN)
        move = seen.legal[0]
        return f"{move.tile} {move.at}" if move.at else str(move.tile)

    return ask


def to_human_turn(match: Match) -> View:
    """Deal and let the beginners move until it is the person's turn."""
    computers = {s: Beginner(Random(s)) for s in range(1, match.players)}
    if not match.hand_in_progress:
        match.deal_hand()
    while match.turn != HUMAN:
        seat = match.turn
        assert seat is not None
        match.apply(seat, computers[seat].choose(view(match, seat)))
    return view(match, HUMAN)


def test_the_board_is_redrawn_in_place_with_the_others_moves_in_view() -> None:
    match = Match("haitian", 3, rng=Random(4))
    terminal, out = game(match, autoplay(match, [], hands=1), terminal=True)
    terminal.run()
    shown = out.getvalue()
    screens = shown.count("\x1b[2J")
    assert screens >= 3  # the screen is cleared and drawn again at every turn
    last = shown.split("\x1b[2J")[-2]
    assert "Last moves" in last
    assert "Skilled 1 plays" in last or "Expert 2 plays" in last


def test_the_score_line_says_what_the_scores_are_played_to() -> None:
    two = to_human_turn(Match("haitian", 2, rng=Random(3)))
    assert "Scores: You 0 · Skilled 1 0 · to 100" in _text(two)
    three = to_human_turn(Match("haitian", 3, rng=Random(3)))
    assert "· hand 1 of 5, lowest total is Wa" in _text(three)
    train = to_human_turn(Match("mexican-train", 3, rng=Random(3)))
    assert "· round 1 of 13, lowest total wins" in _text(train)


def test_each_named_ending_is_explained_once_the_first_time_it_happens() -> None:
    match = Match("haitian", 2, rng=Random(11))
    terminal, out = game(match, autoplay(match, []))
    terminal.run()
    shown = _flat(out.getvalue())
    named = {hand.result.name for hand in match.log if hand.result is not None}
    assert named
    for name in named:
        assert name is not None
        assert shown.count(ENDINGS[name]) == 1


def test_plaza_partners_points_are_every_pip_left_added_up() -> None:
    steps = [step("counts", counts=[7, 0, 3, 7], totals=[10, 7]),
             step("scores_pips", party=0, seats=[0, 1, 2, 3], pips=17, rule="all_hands")]
    names = Names(4, True, 0, LEVELS)
    assert word_explanation(steps, names)[-1] == (
        "You and Expert 2 score every pip left, partners' included: 7 + 0 + 3 + 7 = 17."
    )


def test_partnership_domino_counts_only_the_opponents_hands() -> None:
    steps = [step("counts", counts=[0, 12, 10, 1], totals=[10, 13]),
             step("scores_pips", party=0, seats=[1, 3], pips=13)]
    lines = word_explanation(steps, Names(4, True, 0))
    assert lines[-1] == "You and Seat 2 score the opponents' two hands: 12 + 1 = 13."


def test_haitian_penalty_goes_to_the_highest_count_only() -> None:
    steps = [step("penalty_to_highest", seat=1, count=12, points=2, name="tonbe")]
    lines = word_explanation(steps, Names(3, False, 0, LEVELS))
    assert lines == ["Only the highest count takes a penalty: Skilled 1 holds 12, +2 for a TONBE."]


def test_a_blocked_mexican_train_round_names_who_kept_fewest_pips() -> None:
    steps = [step("round_blocked", seat=1), step("fewest_pips", seats=[1], pips=3),
             step("nobody_wins"), *(step("penalty_pips", seat=s, pips=p, points=p)
                                    for s, p in enumerate([24, 3, 10]))]
    lines = word_explanation(steps, Names(3, False, 0, LEVELS))
    assert "Everyone takes the pips left in hand as a penalty: You 24, Skilled 1 3, " \
        "Expert 2 10." in lines
    assert "Nobody went out; Skilled 1 kept the fewest pips (3)." in lines


def test_a_tile_you_do_not_hold_is_named_as_you_typed_it() -> None:
    match = Match("haitian", 2, rng=Random(3))
    seen = to_human_turn(match)
    missing = next(t for t in (Tile.of(a, b) for a in range(7) for b in range(a))
                   if t not in seen.hand)
    typed = f"{missing.high}-{missing.low}"
    answers = iter([typed, "q"])
    terminal, out = game(match, lambda _p: next(answers))
    terminal.run()
    assert f"You don't have {typed}." in out.getvalue()
    assert f"{missing.low}-{missing.high}" not in out.getvalue().split("Your move")[-1]


def test_a_tile_that_fits_both_ends_is_asked_left_or_right() -> None:
    match, tile = _both_ends_position()
    moves = match.log[-1].moves
    before = len(moves)
    answers = iter([str(tile), "r", "q"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    terminal, out = game(match, ask)
    terminal.run()
    assert any("Left or right?" in p for p in prompts)
    assert "say which" not in out.getvalue()
    assert moves[before].endswith("@R")


def test_a_hint_is_said_as_a_place_never_as_a_record_move() -> None:
    line = to_human_turn(Match("haitian", 2, rng=Random(3)))
    names = Names(2, False, 0, LEVELS)
    assert word_hint(Play(Tile.of(6, 3), "L", 6), line, names) == "6-3 on the left end"
    train = to_human_turn(Match("mexican-train", 3, rng=Random(3)))
    names = Names(3, False, 0, LEVELS)
    assert word_hint(Play(Tile.of(12, 0), "0", 12), train, names) == "12-0 on your own train"
    assert word_hint(Play(Tile.of(5, 2), "2", 5), train, names) == "5-2 on Expert 2's train"


def test_pass_and_draw_are_answered_by_saying_the_table_does_them() -> None:
    match = Match("plaza", 2, rng=Random(3))
    to_human_turn(match)
    answers = iter(["pass", "draw", "q"])
    terminal, out = game(match, lambda _p: next(answers))
    terminal.run()
    shown = out.getvalue()
    assert "No need: the table passes for you when nothing fits." in shown
    assert "No need: the table draws for you when nothing fits." in shown
    assert "is not a tile" not in shown


def test_mexican_train_set_up_and_first_round_are_summed_up() -> None:
    seed = next(s for s in range(100) if _nobody_dealt_the_engine(s))
    match = Match("mexican-train", 4, rng=Random(seed))
    terminal, out = game(match, autoplay(match, ["q"]))
    terminal.run()
    shown = _flat(out.getvalue())
    assert "Nobody was dealt 12-12, so from seat 0 each player in turn drew a tile" in shown
    assert "drew 1 tile." not in shown
    assert "their turn goes on while a tile fits" in shown
    assert "first turn: you go on while a tile fits your train" in shown
    assert LEGEND in shown


def test_a_first_turns_run_of_tiles_is_one_line() -> None:
    names = Names(4, False, 0, LEVELS)
    run = [Played(1, Tile.of(12, 5), "12-5@1", False), Played(1, Tile.of(5, 0), "5-0@1", False),
           Played(1, Tile.of(0, 0), "0-0@1", False)]
    assert narrate(run, names, BOARDS["trains"]) == [
        "Skilled 1 plays 3 tiles on their train: 12-5 5-0 0-0."
    ]


def test_a_pass_at_mexican_train_is_worded_plainly() -> None:
    names = Names(4, False, 0, LEVELS)
    events = [MarkerChanged(1, True), Passed(1, (3, 4, 6))]
    assert narrate(events, names, BOARDS["trains"]) == [
        "Skilled 1 puts a marker on their train and passes."
    ]


class _Dealing(LineBoard):
    """A made-up board: a line whose deals are "deals" and whose passes name nothing."""

    hand_word = "deal"
    passes_name_numbers = False


def test_narration_asks_the_board_what_a_deal_is_called_and_how_a_pass_is_told() -> None:
    """No variant or board is named in the narrator: a new board's choices show as they are."""
    names = Names(2, False, 0, LEVELS)
    events = [HandStarted(3, (7, 7), 14), Passed(1, (3, 5))]
    assert narrate(events, names, _Dealing()) == [
        "Deal 3 is dealt: 7 tiles each, 14 tiles in the stock.",
        "Skilled 1 passes.",
    ]
    assert narrate(events, names, BOARDS["trains"])[0].startswith("Round 3 is dealt")
    assert narrate(events, names)[0].startswith("Hand 3 is dealt")


def test_grammar_agrees_with_you_and_with_the_others() -> None:
    names = Names(4, False, 0, LEVELS)
    assert narrate([LeaderChosen(0, None)], names) == ["You open: lead any tile."]
    assert narrate([MarkerChanged(0, True)], names, BOARDS["trains"]) == [
        "You put a marker on your train."
    ]
    assert narrate([Passed(2, (3, 5))], names) == ["Expert 2 has no 3 or 5 and passes."]
    assert narrate([Passed(0, (3, 5))], names) == ["You have no 3 or 5 and pass."]


def test_one_tile_is_singular_and_an_empty_stock_is_still_shown() -> None:
    seen = to_human_turn(Match("haitian", 2, rng=Random(3)))
    shown = _text(dataclasses.replace(seen, stock=0, counts=(seen.counts[0], 1)))
    assert "1 tile " in shown and "1 tiles" not in shown
    assert "Stock      empty" in shown


def test_help_shows_only_the_variant_being_played() -> None:
    line = Match("haitian", 2, rng=Random(3))
    terminal, out = game(line, autoplay(line, ["?", "q"]))
    terminal.run()
    assert "Type a tile's number" in out.getvalue()
    assert "train" not in out.getvalue().split("Your move")[-1]
    trains = Match("mexican-train", 3, rng=Random(3))
    terminal, out = game(trains, autoplay(trains, ["?", "q"]))
    terminal.run()
    assert "your own train, 0" in out.getvalue()


def test_replay_names_the_seats_with_their_scores() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "haitian-3.json")])
    assert result.exit_code == 0, result.output
    assert "Scores after the hand: Seat 0 " in result.output
    assert "Scores: Seat 0 " in result.output
    teams = next(RECORDS.glob("plaza-partners*.json"))
    result = runner.invoke(app, ["replay", str(teams)])
    assert "Scores: Seat 0 and Seat 2 " in result.output


def test_simulate_shows_progress_as_it_goes() -> None:
    result = runner.invoke(
        app,
        ["simulate", "--variant", "haitian", "--levels", "casual,beginner", "--matches", "2",
         "--budget", "0.01"],
    )
    assert result.exit_code == 0, result.output
    assert "haitian: 1/2 matches" in result.output
    assert "haitian: 2/2 matches" in result.output


def _nobody_dealt_the_engine(seed: int) -> bool:
    events = Match("mexican-train", 4, rng=Random(seed)).deal_hand()
    engine = next(i for i, e in enumerate(events) if isinstance(e, EngineSet))
    return any(isinstance(e, DrewCount) for e in events[:engine])


def _flat(text: str) -> str:
    """The screen's words with panel borders and line wraps taken out."""
    return " ".join(text.replace("│", " ").split())


def _text(seen: View) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(render(seen, Names(
        seen.players, seen.teams, HUMAN, {s: LEVELS[s] for s in range(1, seen.players)})))
    return out.getvalue()


def _both_ends_position() -> tuple[Match, Tile]:
    """A Haitian hand where the person holds a tile that fits both ends, which differ."""
    for seed in range(200):
        match = Match("haitian", 2, rng=Random(seed))
        for seen in _turns(match):
            assert seen.ends is not None or seen.line is None
            if seen.ends is None or seen.ends[0] == seen.ends[1]:
                continue
            both = [m.tile for m in seen.legal if m.at == "L"
                    if any(o.tile is m.tile and o.at == "R" for o in seen.legal)]
            if both:
                return match, both[0]
    raise AssertionError("no deal with a tile fitting both ends")


def _turns(match: Match) -> Iterator[View]:
    """The person's turns in the first hand, playing the first legal move each time."""
    to_human_turn(match)
    while match.hand_in_progress:
        if match.turn == HUMAN:
            seen = view(match, HUMAN)
            yield seen
            match.apply(HUMAN, seen.legal[0])
        else:
            seat = match.turn
            assert seat is not None
            match.apply(seat, Beginner(Random(seat)).choose(view(match, seat)))

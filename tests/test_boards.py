"""Each kind of board has one owner per layer (the levels' kabes.ai.boards, the terminal's
kabes.cli.boards): a variant names its board and nothing else asks which kind a game is
played on, so a new variant is one module under kabes.rules. The layers themselves are
guarded in test_layering.py."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest
from rich.console import Console

from kabes.ai import Expert, make_player
from kabes.ai.boards import TACTICS, tactics_for
from kabes.cli.boards import BOARDS, board_of
from kabes.cli.display import render
from kabes.cli.play import help_text
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.rules.mexican_train import MexicanTrain
from kabes.rules.plaza import Plaza
from kabes.views import view

SRC = Path(__file__).resolve().parents[1] / "src" / "kabes"


def test_every_variant_names_a_board_the_levels_and_the_terminal_both_know() -> None:
    for rules in VARIANTS.values():
        assert rules.board in BOARDS, rules.id
        assert rules.board in TACTICS, rules.id
    assert set(BOARDS) == set(TACTICS)
    assert all(key == board.name for key, board in BOARDS.items())
    assert all(key == tactics.name for key, tactics in TACTICS.items())
    assert board_of("mexican-train").name == "trains"
    assert {board_of(v).name for v in VARIANTS if v != "mexican-train"} == {"line"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_levels_find_the_tactics_of_the_board_the_rules_name(variant: str) -> None:
    match = Match(variant, VARIANTS[variant].default_players, rng=Random(1))
    match.deal_hand()
    assert tactics_for(view(match, 0)).name == VARIANTS[variant].board == board_of(variant).name


def test_no_module_outside_the_hands_asks_which_kind_of_hand_it_holds() -> None:
    asking = re.compile(r"isinstance\([^)]*\b(LineHand|TrainHand)\b")
    found = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if asking.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_module_outside_the_rules_switches_on_a_variant() -> None:
    """Nothing compares a variant id (``== "mexican-train"``, ``in ("haitian", ...)``) or reads a
    ``trains`` flag: it asks the variant's Rules or its board (the boards included)."""
    ids = "|".join(re.escape(v) for v in VARIANTS)
    switching = re.compile(
        rf'(==|!=)\s*"({ids})"|\bin\s*[(\[{{][^)\]}}]*"({ids})"|\bif\s+(not\s+)?trains\b'
    )
    found = [
        f"{path.relative_to(SRC)}: {match.group(0)}"
        for path in SRC.rglob("*.py")
        if path.parent.name != "rules"
        for match in switching.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


class LittlePlaza(Plaza):
    """A variant as a new module under kabes.rules would add it, on a line."""

    def __init__(self) -> None:
        super().__init__(partners=False)
        self.id = "little-plaza"
        self.title = "Little plaza"


class QuickTrain(MexicanTrain):
    """A Mexican Train variant added the same way."""

    id = "quick-train"
    title = "Quick train"


@pytest.mark.parametrize("rules", [LittlePlaza(), QuickTrain()], ids=lambda r: r.id)
def test_a_new_variant_is_played_viewed_drawn_and_played_by_every_level_with_no_other_change(
    rules: Plaza | MexicanTrain, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(VARIANTS, rules.id, rules)
    rng = Random(3)
    match = Match(rules.id, 2, rng=rng)
    assert match.variant == rules.id
    players = [make_player("skilled", rng), make_player("casual", rng)]
    expert = Expert(rng, budget=5.0, max_worlds=4)
    console = Console(record=True, width=100)
    match.deal_hand()
    moves = 0
    while match.hand_in_progress:
        seat = match.turn
        assert seat is not None
        seen = view(match, seat)
        console.print(render(seen))
        chooser = expert if moves < 3 else players[seat]
        match.apply(seat, chooser.choose(seen))
        moves += 1
    shown = console.export_text()
    assert rules.title in shown
    assert ("Engine" in shown) == (rules.board == "trains")
    assert help_text(view(match, 0)) == board_of(rules.id).help
    assert match.log[0].result is not None

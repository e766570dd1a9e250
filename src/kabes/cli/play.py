"""A game in the terminal: a person at seat 0 against computer players.

The person types a tile number from their hand or a tile (``6-3``), optionally followed by
the end (``L``/``R``) or, in Mexican Train, the train (a seat number or ``M``). Anything that
cannot be read or is not allowed is refused with a short message and asked again; the match
is never changed by a refused input.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from rich.console import Console

from kabes.ai import DEFAULT_BUDGET, Expert, Player, make_player
from kabes.cli.describe import describe
from kabes.cli.display import face_up, render, scores_line
from kabes.errors import BadMove, BadOptions, KabesError
from kabes.events import Event
from kabes.match import Match
from kabes.moves import LEFT, MAX_TRAINS, PUBLIC, RIGHT, Move, Play
from kabes.records import save_record
from kabes.rules import get_rules
from kabes.tiles import parse_tile
from kabes.views import View, view

HUMAN = 0
SEARCH_WORKERS = min(2, os.cpu_count() or 1)
"""The expert searches on both cores of a small machine while the person waits."""
HELP = (
    "Type a tile number from your hand (3) or a tile (6-3), then the end if it fits both: "
    "3 L, 6-3 R. In Mexican Train give the train: 3 0 (your own), 6-3 2, 6-3 M. "
    "'hint' asks the expert for advice; 'q' stops the game."
)


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


@dataclass(frozen=True, slots=True)
class Command:
    """Something typed that is not a move."""

    name: str


def read_input(text: str, seen: View) -> Move | Command:
    """A move (or command) from what the person typed; BadMove with the reason otherwise."""
    words = text.replace("@", " ").split()
    if not words:
        raise BadMove("type a tile number or a tile like 6-3 (help: ?)")
    first = words[0].lower()
    if first in ("q", "quit", "exit"):
        return Command("quit")
    if first in ("?", "h", "help"):
        return Command("help")
    if first == "hint":
        return Command("hint")
    if len(words) > 2:
        raise BadMove(f"{text.strip()!r}: give a tile and at most one end or train")
    top = get_rules(seen.variant).top
    if first.isdigit():
        number = int(first)
        if not 1 <= number <= len(seen.hand):
            raise BadMove(f"there is no tile {number} in your hand (1 to {len(seen.hand)})")
        tile = seen.hand[number - 1]
        written = None
    else:
        tile = parse_tile(first, top)
        written = int(first.split("-")[0])
    at = words[1].upper() if len(words) == 2 else None
    if at is not None and not _valid_place(at, seen):
        where = "L or R" if not seen.trains else "a train number or M"
        raise BadMove(f"{words[1]!r} is not a place: say {where}")
    return Play(tile, at, written)


def _valid_place(at: str, seen: View) -> bool:
    if not seen.trains:
        return at in (LEFT, RIGHT)
    return at == PUBLIC or (at.isdigit() and int(at) < MAX_TRAINS)


class TerminalGame:
    """One match at the terminal; ``ask`` reads a line (``input`` unless a test gives one)."""

    def __init__(
        self,
        match: Match,
        computers: dict[int, Player],
        console: Console,
        ask: Callable[[str], str],
        adviser: Player | None = None,
    ) -> None:
        self.match = match
        self.adviser = adviser
        self.computers = computers
        self.console = console
        self.ask = ask

    def run(self) -> None:
        """Play until the match is over or the person stops."""
        match = self.match
        try:
            while not match.over:
                if not match.hand_in_progress:
                    if match.log:
                        self._between_hands()
                    if not match.over:
                        self._tell(match.deal_hand())
                    continue
                seat = match.turn
                assert seat is not None
                if seat == HUMAN:
                    self._person_moves()
                else:
                    move = self.computers[seat].choose(view(match, seat))
                    self._tell(match.apply(seat, move))
            self._show_end_of_hand()
        except Quit:
            self.console.print("Game stopped.")

    def _person_moves(self) -> None:
        seen = view(self.match, HUMAN)
        self.console.print(render(seen))
        while True:
            text = self._line("Your move: ")
            try:
                choice = read_input(text, seen)
                if isinstance(choice, Command):
                    if choice.name == "quit":
                        raise Quit
                    if choice.name == "hint" and self.adviser is not None:
                        advice = self.adviser.hint(seen)
                        self.console.print(f"Hint: play {advice.move}: {advice.reason}.")
                    else:
                        self.console.print(HELP)
                    continue
                self._tell(self.match.apply(HUMAN, choice))
                return
            except KabesError as err:
                self.console.print(f"[red]{err.message}[/red]")

    def _between_hands(self) -> None:
        self._show_end_of_hand()
        if not self.match.options.open_ended:
            self._line("Press Enter for the next hand (q to stop): ", quit_words=True)
            return
        # An open-ended match goes on until the host finishes it: here, the person.
        prompt = "Press Enter for the next hand, 'finish' to finish the match (q to stop): "
        if self._line(prompt, quit_words=True).strip().lower() == "finish":
            self._tell(self.match.finish())

    def _show_end_of_hand(self) -> None:
        seen = view(self.match, HUMAN)
        if seen.revealed is not None:
            self.console.print(face_up(seen))
            self.console.print(scores_line(seen))

    def _line(self, prompt: str, quit_words: bool = False) -> str:
        try:
            text = self.ask(prompt)
        except EOFError:
            raise Quit from None
        if quit_words and text.strip().lower() in ("q", "quit", "exit"):
            raise Quit
        return text

    def _tell(self, events: list[Event]) -> None:
        for event in events:
            line = describe(event, HUMAN, self.match.rules.teams)
            if line:
                self.console.print(line)


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` from the command line; yes/no and whole numbers are understood."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise BadOptions(f"{text!r}: write an option as name=value, like capicu_bonus=25")
    value: Any = raw
    if raw.lower() in ("true", "yes", "on"):
        value = True
    elif raw.lower() in ("false", "no", "off"):
        value = False
    elif raw.lstrip("-").isdigit():
        value = int(raw)
    return name.strip(), value


def start_game(
    variant: str,
    players: int | None,
    options: dict[str, Any],
    seed: int | None,
    console: Console,
    ask: Callable[[str], str],
    save: Path | None = None,
    levels: list[str] | None = None,
    budget: float = DEFAULT_BUDGET,
) -> Match:
    """Set up a match against the computer, play it at the terminal, save it if asked."""
    if get_rules(variant).people_only:
        raise BadOptions(
            f"{variant} is played only by people at an online table: no computer takes a seat "
            "there. Against the computer, try plaza-partners or haitian-partners."
        )
    rng = Random(seed)
    match = Match(variant, players, options, rng)
    chosen = levels or ["skilled"]
    seated = {seat: chosen[(seat - 1) % len(chosen)] for seat in range(1, match.players)}
    computers = {
        seat: make_player(level, Random(rng.random()), budget, SEARCH_WORKERS)
        for seat, level in seated.items()
    }
    names = ", ".join(f"seat {seat} {level}" for seat, level in seated.items())
    console.print(f"You are seat 0; {names}.")
    adviser = Expert(Random(rng.random()), budget, SEARCH_WORKERS)
    game = TerminalGame(match, computers, console, ask, adviser)
    try:
        game.run()
    finally:
        if save is not None:
            save_record(match, save)
            console.print(f"Record saved to {save}.")
    return match

"""A game in the terminal: a person at seat 0 against computer players.

The person types a tile number from their hand or a tile (``6-3``), optionally followed by
the end (``L``/``R``) or, in Mexican Train, the train (a seat number or ``M``). Anything that
cannot be read or is not allowed is refused with a short message and asked again; the match
is never changed by a refused input.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from rich.console import Console

from kabes.ai import DEFAULT_BUDGET, Expert, Player, make_player
from kabes.cli.boards import board_of
from kabes.cli.describe import describe_match, narrate
from kabes.cli.display import face_up, render, scores_line
from kabes.cli.explain import ENDINGS, endings_named, word_explanation
from kabes.cli.refusals import ASKS, Refusal, read_place, refusal_of, word_hint, word_refusal
from kabes.cli.words import Names, and_list
from kabes.errors import BadMove, BadOptions, KabesError
from kabes.events import Event, HandStarted, MatchEnded
from kabes.explain import Explanation
from kabes.match import Match
from kabes.moves import LEFT, PUBLIC, RIGHT, Move, Play
from kabes.records import save_record
from kabes.rules import get_rules
from kabes.tiles import parse_tile
from kabes.views import View, view

HUMAN = 0
SEARCH_WORKERS = min(2, os.cpu_count() or 1)
"""The expert searches on both cores of a small machine while the person waits."""
RECENT = 14
"""At most this many lines of the last moves stay on screen."""
TABLE_WORDS = {"pass": "table_passes", "boude": "table_passes", "draw": "table_draws",
               "rale": "table_draws"}


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


@dataclass(frozen=True, slots=True)
class Command:
    """Something typed that is not a move."""

    name: str


def help_text(seen: View) -> str:
    """Help for the variant being played only (no train syntax in a Haitian game)."""
    return board_of(seen.variant).help


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
    if first in TABLE_WORDS:
        return Command(first)
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
    at = _place_word(words[1]) if len(words) == 2 else None
    board = board_of(seen.variant)
    if at is not None and not board.valid_place(at):
        raise BadMove(f"{words[1]!r} is not a place: say {board.places_word}")
    return Play(tile, at, written)


def _place_word(word: str) -> str:
    upper = word.upper()
    return {"LEFT": LEFT, "RIGHT": RIGHT, "PUBLIC": PUBLIC}.get(upper, upper)


class TerminalGame:
    """One match at the terminal; ``ask`` reads a line (``input`` unless a test gives one)."""

    def __init__(
        self,
        match: Match,
        computers: dict[int, Player],
        console: Console,
        ask: Callable[[str], str],
        adviser: Player | None = None,
        levels: Mapping[int, str] | None = None,
        intro: str | None = None,
    ) -> None:
        self.match = match
        self.adviser = adviser
        self.computers = computers
        self.console = console
        self.ask = ask
        self.names = Names(match.players, match.rules.teams, HUMAN, dict(levels or {}))
        self.board = board_of(match.variant)
        self.lines: list[str] = [intro] if intro else []
        """What happened, in words; the screen shows its tail."""
        self.pending: list[Event] = []
        """Events not yet told: told together, so a run of moves becomes one line."""
        self.shown = 0
        """How many of ``lines`` the last screen showed."""
        self.explained: set[str] = set()
        """The named endings already explained in this game."""

    def run(self) -> None:
        """Play until the match is over or the person stops."""
        match = self.match
        try:
            while not match.over:
                if not match.hand_in_progress:
                    if match.log:
                        self._between_hands()
                    if not match.over:
                        self._deal()
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

    def _deal(self) -> None:
        events = self.match.deal_hand()
        self._flush()
        dealt = next(i for i, e in enumerate(events) if isinstance(e, HandStarted)) + 1
        self.lines += narrate(events[:dealt], self.names, self.board)
        if self.board.intro is not None and len(self.match.log) == 1:
            self.lines.append(self.board.intro)
        self._tell(events[dealt:])

    def _screen(self, seen: View) -> None:
        """Redraw the table in place, the last moves kept in view."""
        self._flush()
        new = len(self.lines) - self.shown
        keep = min(max(new, 5), RECENT)
        recent = self.lines[-keep:] if keep else []
        if len(self.lines) - self.shown > RECENT:
            recent = [f"… {len(self.lines) - self.shown - RECENT + 1} earlier lines",
                      *recent[1:]]
        self.shown = len(self.lines)
        self.console.clear()
        self.console.print(render(seen, self.names, recent))

    def _person_moves(self) -> None:
        seen = view(self.match, HUMAN)
        self._screen(seen)
        while True:
            text = self._line("Your move: ")
            try:
                choice = read_input(text, seen)
                if isinstance(choice, Command):
                    self._command(choice, seen)
                    continue
                if self._played(choice, seen):
                    return
            except KabesError as err:
                self._refuse(err.message)

    def _played(self, move: Move, seen: View) -> bool:
        """Give the move to the engine; word its refusal, or ask where a tile goes when it
        fits several places and play it there. Whether the move was made."""
        try:
            self._tell(self.match.apply(HUMAN, move))
            return True
        except KabesError as err:
            first = move.first if isinstance(move, Play) else None
            refusal = refusal_of(err, first)
        if refusal.code not in ASKS or not isinstance(move, Play):
            self._refuse(word_refusal(refusal, self.names))
            return False
        place = read_place(self._line(word_refusal(refusal, self.names)), refusal)
        if place is None:
            where = "L or R" if not seen.trains else " or ".join(refusal.facts["fits"])
            self._refuse(f"Not played: answer {where}. Try again.")
            return False
        return self._played(Play(move.tile, place, move.first), seen)

    def _command(self, command: Command, seen: View) -> None:
        if command.name == "quit":
            raise Quit
        if command.name == "hint" and self.adviser is not None:
            advice = self.adviser.hint(seen)
            where = word_hint(advice.move, seen, self.names)
            self.console.print(f"Hint: {where}: {advice.reason}.")
        elif command.name in TABLE_WORDS:
            self._refuse(word_refusal(table_refusal(command.name, seen), self.names))
        else:
            self.console.print(help_text(seen))

    def _refuse(self, message: str) -> None:
        self.console.print(f"[red]{message[0].upper()}{message[1:]}[/red]")

    def _between_hands(self) -> None:
        self._show_end_of_hand()
        hand = self.board.hand_word
        if not self.match.options.open_ended:
            self._line(f"Press Enter for the next {hand} (q to stop): ", quit_words=True)
            return
        # An open-ended match goes on until the host finishes it: here, the person.
        prompt = f"Press Enter for the next {hand}, 'finish' to finish the match (q to stop): "
        if self._line(prompt, quit_words=True).strip().lower() == "finish":
            self._tell(self.match.finish())
            self._show_match_end()

    def _show_end_of_hand(self) -> None:
        seen = view(self.match, HUMAN)
        if seen.revealed is None or seen.last_result is None:
            self._show_match_end()
            return
        self._screen(seen)
        self.console.print(face_up(seen, self.names))
        for line in word_explanation(seen.last_explanation or (), self.names):
            self.console.print(line)
        self._explain_endings(endings_named(seen.last_explanation or ()))
        self.console.print(scores_line(seen, self.names))
        self._show_match_end()

    def _show_match_end(self) -> None:
        match = self.match
        result = match.result
        if result is None or "match" in self.explained:
            return
        self.explained.add("match")
        self.console.print(describe_match(result, self.names))
        steps: Explanation = match.explanation
        told = match.log[-1].explanation or () if match.log else ()
        if steps and tuple(told[-len(steps):]) != steps:
            # Finished by the host between hands: no hand's explanation said why.
            for line in word_explanation(steps, self.names):
                self.console.print(line)
            self._explain_endings(endings_named(steps))

    def _explain_endings(self, named: list[str]) -> None:
        for name in named:
            if name not in self.explained:
                self.explained.add(name)
                self.console.print(ENDINGS[name], style="italic")

    def _line(self, prompt: str, quit_words: bool = False) -> str:
        try:
            text = self.ask(prompt)
        except EOFError:
            raise Quit from None
        if quit_words and text.strip().lower() in ("q", "quit", "exit"):
            raise Quit
        return text

    def _tell(self, events: list[Event]) -> None:
        self.pending += [e for e in events if not isinstance(e, MatchEnded)]

    def _flush(self) -> None:
        self.lines += narrate(self.pending, self.names, self.board)
        self.pending = []


def table_refusal(word: str, seen: View) -> Refusal:
    """The answer to ``pass`` or ``draw`` typed on one's turn (a word of ``TABLE_WORDS``):
    no need, the table does it when nothing fits; and what fits now."""
    playable = sorted({m.tile for m in seen.legal})
    facts = {
        "playable": and_list([str(t) for t in playable[:3]], "or"),
        "stock_game": _has_stock(seen),
    }
    return Refusal(TABLE_WORDS[word], facts)


def _has_stock(seen: View) -> bool:
    rules = get_rules(seen.variant)
    top = rules.top
    return rules.hand_size(seen.players) * seen.players < (top + 1) * (top + 2) // 2


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
    names = Names(match.players, match.rules.teams, HUMAN, seated)
    others = ", ".join(names.seat(seat) for seat in seated)
    intro = f"You are seat 0, against {others} (each named by level and seat)."
    if match.rules.teams:
        intro = f"You are seat 0, with {names.seat(2)} as your partner, against " \
            f"{names.seat(1)} and {names.seat(3)}."
    adviser = Expert(Random(rng.random()), budget, SEARCH_WORKERS)
    game = TerminalGame(match, computers, console, ask, adviser, seated, intro)
    try:
        game.run()
    finally:
        if save is not None:
            save_record(match, save)
            console.print(f"Record saved to {save}.")
    return match

"""Showing a game record hand by hand, as a narrator who sees every tile.

Seats are named ("Seat 0", teams by their seats), every hand ends with how its points were
counted and the scores by name, and the record's result closes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.rule import Rule

from kabes.cli.boards import BOARDS
from kabes.cli.describe import narrate
from kabes.cli.explain import word_explanation
from kabes.cli.words import Names
from kabes.events import Event, HandEnded, HandStarted
from kabes.match import Match
from kabes.records import replay
from kabes.rules import VARIANTS


def show_replay(record: Mapping[str, Any], console: Console) -> None:
    """Replay ``record`` and tell every event; the points and scores after each hand."""
    names = _names(record)
    kind = VARIANTS.get(str(record.get("variant")))
    board = BOARDS[kind.board if kind is not None else "line"]
    replayed: list[Match] = []

    def tell(events: list[Event]) -> None:
        segment: list[Event] = []
        for event in events:
            if isinstance(event, HandStarted):
                _say(narrate(segment, names, board), console)
                segment = []
                console.print(Rule(f"{board.hand_word.capitalize()} {event.number}"))
            segment.append(event)
            if isinstance(event, HandEnded):
                _say(narrate(segment, names, board), console)
                segment = []
                if replayed:
                    _say(word_explanation(replayed[0].log[-1].explanation or (), names), console)
                console.print("Scores after the hand: " + _scores(event.result.scores, names),
                              style="cyan")
        _say(narrate(segment, names, board), console)

    match = replay(record, tell, replayed.append)
    console.print(Rule())
    told = tuple(match.log[-1].explanation or ()) if match.log else ()
    if match.explanation and told[-len(match.explanation):] != match.explanation:
        # The host finished the match between hands: no hand's explanation said why.
        _say(word_explanation(match.explanation, names), console)
    console.print("Scores: " + _scores(match.state.scores, names))
    if not match.over:
        console.print("The record stops before the match is over.")


def _say(lines: list[str], console: Console) -> None:
    for line in lines:
        console.print(line)


def _names(record: Mapping[str, Any]) -> Names:
    variant = record.get("variant")
    players = record.get("players")
    teams = isinstance(variant, str) and variant in VARIANTS and VARIANTS[variant].teams
    return Names(players if isinstance(players, int) else 0, teams)


def _scores(scores: Any, names: Names) -> str:
    return " · ".join(f"{names.party(p)} {score}" for p, score in enumerate(scores))

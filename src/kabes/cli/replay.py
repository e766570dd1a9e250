"""Showing a game record hand by hand, as a narrator who sees every tile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.rule import Rule

from kabes.cli.describe import describe
from kabes.events import Event, HandEnded, HandStarted
from kabes.records import replay
from kabes.rules import VARIANTS


def show_replay(record: Mapping[str, Any], console: Console) -> None:
    """Replay ``record`` and tell every event; the scores after each hand; the result."""
    variant = record.get("variant")
    teams = isinstance(variant, str) and variant in VARIANTS and VARIANTS[variant].teams

    def tell(events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandStarted):
                console.print(Rule(f"Hand {event.number}"))
            line = describe(event, None, teams)
            if line:
                console.print(line)
            if isinstance(event, HandEnded):
                scores = " · ".join(map(str, event.result.scores))
                console.print(f"Scores after hand: {scores}", style="cyan")

    match = replay(record, tell)
    scores = " · ".join(map(str, match.state.scores))
    console.print(Rule())
    console.print(f"Scores: {scores}")
    if not match.over:
        console.print("The record stops before the match is over.")

"""Events and results in words, for the terminal game and the replay.

``describe`` says what a seat may know of an event (None when it must not see it at all), so a
private event (a deal, a drawn tile) is only ever told to its own seat; ``viewer=None`` is the
replay's all-seeing narrator.
"""

from __future__ import annotations

from kabes.events import (
    Dealt,
    Drew,
    DrewCount,
    EngineSet,
    Event,
    HandEnded,
    HandStarted,
    LeadDrawn,
    LeaderChosen,
    MarkerChanged,
    MatchEnded,
    Passed,
    Played,
)
from kabes.results import Ending, HandResult, MatchResult

NAMES = {"tonbe": "TONBE", "2-kabes": "2 KABÈS", "blok": "BLÒK"}


def seat_name(seat: int, viewer: int | None) -> str:
    """"You" for the viewer's own seat, else "Seat N"."""
    return "You" if seat == viewer else f"Seat {seat}"


def party_name(party: int, teams: bool, viewer: int | None) -> str:
    """A team (seats 0 and 2, or 1 and 3) or a seat, as the viewer would say it."""
    if not teams:
        return seat_name(party, viewer)
    seats = f"seats {party} and {party + 2}"
    if viewer is not None and viewer % 2 == party:
        return f"Your team ({seats})"
    return f"Team {party} ({seats})"


def describe(event: Event, viewer: int | None, teams: bool) -> str | None:
    """One line about ``event`` for ``viewer`` (None: the narrator who sees everything)."""
    if event.to is not None and viewer is not None and event.to != viewer:
        return None
    match event:
        case HandStarted(number=number, stock=stock):
            return f"Hand {number} is dealt" + (f"; {stock} tiles in the stock." if stock else ".")
        case Dealt(seat=seat, tiles=tiles):
            held = " ".join(map(str, tiles))
            return f"{seat_name(seat, viewer)}: {held}" if viewer is None else None
        case LeadDrawn(turned=turned, leader=leader):
            shown = ", ".join(f"{seat_name(s, viewer)} {t}" for s, t in enumerate(turned))
            return f"Draw for the lead: {shown}; {seat_name(leader, viewer).lower()} opens."
        case LeaderChosen(seat=seat, forced=forced):
            who = seat_name(seat, viewer)
            return f"{who} lead" + ("" if seat == viewer else "s") + (
                f" with {forced}." if forced is not None else "."
            )
        case EngineSet(seat=seat, tile=tile):
            return f"{seat_name(seat, viewer)} set the engine {tile}."
        case Played(seat=seat, move=move, timeout=timeout):
            verb = "play" if seat == viewer else "plays"
            clock = " (the table played it)" if timeout else ""
            return f"{seat_name(seat, viewer)} {verb} {_where(move)}{clock}."
        case Drew(seat=seat, tiles=tiles):
            return f"{seat_name(seat, viewer)} drew {' '.join(map(str, tiles))}."
        case DrewCount(seat=seat, count=count):
            if viewer is None or seat == viewer:
                return None  # the drawer is told the tiles themselves
            return f"{seat_name(seat, viewer)} drew {count} tile{'s' if count > 1 else ''}."
        case Passed(seat=seat, numbers=numbers):
            shown = " or ".join(str(n) for n in sorted(set(numbers)))
            verb = "pass" if seat == viewer else "passes"
            return f"{seat_name(seat, viewer)} {verb} (no {shown})."
        case MarkerChanged(seat=seat, on=on):
            action = "puts a marker on" if on else "takes the marker off"
            return f"{seat_name(seat, viewer)} {action} their train."
        case HandEnded(result=result):
            return describe_hand(result, teams, viewer)
        case MatchEnded(result=result):
            return describe_match(result, teams, viewer)
    return None


def describe_hand(result: HandResult, teams: bool, viewer: int | None) -> str:
    """The end of a hand in one line: how it ended, who won, the points."""
    how = "Domino" if result.ending is Ending.DOMINO else "Blocked"
    if result.name:
        how = NAMES[result.name]
    if result.capicu:
        how += " (capicú!)"
    if result.winner is None:
        who = "nobody wins the hand"
    else:
        who = f"{party_name(result.winner, teams, viewer)} won"
    points = ", ".join(
        f"{party_name(p, teams, viewer)} +{pts}" for p, pts in enumerate(result.points) if pts
    )
    return f"{how}: {who}." + (f" Points: {points}." if points else "")


def describe_match(result: MatchResult, teams: bool, viewer: int | None) -> str:
    """The end of the match in one line."""
    names = " and ".join(party_name(w, teams, viewer) for w in result.winners)
    text = f"Match over: {names} won" + (" — kochon!" if result.kochon else ".")
    return text


def _where(move: str) -> str:
    tile, _, at = move.partition("@")
    if not at:
        return tile
    if at == "L":
        return f"{tile} on the left"
    if at == "R":
        return f"{tile} on the right"
    if at == "M":
        return f"{tile} on the public train"
    return f"{tile} on train {at}"

"""Events in words, for the terminal game and the replay.

``narrate`` turns a batch of events into the lines one viewer may read: a private event (a
deal, a drawn tile) is only ever told to its own seat, and a viewer of None is the replay's
all-seeing narrator. Lines are short sentences in the viewer's grammar (see ``words``), and
what would be a wall of lines is summed up: Mexican Train's draws for the engine become one
line, a first turn's run of tiles on one train one line, a draw then a marker then a pass
one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kabes.cli.boards import BOARDS, Board
from kabes.cli.words import Names, and_list, ending_name, or_list, plural
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

LINE = BOARDS["line"]


@dataclass(frozen=True, slots=True)
class _Deed:
    """Something one seat did, as a verb phrase for "you" and for the others."""

    seat: int
    you: str
    other: str


def narrate(events: Sequence[Event], names: Names, board: Board = LINE) -> list[str]:
    """The lines ``names.viewer`` may read about ``events`` (one batch of a match played on
    ``board``)."""
    shown = [e for e in events if _visible(e, names.viewer)]
    lines: list[str] = []
    deeds: list[_Deed] = []

    def flush() -> None:
        while deeds:
            seat = deeds[0].seat
            run = []
            while deeds and deeds[0].seat == seat:
                run.append(deeds.pop(0))
            phrases = [d.you if seat == names.viewer else d.other for d in run]
            lines.append(f"{names.seat(seat)} {and_list(phrases)}.")

    i = 0
    while i < len(shown):
        event = shown[i]
        if isinstance(event, Drew | DrewCount) and _engine_search(shown, i):
            end = next(j for j in range(i, len(shown)) if isinstance(shown[j], EngineSet))
            flush()
            lines.append(_engine_drawn(shown[i:end], shown[end], names))  # type: ignore[arg-type]
            i = end
            continue
        if isinstance(event, Played):
            run = [event]
            while (
                i + len(run) < len(shown)
                and isinstance(nxt := shown[i + len(run)], Played)
                and nxt.seat == event.seat
                and _at(nxt.move) == _at(event.move)
                and _at(event.move) is not None
                and board.runs
            ):
                run.append(nxt)
            deeds.append(_played(run, names, board))
            i += len(run)
            continue
        deed = _deed(event, names, board)
        if deed is not None:
            deeds.append(deed)
        else:
            flush()
            line = describe(event, names, board)
            if line:
                lines.append(line)
        i += 1
    flush()
    return lines


def describe(event: Event, names: Names, board: Board = LINE) -> str | None:
    """One line about an event that is not a seat's own deed (a deal, a hand's end)."""
    viewer = names.viewer
    match event:
        case HandStarted(number=number, counts=counts, stock=stock):
            word = board.hand_word.capitalize()
            each = f"{plural(counts[0], 'tile')} each" if counts else ""
            pile = f"{plural(stock, 'tile')} in the stock" if stock else "no stock"
            return f"{word} {number} is dealt: {each}, {pile}."
        case Dealt(seat=seat, tiles=tiles):
            held = " ".join(map(str, tiles))
            return f"{names.seat(seat)}: {held}" if viewer is None else None
        case LeadDrawn(turned=turned, leader=leader):
            shown = ", ".join(f"{names.seat(s)} {t}" for s, t in enumerate(turned))
            opens = names.says(leader, "open", "opens")
            if leader == viewer:
                opens = opens.lower()
            return f"Draw for the lead: {shown}; {opens}."
        case HandEnded(result=result):
            return describe_hand(result, names)
        case MatchEnded(result=result):
            return describe_match(result, names)
    return None


def _deed(event: Event, names: Names, board: Board) -> _Deed | None:
    viewer = names.viewer
    match event:
        case LeaderChosen(seat=seat, forced=forced):
            if seat != viewer:
                return None  # the lead itself says who opened
            if forced is not None:
                return _Deed(seat, f"open: the lead must be {forced}", "")
            return _Deed(seat, "open: lead any tile", "")
        case EngineSet(seat=seat, tile=tile):
            return _Deed(seat, f"set {tile} as the engine", f"sets {tile} as the engine")
        case Drew(seat=seat, tiles=tiles):
            shown = " ".join(map(str, tiles))
            if len(tiles) == 1:
                return _Deed(seat, f"draw {shown}", f"draws {shown}")
            many = f"{len(tiles)} tiles: {shown}"
            return _Deed(seat, f"draw {many}", f"draws {many}")
        case DrewCount(seat=seat, count=count):
            many = "a tile" if count == 1 else f"{count} tiles"
            return _Deed(seat, f"draw {many}", f"draws {many}")
        case Passed(seat=seat, numbers=numbers):
            if not board.passes_name_numbers:
                return _Deed(seat, "pass", "passes")
            lack = or_list(numbers)
            return _Deed(seat, f"have no {lack} and pass", f"has no {lack} and passes")
        case MarkerChanged(seat=seat, on=on):
            if on:
                return _Deed(
                    seat, "put a marker on your train", "puts a marker on their train"
                )
            return _Deed(seat, "take the marker off your train", "takes the marker off their train")
    return None


def _played(run: list[Played], names: Names, board: Board) -> _Deed:
    first = run[0]
    seat = first.seat
    clock = " (the clock ran out: the table played it)" if first.timeout else ""
    at = _at(first.move)
    if at is None and board.placeless_lead:
        tile = _tile(first.move)
        return _Deed(seat, f"open with {tile}{clock}", f"opens with {tile}{clock}")
    tiles = " ".join(_tile(p.move) for p in run)
    if len(run) > 1:
        what = f"{len(run)} tiles {names.place(at, seat)}: {tiles}"
    else:
        what = f"{tiles} {names.place(at, seat)}"
    return _Deed(seat, f"play {what}{clock}", f"plays {what}{clock}")


def _engine_drawn(draws: list[Event], engine: EngineSet, names: Names) -> str:
    """Mexican Train's draws for a double nobody was dealt, in one line."""
    total = sum(1 for e in draws if isinstance(e, DrewCount)) or len(draws)
    mine = [
        str(t) for e in draws if isinstance(e, Drew) and e.seat == names.viewer for t in e.tiles
    ]
    yours = f"; you drew {' '.join(mine)}" if mine else ""
    who = names.seat_in_text(engine.seat)
    return (
        f"Nobody was dealt {engine.tile}, so from seat 0 each player in turn drew a tile "
        f"until {who} drew it ({plural(total, 'tile')} drawn{yours})."
    )


def _engine_search(events: Sequence[Event], start: int) -> bool:
    """Whether the draws from ``start`` on are all draws for the engine."""
    for event in events[start:]:
        if isinstance(event, EngineSet):
            return True
        if not isinstance(event, Drew | DrewCount):
            return False
    return False


def _visible(event: Event, viewer: int | None) -> bool:
    if event.to is not None and viewer is not None and event.to != viewer:
        return False
    # Whoever may see the tiles drawn is told the tiles themselves, not their number.
    return not (isinstance(event, DrewCount) and (viewer is None or event.seat == viewer))


def _at(move: str) -> str | None:
    _tile_text, sep, at = move.partition("@")
    return at if sep else None


def _tile(move: str) -> str:
    return move.partition("@")[0]


def describe_hand(result: HandResult, names: Names) -> str:
    """The end of a hand in one line: how it ended and who won it. The ending is named as
    the web client names it (the catalog's ``ending.<name>``), here at the head of a sentence
    without its "!", and capicú in brackets in lower case."""
    how = ending_name(result.name or result.ending.value).rstrip("!")
    if result.capicu:
        how += f" ({ending_name('capicu').lower()})"
    if result.winner is None:
        if result.ending is Ending.BLOCKED:
            return f"{how}: nobody can play and nobody can draw."
        return f"{how}: nobody wins the hand."
    return f"{how}: {names.party_says(result.winner, 'win', 'wins')} the hand."


def describe_match(result: MatchResult, names: Names) -> str:
    """The end of the match in one line."""
    who = and_list([names.party(w) for w in result.winners])
    plural_subject = len(result.winners) > 1 or names.teams or result.winners[0] == names.viewer
    text = f"Match over: {who} {'win' if plural_subject else 'wins'} the match"
    return text + (f" — {ending_name('kochon').lower()}" if result.kochon else ".")

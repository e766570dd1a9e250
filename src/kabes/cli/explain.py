"""How a hand's points follow from the pips left, and what each named ending means.

After every hand the terminal shows, in a few sentences, which hands were counted for whom and
why (docs/rules.md, per variant). Until the engine gives its own explanation of a result, this
module works it out from the hands shown face up; it checks its sums against the points the
engine gave and, should they ever differ, says only the engine's points rather than a wrong
reason. ``ENDINGS`` says each named ending in a sentence, for the first time it happens.
"""

from __future__ import annotations

from collections.abc import Sequence

from kabes.cli.describe import NAMES
from kabes.cli.words import Names, and_list
from kabes.options import Options
from kabes.results import Ending, HandResult, MatchResult
from kabes.tiles import Tile

ENDINGS = {
    "tonbe": "TONBE: going out with a last tile that fits only one end.",
    "2-kabes": "2 KABÈS: going out with a last tile that could have gone on either end "
    "(its two numbers matched the two ends, which showed different numbers).",
    "blok": "BLÒK: nobody can play and the stock is empty; the lowest count wins.",
    "capicu": "Capicú: going out with a tile that fits both ends while they show different "
    "numbers.",
    "blocked": "Blocked: nobody can play and nobody can draw, so the hands are counted.",
    "kochon": "Kochon: winning the match while the other side is still at zero.",
    "wa": "Wa (king): the lowest penalty total at the end of the match.",
}
"""Each named ending, said once, the first time it happens in a game."""

HAITIAN_POINTS = {"tonbe": (10, 2, 1), "2-kabes": (15, 8, 2), "blok": (10, 4, 1)}
"""Per ending: the 2-player winner's points, the 3-4 player penalty, the team's points."""


def endings_named(result: HandResult | MatchResult, variant: str, players: int) -> list[str]:
    """The named endings this result shows, as keys of ``ENDINGS``."""
    if isinstance(result, MatchResult):
        wa = variant == "haitian" and players > 2 and result.finished
        return (["kochon"] if result.kochon else []) + (["wa"] if wa else [])
    named = [result.name] if result.name else []
    if result.capicu and result.name is None:
        named.append("capicu")
    if result.ending is Ending.BLOCKED and result.name is None:
        named.append("blocked")
    return named


def pips(hands: Sequence[Sequence[Tile]]) -> list[int]:
    """Each seat's count: the pips left in its hand (the record's ``counts``)."""
    return [sum(t.value for t in hand) for hand in hands]


def explain_points(
    result: HandResult,
    hands: Sequence[Sequence[Tile]],
    variant: str,
    options: Options,
    names: Names,
) -> list[str]:
    """How this hand's points were counted, in a sentence or two."""
    counts = pips(hands)
    if variant == "mexican-train":
        lines = _mexican(result, hands, counts, options, names)
    elif variant.startswith("haitian"):
        lines = _haitian(result, counts, names)
    elif variant.startswith("plaza"):
        lines = _plaza(result, counts, options, names)
    else:
        lines = _partnership(result, counts, names)
    return lines or [_points_only(result, names)]


def _points_only(result: HandResult, names: Names) -> str:
    given = [f"{names.party(p)} +{pts}" for p, pts in enumerate(result.points) if pts]
    return "Points: " + (", ".join(given) if given else "none") + "."


def _sum(values: Sequence[int]) -> str:
    total = sum(values)
    return str(total) if len(values) == 1 else " + ".join(map(str, values)) + f" = {total}"


def _party_counts(counts: list[int], names: Names) -> list[list[int]]:
    if not names.teams:
        return [[c] for c in counts]
    return [[counts[0], counts[2]], [counts[1], counts[3]]]


def _partnership(result: HandResult, counts: list[int], names: Names) -> list[str]:
    w = result.winner
    if w is None:
        return []
    sides = _party_counts(counts, names)
    other = sides[1 - w]
    if result.points[w] != sum(other):
        return []
    score = names.party_says(w, "score", "scores")
    if result.ending is Ending.DOMINO:
        return [f"{score} the opponents' two hands: {_sum(other)}."]
    totals = [sum(s) for s in sides]
    held = f"{names.party(0)} hold {_sum(sides[0])}, {names.party(1)} {_sum(sides[1])}"
    if totals[0] == totals[1]:
        return [f"{held}: equal totals, so the team that played the last tile wins: "
                f"{score} the other's {sum(other)}."]
    return [f"{held}. The lower total wins: {score} the other's {sum(other)}."]


def _plaza(result: HandResult, counts: list[int], options: Options, names: Names) -> list[str]:
    sides = _party_counts(counts, names)
    held = ", ".join(f"{names.party(p)} {_sum(s)}" for p, s in enumerate(sides))
    w = result.winner
    if w is None:
        return [f"Left in hand: {held}. Equal counts: nobody scores."]
    if options.score_losers_only:
        counted = [c for p, s in enumerate(sides) if p != w for c in s]
        what = "the losing side's pips"
    else:
        counted = [c for s in sides for c in s]
        what = "every pip left" + (", partners' included" if names.teams else "")
    bonus = options.capicu_bonus if result.capicu else 0
    if result.points[w] != sum(counted) + bonus:
        return []
    lines = []
    if result.ending is Ending.BLOCKED:
        if options.blocker_wins_block:
            lines.append(f"Left in hand: {held}. This table gives a blocked hand to the side "
                         "that played the last tile.")
        else:
            lines.append(f"Left in hand: {held}. The lower count wins.")
    score = names.party_says(w, "score", "scores")
    lines.append(f"{score} {what}: {_sum(counted)}.")
    if bonus:
        lines.append(f"Capicú bonus: +{bonus}, {result.points[w]} in all.")
    return lines


def _haitian(result: HandResult, counts: list[int], names: Names) -> list[str]:
    name = result.name
    if name is None or result.winner is None:
        return []
    two, penalty, team = HAITIAN_POINTS[name]
    shown = NAMES[name]
    lines = []
    if result.ending is Ending.BLOCKED:
        held = ", ".join(f"{names.seat(s)} {c}" for s, c in enumerate(counts))
        lines.append(f"Left in hand: {held}. The lowest count wins.")
    if names.teams:
        w = result.winner
        lines.append(f"{shown} gives {names.party(w)} +{team}; "
                     f"{names.party_says(1 - w, 'go', 'goes')} back to 0.")
        return lines if result.points[w] == team else []
    if names.players == 2:
        w = result.winner
        lines.append(f"{shown} pays the winner {two}: {names.seat_in_text(w)} +{two}.")
        return lines if result.points[w] == two else []
    worst = max(counts)
    loser = next((p for p, pts in enumerate(result.points) if pts), None)
    if loser is None or result.points[loser] != penalty or counts[loser] != worst:
        return []
    tied = [s for s, c in enumerate(counts) if c == worst]
    who = names.seat_in_text(loser) + (" hold" if loser == names.viewer else " holds")
    line = (f"Only the highest count takes a penalty: {who} {worst}, "
            f"+{penalty} for a {shown}.")
    if len(tied) > 1:
        line += (f" ({and_list([names.seat_in_text(s) for s in tied])} hold {worst}: "
                 "the first of them after the winner in play order takes it.)")
    lines.append(line)
    return lines


def _mexican(
    result: HandResult,
    hands: Sequence[Sequence[Tile]],
    counts: list[int],
    options: Options,
    names: Names,
) -> list[str]:
    blank = options.double_blank_50
    penalties = [
        sum(50 if blank and t.value == 0 else t.value for t in hand) for hand in hands
    ]
    if list(result.points) != penalties:
        return []
    each = ", ".join(f"{names.seat(s)} {p}" for s, p in enumerate(penalties))
    lines = [f"Everyone takes the pips left in hand as a penalty: {each}."]
    if blank and any(p != c for p, c in zip(penalties, counts, strict=True)):
        lines.append("A 0-0 left in hand counts 50 at this table.")
    if result.ending is Ending.BLOCKED:
        fewest = min(penalties)
        best = [s for s, p in enumerate(penalties) if p == fewest]
        who = and_list([names.seat_in_text(s) for s in best])
        lines.append(f"Nobody went out; {who} kept the fewest pips ({fewest}).")
    return lines

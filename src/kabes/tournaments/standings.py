"""The standings (PROTOCOL.md): a match won is 1 point, a bye 1, a loss 0; ties broken by the
sum of the points of the opponents met (Buchholz), then hands won, then points scored less
points conceded, then the entrant's number (the earlier formed first, so the order is total).

Where the variant's scores are penalties (lower is better: ``Rules.penalties``), the
difference is counted the other way: penalties conceded (given to the others) less penalties
taken. At a table of more than two sides, "conceded" is the sum of the other sides' scores.
A shared win (equal scores that share it) is a win for each winner. ``played`` counts matches
finished, byes not included.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kabes.tournaments.model import Round


@dataclass(slots=True)
class Standing:
    """One entrant's line of the standings, as the tournament document shows it."""

    entrant: int
    points: int = 0
    buchholz: int = 0
    hands_won: int = 0
    difference: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    """Every entrant met at a finished table, once per meeting (for Buchholz)."""

    def key(self) -> tuple[int, int, int, int, int]:
        """Its sort key, best first."""
        return (-self.points, -self.buchholz, -self.hands_won, -self.difference, self.entrant)

    def document(self) -> dict[str, int]:
        """Its line in the tournament document."""
        return {"entrant": self.entrant, "points": self.points, "buchholz": self.buchholz,
                "hands_won": self.hands_won, "difference": self.difference,
                "played": self.played}


def standings(entrants: list[int], rounds: list[Round], penalties: bool) -> list[Standing]:
    """The standings of ``entrants`` after ``rounds`` (finished tables and byes only count),
    best first; ``penalties``: whether the variant's scores are penalties."""
    lines = {e: Standing(e) for e in entrants}
    for round_ in rounds:
        for bye in round_.byes:
            lines[bye].points += 1
            lines[bye].byes += 1
        for table in round_.tables:
            result = table.result
            if result is None:
                continue
            total = sum(result.scores)
            for i, entrant in enumerate(table.entrants):
                line = lines[entrant]
                line.played += 1
                line.hands_won += result.hands_won[i]
                own = result.scores[i]
                conceded = total - own
                line.difference += conceded - own if penalties else own - conceded
                if entrant in result.winners:
                    line.points += 1
                line.opponents.extend(e for e in table.entrants if e != entrant)
    for line in lines.values():
        line.buchholz = sum(lines[o].points for o in line.opponents)
    return sorted(lines.values(), key=Standing.key)

"""A tournament as its log has it: every change is an entry (``created``, ``entered``,
``started``, ``paired``, ``opened``, ``result``, ``over``) applied by one function, live and
when the tournament is read back from the store, so the document is always the log's.

Pure: the server stores the entries and folds them here; the pairing of the next round is
asked of :meth:`TournamentState.next_round` and kept as a ``paired`` entry, so a round once
paired never changes, whatever the pairing rules would say on a later reading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kabes.rules import get_rules
from kabes.tournaments.entrants import Entry, Roster
from kabes.tournaments.formats import sides_per_table
from kabes.tournaments.knockout import knockout_round, knockout_rounds, still_in
from kabes.tournaments.model import Pairing, Result, Round
from kabes.tournaments.round_robin import round_robin_round, round_robin_rounds
from kabes.tournaments.standings import Standing, standings
from kabes.tournaments.swiss import swiss_round


@dataclass(slots=True)
class TournamentState:
    """Everything a tournament is, built entry by entry by :meth:`apply`."""

    id: str
    variant: str = ""
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    format: str = "swiss"
    swiss_rounds: int | None = None
    public: bool = False
    host: int = 0
    status: str = "open"
    names: dict[int, str] = field(default_factory=dict)
    roster: Roster = field(default_factory=lambda: Roster(False))
    """The entries folded so far (each in constant time: kabes.tournaments.entrants)."""
    played: list[Round] = field(default_factory=list)
    tables: list[list[str | None]] = field(default_factory=list)
    """Each round's table codes, in the order of its pairings (None until opened)."""
    began: list[float] = field(default_factory=list)
    """When each round was paired (seconds since the epoch, from its ``paired`` entry): its
    tables start by themselves a set time after it, however often the server restarts."""
    seq: int = 0
    """How many entries made it: the next entry is number ``seq + 1``."""

    # The log --------------------------------------------------------------------------

    def apply(self, kind: str, data: dict[str, Any]) -> None:
        """Apply one entry of the log."""
        self.seq += 1
        if kind == "created":
            self.variant = data["variant"]
            self.players = data["players"]
            self.options = dict(data["options"])
            self.format = data["format"]
            self.swiss_rounds = data.get("rounds")
            self.public = bool(data.get("public", False))
            self.host = data["host"]
            self.names[self.host] = data["name"]
            self.roster = Roster(self.teams)
        elif kind == "entered":
            self.names[data["player"]] = data["name"]
            self.roster.add(Entry(data["player"], data.get("partner")))
        elif kind == "started":
            self.status = "running"
        elif kind == "paired":
            tables = tuple(Pairing(tuple(t)) for t in data["tables"])
            self.played.append(Round(tables, tuple(data["byes"])))
            self.tables.append([None] * len(tables))
            self.began.append(float(data.get("at", 0.0)))
        elif kind == "opened":
            self.tables[data["round"] - 1][data["index"]] = data["table"]
        elif kind == "result":
            round_ = self.played[data["round"] - 1]
            finished = list(round_.tables)
            table = finished[data["index"]]
            finished[data["index"]] = Pairing(table.entrants, Result(
                tuple(data["winners"]), tuple(data["scores"]), tuple(data["hands_won"])))
            self.played[data["round"] - 1] = Round(tuple(finished), round_.byes)
        elif kind == "over":
            self.status = "over"
        else:
            raise ValueError(f"no tournament entry {kind!r}")

    @classmethod
    def replay(cls, tournament: str, entries: list[tuple[str, dict[str, Any]]]
               ) -> TournamentState:
        """The tournament ``tournament`` as its ``entries`` (in order) leave it."""
        state = cls(tournament)
        for kind, data in entries:
            state.apply(kind, data)
        return state

    # What it is ------------------------------------------------------------------------

    @property
    def entrants(self) -> list[tuple[int, ...]]:
        """Every entrant, entrant n at index n - 1 (frozen at the start: nobody enters a
        tournament begun)."""
        return self.roster.entrants

    @property
    def teams(self) -> bool:
        """Whether entrants are pairs (the variant's ``Rules.teams``)."""
        return get_rules(self.variant).teams

    @property
    def penalties(self) -> bool:
        """Whether the matches' scores are penalties (``Rules.penalties``)."""
        return get_rules(self.variant).penalties(self.players)

    @property
    def sides(self) -> int:
        """Entrants a table."""
        return sides_per_table(get_rules(self.variant), self.players)

    @property
    def numbers(self) -> list[int]:
        """The entrants' numbers, 1 to n."""
        return list(range(1, len(self.entrants) + 1))

    def entrant_of(self, player: int) -> int | None:
        """The number of the entrant ``player`` belongs to, or None."""
        return self.roster.number.get(player)

    def total_rounds(self) -> int | None:
        """How many rounds are played: Swiss as asked, the others from the entrants' count
        (None for them before the start, while entrants may still come)."""
        if self.format == "swiss":
            return self.swiss_rounds
        if self.status == "open":
            return None
        count = len(self.entrants)
        return round_robin_rounds(count) if self.format == "round_robin" else knockout_rounds(
            count)

    def next_round(self) -> Round | None:
        """The next round to pair (the current one must be over, or the tournament just
        starting), or None if the last round has been played."""
        return self.pairing()()

    def pairing(self) -> Callable[[], Round | None]:
        """:meth:`next_round` as a function of what it needs, read now: it may be run in
        another thread (off the event loop) while this state folds new entries, and still
        pairs the tournament as it was when asked."""
        numbers, played, sides, form = self.numbers, list(self.played), self.sides, self.format
        count = len(numbers)
        total = (self.swiss_rounds or 0) if form == "swiss" else (
            round_robin_rounds(count) if form == "round_robin" else knockout_rounds(count))

        def pair() -> Round | None:
            number = len(played) + 1
            if number > total:
                return None
            if form == "round_robin":
                return round_robin_round(numbers, number)
            if form == "knockout":
                if len(still_in(numbers, played)) < 2:
                    return None
                return knockout_round(numbers, played)
            return swiss_round(numbers, played, sides)
        return pair

    def standings(self) -> list[Standing]:
        """The standings so far, best first."""
        return standings(self.numbers, self.played, self.penalties)

    def winner(self) -> int | None:
        """The winning entrant once the tournament is over (the knockout's last one left,
        else the top of the standings), else None."""
        if self.status != "over" or not self.entrants:
            return None
        if self.format == "knockout":
            return still_in(self.numbers, self.played)[0]
        return self.standings()[0].entrant

    # The document ----------------------------------------------------------------------

    def document(self, statuses: dict[str, str] | None = None) -> dict[str, Any]:
        """The protocol's TOURNAMENT; ``statuses``: the opened tables' statuses by code
        (a table not given is ``"waiting"`` until its result is in)."""
        statuses = statuses or {}
        pairings: list[list[dict[str, Any]]] = []
        for r, round_ in enumerate(self.played):
            row: list[dict[str, Any]] = []
            for i, table in enumerate(round_.tables):
                code = self.tables[r][i]
                winner: int | None = None
                if table.result is not None:
                    status = "over"
                    winner = min(table.result.winners) if table.result.winners else None
                else:
                    status = statuses.get(code or "", "waiting")
                row.append({"table": code, "entrants": list(table.entrants),
                            "status": status, "winner": winner})
            row.extend({"table": None, "entrants": [bye], "status": "bye", "winner": bye}
                       for bye in round_.byes)
            pairings.append(row)
        return {
            "id": self.id, "variant": self.variant, "players": self.players,
            "options": self.options, "format": self.format, "rounds": self.total_rounds(),
            "public": self.public, "status": self.status, "host": self.host,
            "entrants": [{"entrant": n, "players": list(members),
                          "names": [self.names.get(p, "") for p in members]}
                         for n, members in enumerate(self.entrants, start=1)],
            "waiting": [{"player": e.player, "name": self.names.get(e.player, ""),
                         "partner": e.partner} for e in self.roster.waiting()],
            "round": len(self.played), "pairings": pairings,
            "standings": [line.document() for line in self.standings()],
            "winner": self.winner(),
        }

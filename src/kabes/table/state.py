"""What a table is, as its log makes it: seats, host, status, the match, its clocks' starts.

:class:`TableState` is pure: it applies one log entry at a time and knows nothing of sockets,
timers, the store or the event loop, so that a live table and a table rebuilt from its log
(:func:`replay`) are the same value, and a table that must be put back as it was (a write that
failed) is rebuilt with one assignment. Everything in it follows from its entries and the
:class:`Timing` it was built with.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kabes.events import Event, LeadDrawn
from kabes.match import Match
from kabes.moves import TIMEOUT, Move, parse_move
from kabes.table.entries import Entry
from kabes.tiles import parse_tile

ACKS_KEPT = 512
"""Acknowledged action ids remembered per seat, for retries."""
MOVES_KEPT = 10_000
"""Move texts :func:`read_move` remembers before it forgets them all (a double-twelve set
has a few thousand plays)."""

_MOVES: dict[tuple[str, int], Move] = {}


def read_move(text: str, top: int) -> Move:
    """``parse_move(text, top)``, remembered (moves are immutable): a move is read when it
    is checked (``actions.play``) and again when its entry is applied, at every move of every
    table, from a few thousand texts. A text that does not read raises ``BadMove`` and is
    not kept."""
    key = (text, top)
    move = _MOVES.get(key)
    if move is None:
        move = parse_move(text, top)
        if len(_MOVES) >= MOVES_KEPT:
            _MOVES.clear()
        _MOVES[key] = move
    return move


class Status(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    OVER = "over"


class Person(StrEnum):
    """Who may sit in a seat."""

    PERSON = "person"
    COMPUTER = "computer"


@dataclass(slots=True)
class Change:
    """What applying one entry made: the engine's events, and the table's own events
    (``news``: a seat taken, the host changed...), as the wire shows them."""

    events: list[Event] = field(default_factory=list)
    news: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Timing:
    """The lengths of the clocks a table's entries start (PROTOCOL.md guarantee 4); the
    server's settings give them (``config.Settings.timing``), whose defaults they are."""

    turn_seconds: float
    away_seconds: float
    pause_seconds: float


@dataclass(slots=True)
class Seat:
    """Who sits in a seat, as the log says (their sockets are the actor's)."""

    kind: str
    """``person`` or ``computer``."""
    name: str
    player: int | None = None
    level: str | None = None
    arrived: int = 0
    """The seq at which this person sat down (arrival order, for handing on the host)."""
    sat_at: float = 0.0
    """When this person sat down (the entry's time): a public table's seat-wait counts from
    it (kabes.server.table.seat_wait)."""
    left: bool = False
    away_since: float | None = None
    """When this person last lost every socket (None while connected; computers: None)."""
    restarted: bool = False
    """Since a restart (or a disconnection forced by the servers: a process died, the link
    between processes broke), this person has neither come back nor ended a turn: they were
    forced off, so they keep the normal clock until one of those happens."""

    @property
    def person(self) -> bool:
        """Whether a person sits here."""
        return self.kind == Person.PERSON


@dataclass(slots=True)
class TableState:
    """A table as its log has made it so far."""

    code: str
    timing: Timing
    variant: str = ""
    players: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat | None] = field(default_factory=list)
    host: int = 0
    status: Status = Status.WAITING
    match: Match | None = None
    seq: int = 0
    changed_at: float = 0.0
    turn_id: int = 0
    """Raised at every deal and move: a computer's answer for an older turn is dropped."""
    turn_start: float = 0.0
    turn_budget: float = 0.0
    pause_start: float = 0.0
    pause_budget: float = 0.0
    next_table: str | None = None
    """The table opened by ``play_again`` once this match is over."""
    tournament: str | None = None
    """The tournament whose match this table plays (None for any other table)."""
    tournament_round: int | None = None
    """Which round of that tournament."""
    start_by: float | None = None
    """A tournament table starts at this time even with people absent (its round's start
    plus ``--tournament-wait-seconds``, as written in its ``created`` entry)."""
    public: bool = False
    """Listed in the lobby; starts by itself when its last seat is taken."""
    watch: bool = False
    """Anyone holding the code may watch."""
    opened_at: float = 0.0
    """When the ``created`` entry was made (the lobby lists the oldest first)."""
    moved: dict[int, int] = field(default_factory=dict)
    """Per seat, the hand (1 for the first) in which it last made a move of its own, not the
    clock's ``timeout``: a hand is rated only if every person moved in it (outcomes.py)."""
    removed: set[int] = field(default_factory=set)
    """The players the host removed before the start: they may not sit here again."""
    acks: dict[int, OrderedDict[str, int]] = field(default_factory=dict)
    """Per seat, the action ids the log holds and the seq each made (retries get its ack)."""
    _unstarted: Match | None = None
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What the outbox keeps from one change to the next (``kabes.table.outbox``): parts of
    its messages built from values that did not change (the options, an unchanged summary),
    built again when they do. No fact of the table: a rebuilt table starts without it."""

    # Applying entries --------------------------------------------------------------------

    def apply(self, entry: Entry) -> Change:
        """Apply one log entry; the engine events and the table's own events it made.
        Raises KabesError (nothing changed) only for a move the engine refuses."""
        handler = _HANDLERS.get(entry.kind)
        if handler is None:
            raise ValueError(f"table {self.code}: unknown log entry {entry.kind!r}")
        change = Change()
        handler(self, entry, change)
        self.seq = entry.seq
        self.changed_at = entry.at
        if entry.seat is not None and entry.action is not None:
            kept = self.acks.setdefault(entry.seat, OrderedDict())
            kept[entry.action] = entry.seq
            while len(kept) > ACKS_KEPT:
                kept.popitem(last=False)
        return change

    def _created(self, entry: Entry, change: Change) -> None:
        data = entry.data
        self.variant = data["variant"]
        self.players = data["players"]
        self.options = dict(data["options"])
        self.seats = [None] * self.players
        self.seats[0] = Seat(Person.PERSON, data["name"], data["player"], arrived=entry.seq,
                             sat_at=entry.at, away_since=entry.at)
        for number, level in data["computers"].items():
            self.seats[int(number)] = Seat(Person.COMPUTER, level.capitalize(), level=level)
        for number, (player, name) in enumerate(data.get("seated", ()), start=1):
            # A tournament table opens with its entrants seated: one entry, not a join each.
            self.seats[number] = Seat(Person.PERSON, name, player, arrived=entry.seq,
                                      sat_at=entry.at, away_since=entry.at)
        self.host = 0
        self.tournament = data.get("tournament")
        self.tournament_round = data.get("round")
        self.start_by = data.get("start_by")
        self.public = bool(data.get("public", False))
        self.watch = bool(data.get("watch", False))
        self.opened_at = entry.at

    def _joined(self, entry: Entry, change: Change) -> None:
        data = entry.data
        self.seats[data["seat"]] = Seat(Person.PERSON, data["name"], data["player"],
                                        arrived=entry.seq, sat_at=entry.at,
                                        away_since=entry.at)
        change.news.append({"kind": "seat_taken", "seat": data["seat"]})

    def _connected(self, entry: Entry, change: Change) -> None:
        sitter = self.seat(entry.data["seat"])
        sitter.away_since = None
        sitter.restarted = False
        change.news.append({"kind": "connected", "seat": entry.data["seat"]})

    def _disconnected(self, entry: Entry, change: Change) -> None:
        sitter = self.seat(entry.data["seat"])
        # Logged late (kabes.table.presence), it says when the last socket went.
        sitter.away_since = entry.data.get("since", entry.at)
        if entry.data.get("forced"):  # the servers dropped the socket: not the person's doing
            sitter.restarted = True
        change.news.append({"kind": "disconnected", "seat": entry.data["seat"]})

    def _left(self, entry: Entry, change: Change) -> None:
        data = entry.data
        number = data["seat"]
        if self.status == Status.WAITING:
            self.seats[number] = None
        else:
            sitter = self.seat(number)
            sitter.left = True
            sitter.away_since = sitter.away_since or entry.at
        change.news.append({"kind": "seat_left", "seat": number})
        if data.get("host") is not None and data["host"] != self.host:
            self.host = data["host"]
            change.news.append({"kind": "host_changed", "seat": self.host})
        if data.get("closed"):
            self.status = Status.OVER

    def _removed(self, entry: Entry, change: Change) -> None:
        number = entry.data["seat"]
        self.seats[number] = None
        self.removed.add(entry.data["player"])
        change.news.append({"kind": "seat_removed", "seat": number})

    def _started(self, entry: Entry, change: Change) -> None:
        self.match = Match(self.variant, self.players, self.options)
        self.status = Status.PLAYING
        change.news.append({"kind": "started"})
        for number in entry.data.get("present", ()):
            # Who had a socket open at the start (the wait's connections are not logged).
            self.seat(number).away_since = None
        if entry.data.get("auto"):
            # A public table starts by itself when its last seat is taken, before its last
            # people can open their sockets: nobody is on the short clock for that.
            for someone in self.seats:
                if someone is not None and someone.person and someone.away_since is not None:
                    someone.restarted = True
        change.events += self._deal(entry.data, entry.at)

    def _dealt(self, entry: Entry, change: Change) -> None:
        self.status = Status.PLAYING
        change.events += self._deal(entry.data, entry.at)

    def _move(self, entry: Entry, change: Change) -> None:
        match = self._started_match()
        number, played = entry.data["seat"], entry.data["move"]
        move = TIMEOUT if played == "timeout" else read_move(played, match.rules.top)
        change.events += match.apply(number, move)
        if move is not TIMEOUT:
            self.moved[number] = len(match.log)
        self.seat(number).restarted = False  # its first turn since a restart is over
        self.turn_id += 1
        if match.over:
            self.status = Status.OVER
        elif not match.hand_in_progress:
            self.status = Status.BETWEEN_HANDS
            self.pause_start = entry.at
            self.pause_budget = self.timing.pause_seconds
        else:
            self.turn_start = entry.at
            self.turn_budget = self.timing.turn_seconds

    def _finish(self, entry: Entry, change: Change) -> None:
        change.events += self._started_match().finish()
        self.status = Status.OVER
        change.news.append({"kind": "finished"})

    def _next_table(self, entry: Entry, change: Change) -> None:
        self.next_table = entry.data["code"]
        change.news.append({"kind": "next_table", "code": self.next_table})

    def _abandoned(self, entry: Entry, change: Change) -> None:
        """No person had a socket open here for the server's ``--abandon-seconds``: a
        waiting table closes, a match ends with the hands finished so far (Match.abandon)."""
        if self.match is not None:
            change.events += self.match.abandon()
        self.status = Status.OVER
        change.news.append({"kind": "abandoned"})

    def _resumed(self, entry: Entry, change: Change) -> None:
        self.turn_start = entry.at
        self.turn_budget = entry.data["remaining_ms"] / 1000
        self.pause_start = entry.at
        self.pause_budget = entry.data["pause_ms"] / 1000
        for someone in self.seats:
            if someone is not None and someone.person:
                someone.away_since = someone.away_since if someone.left else entry.at
                someone.restarted = not someone.left

    def _deal(self, data: dict[str, Any], at: float) -> list[Event]:
        match = self._started_match()
        top = match.rules.top
        deal = [[parse_tile(t, top) for t in hand] for hand in data["deal"]]
        stock = [parse_tile(t, top) for t in data["stock"]]
        events: list[Event] = []
        if data.get("leader") is not None:
            events.append(LeadDrawn((), data["leader"]))
        events += match.start_hand(deal, stock, data.get("leader"))
        self.turn_id += 1
        self.turn_start = at
        self.turn_budget = self.timing.turn_seconds
        return events

    def _started_match(self) -> Match:
        assert self.match is not None, f"table {self.code}: no match yet"
        return self.match

    # Facts -------------------------------------------------------------------------------

    def seat(self, number: int) -> Seat:
        """The one sitting at ``number`` (asserted: callers know the seat is taken)."""
        sitter = self.seats[number]
        assert sitter is not None, f"seat {number} is empty"
        return sitter

    @property
    def turn(self) -> int | None:
        """The seat to move, while a hand is played."""
        if self.status != Status.PLAYING or self.match is None:
            return None
        return self.match.turn

    def computer_to_think(self, thinking: int) -> bool:
        """Whether the seat to move is a computer's that was not set thinking this turn yet
        (``thinking``: the ``turn_id`` it was last set thinking at). The server's computer
        seats and a phone's local table ask it alike, once a change."""
        turn = self.turn
        if turn is None or thinking == self.turn_id:
            return False
        sitter = self.seats[turn]
        return sitter is not None and not sitter.person

    @property
    def people_only(self) -> bool:
        """Whether every seat is (or will be) a person's: only such tables are rated."""
        return all(s is None or s.person for s in self.seats)

    @property
    def free_seats(self) -> list[int]:
        """The seats nobody has taken, lowest first."""
        return [n for n, s in enumerate(self.seats) if s is None]

    def seat_of(self, player: int) -> int | None:
        """The seat ``player`` holds here, if any."""
        for number, sitter in enumerate(self.seats):
            if sitter is not None and sitter.player == player and not sitter.left:
                return number
        return None

    def acked(self, seat: int, action: str) -> int | None:
        """The seq the log's entry for ``seat``'s action ``action`` made, if it holds one."""
        kept = self.acks.get(seat)
        return None if kept is None else kept.get(action)

    def away(self, seat: int) -> bool:
        """Whether ``seat`` is on the short clock: a person with no socket (or who left)."""
        sitter = self.seats[seat]
        return (
            sitter is not None and sitter.person and sitter.away_since is not None
            and not sitter.restarted
        )

    def deadline(self) -> float | None:
        """When the running clock (the turn's, or the pause's) runs out, if one runs."""
        turn = self.turn
        if turn is not None:
            end = self.turn_start + self.turn_budget
            sitter = self.seats[turn]
            if sitter is not None and sitter.away_since is not None and self.away(turn):
                went = max(self.turn_start, sitter.away_since)
                end = min(end, went + self.timing.away_seconds)
            return end
        if self.status == Status.BETWEEN_HANDS:
            return self.pause_start + self.pause_budget
        return None

    def left_at(self, stopped: float) -> tuple[float, float]:
        """Seconds the turn and the pause had left at ``stopped`` (a restart gives them back)."""
        remaining = max(0.0, self.turn_start + self.turn_budget - max(stopped, self.turn_start))
        paused = max(0.0, self.pause_start + self.pause_budget - max(stopped, self.pause_start))
        return remaining, paused

    @property
    def rules_match(self) -> Match:
        """The match, or before the start a match not yet dealt (its options with defaults,
        its first hand's rules), built once rather than for every summary and view."""
        if self.match is not None:
            return self.match
        if self._unstarted is None:
            self._unstarted = Match(self.variant, self.players, self.options)
        return self._unstarted

    def next_host(self, leaving: int) -> int | None:
        """The person who sat down first among those who stay."""
        stay = [
            (s.arrived, n) for n, s in enumerate(self.seats)
            if s is not None and s.person and not s.left and n != leaving
        ]
        return min(stay)[1] if stay else None

    def against_computers(self, seat: int) -> bool:
        """Whether every seat but ``seat`` is a computer's (hints and reviews are for such
        tables only)."""
        others = [s for n, s in enumerate(self.seats) if n != seat]
        return all(s is not None and not s.person for s in others)


_HANDLERS: dict[str, Callable[[TableState, Entry, Change], None]] = {
    "created": TableState._created,
    "joined": TableState._joined,
    "connected": TableState._connected,
    "disconnected": TableState._disconnected,
    "left": TableState._left,
    "removed": TableState._removed,
    "started": TableState._started,
    "dealt": TableState._dealt,
    "move": TableState._move,
    "finish": TableState._finish,
    "next_table": TableState._next_table,
    "resumed": TableState._resumed,
    "abandoned": TableState._abandoned,
}
"""One handler per kind of entry: what each kind does to a table is read in one place."""


def replay(code: str, timing: Timing, entries: Iterable[Entry]) -> TableState:
    """The table that ``entries`` make, from nothing."""
    state = TableState(code, timing)
    for entry in entries:
        state.apply(entry)
    return state

"""The messages a table sends (docs/protocol.md, "Server messages"), as plain data classes.

Standard library only, so that the table builds them wherever it runs: the server encodes
them with msgspec (which encodes data classes as it does its own structs, fields in order),
a pure caller with :class:`kabes.table.encoding.JsonEncoder`; both write the same JSON.

The shape on the wire is the fields' order and names:

- a message's ``type`` is its first field, set by the class (``init=False``): written first,
  as a tagged struct writes its tag;
- a field is never left out, but for the one message that has optional fields, ``error``:
  its ``reason`` and ``facts`` are :class:`ReasonedError`'s, written only by a refusal that
  has a reason (``Refused.to_error``);
- a part typed :data:`Part` may be a value prepared once for many messages by the encoder
  (``Encoder.shared``: the summary and public events of a change, shared by every seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Part = object
"""A part of a message as the encoder prepared it once for many messages
(``Encoder.shared``), or the part itself."""


@dataclass(slots=True)
class SeatInfo:
    """Who sits in a seat, as the table summary shows it."""

    seat: int
    name: str
    player: int | None
    kind: str
    level: str | None
    connected: bool
    left: bool


@dataclass(slots=True)
class Summary:
    """The table summary: variant, options (defaults included), host, status, seats;
    whether it is listed in the lobby (``public``), may be watched (``watch``), and how many
    sockets watch it now (``watchers``)."""

    code: str
    variant: str
    players: int
    options: dict[str, Any]
    host: int
    status: str
    seats: list[SeatInfo | None]
    next_table: str | None
    tournament: str | None = None
    """The tournament this table's match belongs to (null for other tables)."""
    round: int | None = None
    """Its round in that tournament."""
    public: bool = False
    watch: bool = False
    watchers: int = 0


@dataclass(slots=True)
class Clock:
    """The running turn clock: whose, how long is left, whether that seat is away."""

    seat: int
    remaining_ms: int
    away: bool
    total_ms: int


@dataclass(slots=True)
class Pause:
    """The pause between hands."""

    remaining_ms: int
    total_ms: int


@dataclass(slots=True)
class LastHand:
    """Between hands and after the match: the hand just ended, face up, and its result."""

    result: dict[str, Any]
    hands: list[list[str]]
    explanation: list[dict[str, Any]]


@dataclass(slots=True)
class Train:
    """A train in Mexican Train: its owner (None: the public train), tiles, open end, marker."""

    owner: int | None
    tiles: list[str]
    end: int
    marked: bool


@dataclass(slots=True)
class View:
    """A seat's VIEW: what that seat may see of the match (``kabes.views.view``), with the
    clocks the table adds. A field typed ``Part`` may hold, in the views of one change, a
    part every seat is shown alike, prepared once by the encoder (``wire.view_messages``)."""

    variant: str
    players: int
    seat: int | None
    teams: bool
    hand_number: int
    hand: list[str]
    counts: list[int]
    stock: int
    turn: int | None
    leader: int | None
    legal: list[str]
    line: list[str] | None
    ends: list[int] | None
    forced_lead: str | None
    engine: str | None
    trains: list[Train]
    open_double: str | None
    played: list[tuple[int, str]]
    passes: list[tuple[int, list[int]]]
    draws: list[int]
    voids: list[list[int]]
    scores: list[int]
    target: int | None
    hands_played: int
    hand_wins: list[int]
    options: dict[str, Any] | Part
    clock: Clock | None
    pause: Pause | None
    last_hand: LastHand | Part | None
    result: dict[str, Any] | Part | None
    traits: dict[str, Any] | Part
    """The variant's traits for this seat count (``Rules.traits``): one value per variant
    and seat count (and encoder), shared by every view of it (never changed)."""


@dataclass(slots=True)
class Welcome:
    """The answer to a hello: the seat, the table and the seat's view."""

    type: str = field(default="welcome", init=False)
    seq: int
    seat: int | None
    table: Summary | Part
    view: View


@dataclass(slots=True)
class Update:
    """After every change, to every connected seat: the events it may see and its view."""

    type: str = field(default="update", init=False)
    seq: int
    table: Summary | Part
    events: list[dict[str, Any]] | Part
    view: View


@dataclass(slots=True)
class Ack:
    """The action ``id`` was applied; ``seq`` is the update it made."""

    type: str = field(default="ack", init=False)
    id: str
    seq: int


@dataclass(slots=True)
class Error:
    """The action was refused and nothing changed (``code``: an ``ErrorCode``)."""

    type: str = field(default="error", init=False)
    id: str | None
    code: str
    message: str


@dataclass(slots=True)
class ReasonedError(Error):
    """An ``error`` with the refusal's ``reason`` and ``facts`` (a refused move's, from the
    engine), for clients to word it themselves."""

    reason: str
    facts: dict[str, Any]


@dataclass(slots=True)
class Hint:
    """The expert's move and reason, answering ``hint``."""

    type: str = field(default="hint", init=False)
    id: str
    move: str
    reason: str


@dataclass(slots=True)
class ReviewMove:
    """One move of a review where the expert would have played otherwise."""

    index: int
    played: str
    better: str
    reason: str
    view: View


@dataclass(slots=True)
class Review:
    """The answer to ``review``: the asker's moves of hand ``hand`` the expert would change."""

    type: str = field(default="review", init=False)
    id: str
    hand: int
    moves: list[ReviewMove]


@dataclass(slots=True)
class Said:
    """A seat said a fixed phrase: to every socket at the table, watchers included. ``at``:
    the server's time in ms; ``seq``: the table's, unchanged (a phrase is no change)."""

    type: str = field(default="said", init=False)
    seq: int
    seat: int
    phrase: str
    at: int


ServerMessage = Welcome | Update | Ack | Error | Hint | Review | Said
"""Every message a table sends a socket (``ReasonedError`` is an ``Error``)."""

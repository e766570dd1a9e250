"""The table protocol's messages, both ways, and its error codes (docs/protocol.md).

Every message a client sends (on the socket, or as an HTTP body) is a struct here, decoded by
msgspec with :func:`decode_as`; every message the server sends is a struct here, encoded once
per distinct content. A refusal is :class:`Refused` with an :class:`ErrorCode`, whatever layer
raises it: the socket turns it into an ``error`` message, HTTP into ``{"code", "message"}``
with the code's status. Nothing else in the server writes a message's shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, Final, TypeVar

import msgspec

MAX_MESSAGE_BYTES: Final = 4096
"""A client message over this many bytes closes its socket (1009)."""
MAX_MESSAGES_PER_SECOND: Final = 100
"""More client messages than this within one second: from one socket, the one too many is
answered ``slow_down`` and the socket closed (1008); from all the sockets of one seat
together, each one too many is refused ``slow_down``, the sockets kept (seat_limits.py)."""
BODY_LIMIT: Final = 16 * 1024
"""An HTTP request body over this many bytes is refused (413)."""

T = TypeVar("T")


class ErrorCode(StrEnum):
    """Every code a refusal carries, on the socket and over HTTP."""

    BAD_NAME = "bad_name"
    BAD_TOKEN = "bad_token"
    NOT_FOUND = "not_found"
    BAD_VARIANT = "bad_variant"
    BAD_OPTIONS = "bad_options"
    BAD_LEVEL = "bad_level"
    PEOPLE_ONLY = "people_only"
    TABLE_FULL = "table_full"
    STARTED = "started"
    NOT_SEATED = "not_seated"
    BAD_MESSAGE = "bad_message"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"
    NOT_HOST = "not_host"
    NOT_NOW = "not_now"
    NO_HINTS = "no_hints"
    SLOW_DOWN = "slow_down"
    TOO_MANY_TABLES = "too_many_tables"
    """A player holds the most seats at tables waiting to start (kabes.server.seat_holds)."""
    UNAVAILABLE = "unavailable"
    """An addition: the store (or the table's owner) could not keep or answer; try again."""
    BAD_STEP = "bad_step"
    """An addition (lessons): a step or choice that does not exist, or a try that does not fit."""
    BAD_LANGUAGE = "bad_language"
    """An addition (lessons): a language the lessons are not written in."""
    REMOVED = "removed"
    """An addition: the host removed this player from the table before its start; they may
    not take a seat there again."""
    TOO_MANY_SOCKETS = "too_many_sockets"
    """An addition: a seat opened a socket beyond its cap; its oldest is closed (4409)."""
    TOURNAMENT_FULL = "tournament_full"
    """``enter`` of a tournament that has ``--tournament-max-entrants`` entrants."""


HTTP_STATUS: Final[Mapping[ErrorCode, int]] = {
    ErrorCode.BAD_NAME: 422, ErrorCode.BAD_TOKEN: 401, ErrorCode.NOT_FOUND: 404,
    ErrorCode.BAD_VARIANT: 422, ErrorCode.BAD_OPTIONS: 422, ErrorCode.BAD_LEVEL: 422,
    ErrorCode.PEOPLE_ONLY: 422, ErrorCode.TABLE_FULL: 409, ErrorCode.STARTED: 409,
    ErrorCode.NOT_SEATED: 403, ErrorCode.BAD_MESSAGE: 422, ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.ILLEGAL_MOVE: 409, ErrorCode.NOT_HOST: 403, ErrorCode.NOT_NOW: 409,
    ErrorCode.NO_HINTS: 409, ErrorCode.SLOW_DOWN: 429, ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BAD_STEP: 400, ErrorCode.BAD_LANGUAGE: 400,
    ErrorCode.REMOVED: 403, ErrorCode.TOO_MANY_SOCKETS: 409, ErrorCode.TOO_MANY_TABLES: 409,
    ErrorCode.TOURNAMENT_FULL: 409,
}
"""The HTTP status each code is answered with."""


def error_code(text: str) -> ErrorCode:
    """The code named ``text`` (relayed from another process); ``unavailable`` if this
    process knows no such code (a process of another version)."""
    try:
        return ErrorCode(text)
    except ValueError:
        return ErrorCode.UNAVAILABLE


class Refused(Exception):
    """A request or an action refused with a protocol code; nothing was changed. A refused
    move also carries the engine's ``reason`` and ``facts`` (kabes.errors), which the
    ``error`` message passes on so that clients can word it themselves."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        reason: str | None = None,
        facts: dict[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.facts = facts
        self.status = HTTP_STATUS[code] if status is None else status

    def to_error(self, action_id: str | None) -> Error:
        """The socket's ``error`` message for this refusal."""
        if self.reason is None:
            return Error(action_id, self.code, self.message)
        return Error(action_id, self.code, self.message, self.reason, dict(self.facts or {}))

    def to_body(self) -> dict[str, str]:
        """The HTTP error body."""
        return {"code": str(self.code), "message": self.message}


# Client to server ----------------------------------------------------------------------------

ActionId = Annotated[str, msgspec.Meta(max_length=64)]


class Hello(msgspec.Struct, tag="hello", tag_field="type"):
    """The first message on a socket: whose seat this is, or (``watch``) a watcher, who
    needs no token."""

    token: Annotated[str, msgspec.Meta(max_length=1024)] | None = None
    watch: bool = False


class PlayAction(msgspec.Struct, tag="play", tag_field="type"):
    """Play a tile: ``move`` in record notation."""

    id: ActionId
    move: Annotated[str, msgspec.Meta(max_length=32)]


class StartAction(msgspec.Struct, tag="start", tag_field="type"):
    """Host: start the match once every seat is taken."""

    id: ActionId


class NextHandAction(msgspec.Struct, tag="next_hand", tag_field="type"):
    """Host, between hands: deal now."""

    id: ActionId


class FinishAction(msgspec.Struct, tag="finish", tag_field="type"):
    """Host, open-ended tables between hands: end the match."""

    id: ActionId


class HintAction(msgspec.Struct, tag="hint", tag_field="type"):
    """Ask the expert for a move (tables against the computer only)."""

    id: ActionId


class ReviewAction(msgspec.Struct, tag="review", tag_field="type"):
    """Between hands or after the match, at a table against the computer only: the moves of
    the hand just ended where the expert would have played otherwise."""

    id: ActionId


class SyncAction(msgspec.Struct, tag="sync", tag_field="type"):
    """Send me a fresh update."""

    id: ActionId


class LeaveAction(msgspec.Struct, tag="leave", tag_field="type"):
    """Give up my seat: before the start it is freed, after it the table plays for it by the
    clock rule. A host who leaves hands the table on."""

    id: ActionId


class PlayAgainAction(msgspec.Struct, tag="play_again", tag_field="type"):
    """Once the match is over: open the same table again. The first to ask hosts it; every
    seat is told its code (``next_table``) and joins it."""

    id: ActionId


class RemoveAction(msgspec.Struct, tag="remove", tag_field="type"):
    """Host, before the start: free ``seat``, whose player may not sit at this table again."""

    id: ActionId
    seat: Annotated[int, msgspec.Meta(ge=0)]


class SayAction(msgspec.Struct, tag="say", tag_field="type"):
    """Say fixed phrase ``phrase`` (``GET /api/phrases``) to everyone at the table."""

    id: ActionId
    phrase: Annotated[str, msgspec.Meta(max_length=32)]


Action = (
    PlayAction | StartAction | NextHandAction | FinishAction | HintAction | ReviewAction
    | SyncAction | LeaveAction | PlayAgainAction | RemoveAction | SayAction
)
ClientMessage = Hello | Action


class NewGuest(msgspec.Struct):
    """``POST /api/guests``."""

    name: str


class NewTable(msgspec.Struct):
    """``POST /api/tables``: ``players`` and ``options`` as in game records (defaults if
    left out); ``computers`` maps seats (as strings, never "0") to levels."""

    variant: str
    players: int | None = None
    options: dict[str, Any] | None = None
    computers: dict[str, str] | None = None
    public: bool = False
    """Listed in the lobby, where anyone may take a free seat (PROTOCOL.md, public tables)."""
    watch: bool | None = None
    """Whether anyone holding the code may watch; None: as ``public``."""


class QuickSeat(msgspec.Struct):
    """``POST /api/quick``: a seat at a public waiting table of ``variant`` whose seat count
    and stated options match, or a new public table (``players`` and ``options`` as for a
    table, defaults if left out)."""

    variant: str
    players: int | None = None
    options: dict[str, Any] | None = None


class LessonTry(msgspec.Struct):
    """``POST /api/lessons/{id}/try``: ``move`` at a ``play`` step, ``choice`` at a
    ``choose`` step, neither at a ``read`` step."""

    step: Annotated[int, msgspec.Meta(ge=0)]
    move: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    choice: Annotated[int, msgspec.Meta(ge=0)] | None = None


# Tournaments (PROTOCOL.md, "Tournaments") -------------------------------------------------


class NewTournament(msgspec.Struct):
    """``POST /api/tournaments``: ``players`` and ``options`` as for a table (each match's;
    never open-ended), ``format`` one of ``swiss``, ``round_robin``, ``knockout``, ``rounds``
    for a Swiss only (3 if left out), ``public`` to be listed."""

    variant: str
    players: int | None = None
    options: dict[str, Any] | None = None
    format: str = "swiss"
    rounds: Annotated[int, msgspec.Meta(ge=1, le=64)] | None = None
    public: bool = False


class EnterTournament(msgspec.Struct):
    """``POST /api/tournaments/{id}/enter``: ``{}``, or in a team variant the partner named
    (a pair is an entrant once each has named the other)."""

    partner: int | None = None


TOURNAMENT_FIELD_CODES: Final[Mapping[str, ErrorCode]] = {
    "variant": ErrorCode.BAD_VARIANT, "players": ErrorCode.BAD_OPTIONS,
    "options": ErrorCode.BAD_OPTIONS, "format": ErrorCode.BAD_OPTIONS,
    "rounds": ErrorCode.BAD_OPTIONS,
}


FIELD_CODES: Final[Mapping[type, Mapping[str, ErrorCode]]] = {
    NewGuest: {"name": ErrorCode.BAD_NAME},
    NewTable: {"variant": ErrorCode.BAD_VARIANT, "players": ErrorCode.BAD_OPTIONS,
               "options": ErrorCode.BAD_OPTIONS, "computers": ErrorCode.BAD_LEVEL,
               "public": ErrorCode.BAD_OPTIONS, "watch": ErrorCode.BAD_OPTIONS},
    QuickSeat: {"variant": ErrorCode.BAD_VARIANT, "players": ErrorCode.BAD_OPTIONS,
                "options": ErrorCode.BAD_OPTIONS},
    NewTournament: TOURNAMENT_FIELD_CODES,
}
"""For a body whose field is wrong, the code the protocol names for that field (else
``bad_message``)."""

_FIELD = re.compile(r"field `([A-Za-z_]+)`|at `\$\.([A-Za-z_]+)")
_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def decode_client(data: str | bytes) -> ClientMessage:
    """A socket message: a hello or an action; :class:`BadInput` (``bad_message``) else."""
    message: ClientMessage = decode_as(ClientMessage, data)  # type: ignore[arg-type]
    return message


def decode_as(kind: type[T], data: str | bytes) -> T:
    """``data`` decoded as ``kind``; :class:`BadInput` naming what is wrong: the code of the
    wrong field (:data:`FIELD_CODES`), else ``bad_message``."""
    decoder = _DECODERS.get(kind)
    if decoder is None:
        decoder = _DECODERS[kind] = msgspec.json.Decoder(kind)
    try:
        decoded: T = decoder.decode(data)
        return decoded
    except msgspec.DecodeError as err:
        raise _refusal(kind, str(err), data) from None


class BadInput(Refused):
    """A message or body that does not decode as its type: the code of its wrong field, and
    the id of the action it was, when one can be read (a socket's ``error`` names it)."""

    def __init__(self, code: ErrorCode, message: str, action_id: str | None) -> None:
        super().__init__(code, message)
        self.action_id = action_id


def _refusal(kind: type, reason: str, data: str | bytes) -> BadInput:
    found = _FIELD.search(reason)
    name = None if found is None else (found.group(1) or found.group(2))
    code = FIELD_CODES.get(kind, {}).get(name or "", ErrorCode.BAD_MESSAGE)
    return BadInput(code, reason, _loose_id(data))


def _loose_id(data: str | bytes) -> str | None:
    """The ``id`` of a message that did not decode, if it has a usable one."""
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    if isinstance(raw, dict):
        value = raw.get("id")
        if isinstance(value, str) and len(value) <= 64:
            return value
    return None


# Server to client ----------------------------------------------------------------------------


class SeatInfo(msgspec.Struct):
    """Who sits in a seat, as the table summary shows it."""

    seat: int
    name: str
    player: int | None
    kind: str
    level: str | None
    connected: bool
    left: bool


class Summary(msgspec.Struct):
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


class Clock(msgspec.Struct):
    """The running turn clock: whose, how long is left, whether that seat is away."""

    seat: int
    remaining_ms: int
    away: bool
    total_ms: int


class Pause(msgspec.Struct):
    """The pause between hands."""

    remaining_ms: int
    total_ms: int


class LastHand(msgspec.Struct):
    """Between hands and after the match: the hand just ended, face up, and its result."""

    result: dict[str, Any]
    hands: list[list[str]]
    explanation: list[dict[str, Any]]


class Train(msgspec.Struct):
    """A train in Mexican Train: its owner (None: the public train), tiles, open end, marker."""

    owner: int | None
    tiles: list[str]
    end: int
    marked: bool


class View(msgspec.Struct):
    """A seat's VIEW: what that seat may see of the match (``kabes.views.view``), with the
    clocks the table adds."""

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
    options: dict[str, Any]
    clock: Clock | None
    pause: Pause | None
    last_hand: LastHand | None
    result: dict[str, Any] | None
    traits: msgspec.Raw
    """The variant's traits for this seat count (``Rules.traits``), encoded once."""


Raw = msgspec.Raw
"""A part of a message already encoded (a summary or events shared by every seat's update)."""


class Welcome(msgspec.Struct, tag="welcome", tag_field="type"):
    """The answer to a hello: the seat, the table and the seat's view."""

    seq: int
    seat: int | None
    table: Summary | Raw
    view: View


class Update(msgspec.Struct, tag="update", tag_field="type"):
    """After every change, to every connected seat: the events it may see and its view."""

    seq: int
    table: Summary | Raw
    events: list[dict[str, Any]] | Raw
    view: View


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    """The action ``id`` was applied; ``seq`` is the update it made."""

    id: str
    seq: int


class Error(msgspec.Struct, tag="error", tag_field="type", omit_defaults=True):
    """The action was refused and nothing changed (``reason`` and ``facts``: a refused
    move's, from the engine, for clients to word it)."""

    id: str | None
    code: ErrorCode
    message: str
    reason: str | None = None
    facts: dict[str, Any] | None = None


class Hint(msgspec.Struct, tag="hint", tag_field="type"):
    """The expert's move and reason, answering ``hint``."""

    id: str
    move: str
    reason: str


class ReviewMove(msgspec.Struct):
    """One move of a review where the expert would have played otherwise."""

    index: int
    played: str
    better: str
    reason: str
    view: View


class Review(msgspec.Struct, tag="review", tag_field="type"):
    """The answer to ``review``: the asker's moves of hand ``hand`` the expert would change."""

    id: str
    hand: int
    moves: list[ReviewMove]


class Said(msgspec.Struct, tag="said", tag_field="type"):
    """A seat said a fixed phrase: to every socket at the table, watchers included. ``at``:
    the server's time in ms; ``seq``: the table's, unchanged (a phrase is no change)."""

    seq: int
    seat: int
    phrase: str
    at: int


ServerMessage = Welcome | Update | Ack | Error | Hint | Review | Said

_encoder = msgspec.json.Encoder()


def encode(message: Any) -> bytes:
    """A message (or a part of one) as JSON bytes."""
    return _encoder.encode(message)


def as_json(message: Any) -> dict[str, Any]:
    """A message (or a part of one) as the plain JSON values a client reads from it."""
    out: dict[str, Any] = msgspec.json.decode(_encoder.encode(message))
    return out

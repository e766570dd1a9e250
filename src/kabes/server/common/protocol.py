"""The table protocol at the server's edge: what clients send, decoded; what the table sends,
encoded (docs/protocol.md).

Every message a client sends (on the socket, or as an HTTP body) is a msgspec struct here,
decoded by msgspec with :func:`decode_as`. What the server sends is the pure table's
(``kabes.table.messages``, plain data classes, and ``kabes.table.refusals``: a refusal is
:class:`Refused` with an :class:`ErrorCode`, whatever layer raises it), encoded here by
msgspec (:func:`encode`, and :data:`MSGSPEC` for the table's outbox, which encodes the parts
every seat is sent alike once a change). The socket turns a refusal into an ``error``
message, HTTP into ``{"code", "message"}`` with the code's status. Nothing else in the server
writes a message's shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, TypeVar

import msgspec

from kabes.table.creation import NewTable
from kabes.table.encoding import HOLE
from kabes.table.messages import (
    Ack,
    Clock,
    Error,
    Hint,
    LastHand,
    Pause,
    ReasonedError,
    Review,
    ReviewMove,
    Said,
    SeatInfo,
    ServerMessage,
    Summary,
    Train,
    Update,
    View,
    Welcome,
)
from kabes.table.refusals import HTTP_STATUS, ErrorCode, Refused, error_code

__all__ = [
    "BODY_LIMIT",
    "FIELD_CODES",
    "HTTP_STATUS",
    "MAX_MESSAGES_PER_SECOND",
    "MAX_MESSAGE_BYTES",
    "MSGSPEC",
    "TOURNAMENT_FIELD_CODES",
    "Ack",
    "Action",
    "ActionId",
    "BadInput",
    "ClientMessage",
    "Clock",
    "EnterTournament",
    "Error",
    "ErrorCode",
    "FinishAction",
    "Hello",
    "Hint",
    "HintAction",
    "LastHand",
    "LeaveAction",
    "LessonTry",
    "MsgspecEncoder",
    "NewGuest",
    "NewTable",
    "NewTournament",
    "NextHandAction",
    "Pause",
    "PlayAction",
    "PlayAgainAction",
    "QuickSeat",
    "Raw",
    "ReasonedError",
    "Refused",
    "RemoveAction",
    "Review",
    "ReviewAction",
    "ReviewMove",
    "Said",
    "SayAction",
    "SeatInfo",
    "ServerMessage",
    "StartAction",
    "Summary",
    "SyncAction",
    "Train",
    "Update",
    "View",
    "Welcome",
    "as_json",
    "decode_as",
    "decode_client",
    "encode",
    "error_code",
]

MAX_MESSAGE_BYTES: Final = 4096
"""A client message over this many bytes closes its socket (1009)."""
MAX_MESSAGES_PER_SECOND: Final = 100
"""More client messages than this within one second: from one socket, the one too many is
answered ``slow_down`` and the socket closed (1008); from all the sockets of one seat
together, each one too many is refused ``slow_down``, the sockets kept (seat_limits.py)."""
BODY_LIMIT: Final = 16 * 1024
"""An HTTP request body over this many bytes is refused (413)."""

T = TypeVar("T")


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


# Server to client: the pure table's messages, encoded by msgspec ------------------------

Raw = msgspec.Raw
"""A part of a message already encoded (a summary or events shared by every seat's update)."""

_encoder = msgspec.json.Encoder()


def encode(message: Any) -> bytes:
    """A message (or a part of one) as JSON bytes."""
    return _encoder.encode(message)


def as_json(message: Any) -> dict[str, Any]:
    """A message (or a part of one) as the plain JSON values a client reads from it."""
    out: dict[str, Any] = msgspec.json.decode(_encoder.encode(message))
    return out


class MsgspecEncoder:
    """The table's encoder at the server (``kabes.table.encoding.Encoder``): msgspec, with
    a part shared by many messages encoded once and spliced into each as it is."""

    def __init__(self) -> None:
        self.encode: Callable[[object], bytes] = _encoder.encode
        """A message as JSON bytes: msgspec's own method, called with no step between
        (several times a change)."""

    def shared(self, part: object) -> object:
        """``part`` encoded once, as :data:`Raw`."""
        return Raw(_encoder.encode(part))

    @property
    def hole(self) -> object | None:
        """``Raw(HOLE)``: msgspec splices a raw part in as it is, and writes a NUL in any
        string as ``\\u0000``, so a NUL in its output is a hole and nothing else."""
        return _HOLE


_HOLE: Final = Raw(HOLE)


MSGSPEC = MsgspecEncoder()
"""The encoder the server's tables are handed."""

"""The table protocol's messages as JSON (PROTOCOL.md): what the server sends, what it reads.

Views, events and summaries become plain JSON-able dicts here and nowhere else. Client
messages are decoded with msgspec into typed structs; anything that does not decode is a
``bad_message`` with the decoder's reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any, Final, TypeVar, cast

import msgspec

from kabes.events import Event, LeadDrawn, LeaderChosen
from kabes.explain import explanation_json
from kabes.moves import Play
from kabes.options import Options
from kabes.results import HandResult, MatchResult
from kabes.review import Alternative
from kabes.rules import get_rules
from kabes.rules.traits import traits_json
from kabes.tiles import MAX_PIPS, Tile
from kabes.views import View

MAX_MESSAGE_BYTES: Final = 4096
"""A client message over this many bytes closes its socket (1009)."""
MAX_MESSAGES_PER_SECOND: Final = 100
"""More client messages than this within one second close the socket (1008)."""

ActionId = Annotated[str, msgspec.Meta(max_length=64)]
T = TypeVar("T")


class Hello(msgspec.Struct, tag="hello", tag_field="type"):
    """The first message on a socket: whose seat this is."""

    token: Annotated[str, msgspec.Meta(max_length=1024)]


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
    the hand just ended where the expert would have played otherwise (an addition to
    PROTOCOL.md)."""

    id: ActionId


class SyncAction(msgspec.Struct, tag="sync", tag_field="type"):
    """Send me a fresh update."""

    id: ActionId


class LeaveAction(msgspec.Struct, tag="leave", tag_field="type"):
    """Give up my seat (an addition to PROTOCOL.md): before the start it is freed, after it
    the table plays for it by the clock rule. A host who leaves hands the table on."""

    id: ActionId


class PlayAgainAction(msgspec.Struct, tag="play_again", tag_field="type"):
    """Once the match is over: open the same table again (an addition to PROTOCOL.md). The
    first to ask hosts it; every seat is told its code (``next_table``) and joins it."""

    id: ActionId


Action = (
    PlayAction | StartAction | NextHandAction | FinishAction | HintAction | ReviewAction
    | SyncAction | LeaveAction | PlayAgainAction
)
ClientMessage = Hello | Action

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


class BadMessage(Exception):
    """A client message that is not JSON, has an unknown type or wrong fields."""

    def __init__(self, message: str, action_id: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.action_id = action_id


def decode(data: str | bytes) -> ClientMessage:
    """The client message in ``data``; BadMessage (with the id, when one can be read)."""
    try:
        message: ClientMessage = _decoder.decode(data)
        return message
    except msgspec.DecodeError as err:
        raise BadMessage(str(err), _loose_id(data)) from None


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


def encode(message: dict[str, Any]) -> bytes:
    """A server message as JSON bytes."""
    return _encoder.encode(message)


def error(action_id: str | None, code: str, message: str) -> dict[str, Any]:
    """An ``error`` message: the action was refused and nothing changed."""
    return {"type": "error", "id": action_id, "code": code, "message": message}


def refusal(
    action_id: str | None,
    code: str,
    message: str,
    reason: str | None,
    facts: dict[str, Any] | None,
) -> dict[str, Any]:
    """An ``error`` message, with the engine's ``reason`` and ``facts`` for a refused move
    (an addition to PROTOCOL.md: clients word the refusal from them)."""
    out = error(action_id, code, message)
    if reason is not None:
        out["reason"] = reason
        out["facts"] = dict(facts or {})
    return out


def tile_text(tile: Tile) -> str:
    """A tile as the wire writes it: ``a-b``, low half first."""
    return str(tile)


_PAIR_TEXT: Final = {(a, b): f"{a}-{b}" for a in range(MAX_PIPS + 1) for b in range(MAX_PIPS + 1)}
_MOVE_TEXT: dict[tuple[int, int, str | None, int | None], str] = {}
"""``str(play)`` by the play's parts. Every view writes every play of the hand, for every
seat at every change, and there are only a few thousand plays even at double twelve."""


def _laid(pairs: tuple[tuple[int, int], ...]) -> list[str]:
    text = _PAIR_TEXT
    return [text.get(p) or f"{p[0]}-{p[1]}" for p in pairs]


def move_text(move: Play) -> str:
    """A play in record notation, as ``str(move)`` writes it (remembered: a hot path)."""
    tile = move.tile
    key = (tile.low, tile.high, move.at, move.first)
    text = _MOVE_TEXT.get(key)
    if text is None:
        if len(_MOVE_TEXT) > 100_000:
            _MOVE_TEXT.clear()
        text = _MOVE_TEXT[key] = str(move)
    return text


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}

VIEW_OPTIONS: dict[str, Any] = {
    "target": None,
    "capicu_bonus": 0,
    "score_losers_only": False,
    "blocker_wins_block": False,
    "hands": None,
    "open_ended": False,
    "mexican_train": False,
    "double_blank_50": False,
}
"""The options every view lists, whatever the variant, with the value shown where the
variant has no such option: the protocol's shape from when one class held every variant's
options. A variant's options class holds only its own; any option not named here is listed
after these."""


def _view_options(options: Options) -> dict[str, Any]:
    out = {name: getattr(options, name, default) for name, default in VIEW_OPTIONS.items()}
    for name in _field_names(type(options)):
        out.setdefault(name, getattr(options, name))
    return out


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def hand_result(result: HandResult) -> dict[str, Any]:
    """A hand's result as a record carries it, ``counts`` (pips left per seat) included."""
    return result.to_json()


def match_result(result: MatchResult) -> dict[str, Any]:
    """The match result as a record carries it."""
    return result.to_json()


def _shared(memo: dict[str, Any], name: str, source: object, build: Callable[[], T]) -> T:
    """``build()``, or what it built from an equal ``source`` for another view in ``memo``."""
    kept = memo.get(name)
    if kept is not None and (kept[0] is source or kept[0] == source):
        return cast(T, kept[1])
    out = build()
    memo[name] = (source, out)
    return out


def view_json(
    view: View,
    clock: dict[str, Any] | None,
    pause: dict[str, Any] | None,
    memo: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A seat's VIEW (PROTOCOL.md), with the clock and pause the table adds to it.

    ``memo``: one dict shared by the views of one change (a view per seat), so that the parts
    every seat is shown alike (the plays, the line, the options) are built once. A part is
    reused only when the input it is built from equals the one it was built from, so nothing
    of one seat's own can reach another seat's view through it."""
    memo = {} if memo is None else memo
    last_hand = None
    if view.revealed is not None and view.last_result is not None:
        revealed, last_result = view.revealed, view.last_result
        explanation = view.last_explanation or ()
        last_hand = _shared(memo, "last_hand", (revealed, last_result, explanation), lambda: {
            "result": hand_result(last_result),
            "hands": [[str(t) for t in h] for h in revealed],
            "explanation": explanation_json(explanation),
        })
    options = _shared(memo, "options", view.options, lambda: _view_options(view.options))
    return {
        "variant": view.variant,
        "players": view.players,
        "seat": view.seat,
        "teams": view.teams,
        "hand_number": view.hand_number,
        "hand": [str(t) for t in view.hand],
        "counts": list(view.counts),
        "stock": view.stock,
        "turn": view.turn,
        "leader": view.leader,
        "legal": [move_text(m) for m in view.legal],
        "line": (
            None if view.line is None
            else _shared(memo, "line", view.line, lambda: _laid(view.line or ()))
        ),
        "ends": None if view.ends is None else list(view.ends),
        # A forced lead is in the leader's hand until laid: only the leader's view names it.
        "forced_lead": (
            None if view.forced_lead is None or view.seat != view.leader
            else str(view.forced_lead)
        ),
        "engine": None if view.engine is None else str(view.engine),
        "trains": _shared(memo, "trains", view.trains, lambda: [
            {"owner": t.owner, "tiles": _laid(t.laid), "end": t.end, "marked": t.marked}
            for t in view.trains
        ]),
        "open_double": view.open_double,
        "played": _shared(memo, "played", view.played, lambda: [
            [seat, move_text(move)] for seat, move in view.played
        ]),
        "passes": [[seat, list(numbers)] for seat, numbers in view.passes],
        "draws": list(view.draws),
        "voids": [sorted(v) for v in view.voids],
        "scores": list(view.scores),
        "target": view.options.target,
        "hands_played": view.hands_played,
        "hand_wins": list(view.hand_wins),
        "options": options,
        "clock": clock,
        "pause": pause,
        "last_hand": last_hand,
        "result": None if view.match_result is None else match_result(view.match_result),
        "traits": variant_traits(view),
    }


def variant_traits(view: View) -> dict[str, Any]:
    """What a client must know of the view's variant with its seat count (``Rules.traits``),
    so that it never asks which variant it shows; built once per variant and seat count."""
    return traits_json(get_rules(view.variant), view.players)


def alternative_json(alternative: Alternative) -> dict[str, Any]:
    """One move of a ``review`` answer: where it was played (its index in the hand's moves),
    the move played, the expert's, its reason, and the seat's VIEW just before the move, as
    an ``update`` shows it (no clock, no pause)."""
    return {
        "index": alternative.index,
        "played": move_text(alternative.played),
        "better": move_text(alternative.better),
        "reason": alternative.reason,
        "view": view_json(alternative.view, None, None),
    }


def event_json(event: Event) -> dict[str, Any]:
    """An engine event as the wire shows it. The tiles turned for plaza's draw for the lead
    are left out: they go back into the set before the deal, so they name no hidden tile's
    place, but a client has no use for them and a strict leak check would see them. A forced
    lead is not named either (``forced`` is true or false): it is in the leader's hand."""
    out: dict[str, Any] = {"kind": event.kind}
    if isinstance(event, LeadDrawn):
        out["leader"] = event.leader
        return out
    if isinstance(event, LeaderChosen):
        # The forced tile stays in the leader's hand until it is laid (guarantee 1): the
        # event says who leads and whether the lead is forced; the leader's view names it.
        out["seat"] = event.seat
        out["forced"] = event.forced is not None
        return out
    for f in dataclasses.fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, HandResult | MatchResult):
        return value.to_json()
    return value

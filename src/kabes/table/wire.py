"""The engine's values as the protocol shows them: a seat's view, events, review moves.

The message types are ``kabes.table.messages``'; this module fills them from the engine
(``kabes.views.View``, ``kabes.events``), and nothing else turns engine values into wire form.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from kabes.events import Event, LeadDrawn, LeaderChosen
from kabes.explain import explanation_json
from kabes.moves import Play
from kabes.options import Options
from kabes.results import HandResult, MatchResult
from kabes.rules import get_rules
from kabes.rules.traits import traits_json
from kabes.table.encoding import JSON, Encoder
from kabes.table.messages import Clock, LastHand, Pause, ReviewMove, Train
from kabes.table.messages import View as ViewMessage
from kabes.tiles import MAX_PIPS, Tile
from kabes.views import Own, View

if TYPE_CHECKING:  # the review's searches are the levels': the table only words their answer
    from kabes.ai.review import Alternative

T = TypeVar("T")


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


def reuse(memo: dict[str, Any], name: str, source: object, build: Callable[[], T]) -> T:
    """``build()``, or what it built from an equal ``source`` for another message in
    ``memo`` (for another seat's view of the same change, or at an earlier change of the
    table for what lasts, ``TableState.memo``): a part is reused only when the input it is
    built from is the same, so it is the same part."""
    kept = memo.get(name)
    if kept is not None and (kept[0] is source or kept[0] == source):
        return cast(T, kept[1])
    out = build()
    memo[name] = (source, out)
    return out


def view_message(
    view: View,
    clock: Clock | None,
    pause: Pause | None,
    memo: dict[str, Any] | None = None,
) -> ViewMessage:
    """A seat's VIEW (PROTOCOL.md), with the clock and pause the table adds to it.

    ``memo``: one dict shared by the views of one change (a view per seat), so that the parts
    every seat is shown alike (the plays, the line, the options) are built once. A part is
    reused only when the input it is built from equals the one it was built from, so nothing
    of one seat's own can reach another seat's view through it."""
    memo = {} if memo is None else memo
    return ViewMessage(*_view_values(view, clock, pause, memo, memo))


def _view_values(
    view: View, clock: Clock | None, pause: Pause | None, memo: dict[str, Any],
    lasting: dict[str, Any],
) -> list[Any]:
    """The fields of ``view``'s VIEW message, in order (:data:`OWN_AT` are the seat's own);
    the parts of one change in ``memo``, the options (a match's) in ``lasting``."""
    last_hand = None
    if view.revealed is not None and view.last_result is not None:
        revealed, last_result = view.revealed, view.last_result
        explanation = view.last_explanation or ()
        last_hand = reuse(memo, "last_hand", (revealed, last_result, explanation),
                            lambda: LastHand(
                                hand_result(last_result),
                                [[str(t) for t in h] for h in revealed],
                                explanation_json(explanation)))
    options = reuse(lasting, "options", view.options, lambda: _view_options(view.options))
    return [
        view.variant,
        view.players,
        view.seat,
        view.teams,
        view.hand_number,
        [str(t) for t in view.hand],
        list(view.counts),
        view.stock,
        view.turn,
        view.leader,
        [move_text(m) for m in view.legal],
        None if view.line is None
        else reuse(memo, "line", view.line, lambda: _laid(view.line or ())),
        None if view.ends is None else list(view.ends),
        _forced_lead(view.forced_lead, view.seat, view.leader),
        None if view.engine is None else str(view.engine),
        reuse(memo, "trains", view.trains, lambda: [
            Train(t.owner, _laid(t.laid), t.end, t.marked) for t in view.trains
        ]),
        view.open_double,
        reuse(memo, "played", view.played, lambda: [
            (seat, move_text(move)) for seat, move in view.played
        ]),
        [(seat, list(numbers)) for seat, numbers in view.passes],
        list(view.draws),
        [sorted(v) for v in view.voids],
        list(view.scores),
        view.options.target,
        view.hands_played,
        list(view.hand_wins),
        options,
        clock,
        pause,
        last_hand,
        None if view.match_result is None else match_result(view.match_result),
        variant_traits(view.variant, view.players),
    ]


VIEW_FIELDS: Final = tuple(f.name for f in dataclasses.fields(ViewMessage))
"""The VIEW message's fields, in order."""
OWN_AT: Final = tuple(VIEW_FIELDS.index(name) for name in ("seat", "hand", "legal", "forced_lead"))
"""Where a seat's own fields stand among them (``kabes.views.OWN_FIELDS``, and the forced
lead, named to the leader only): what one seat's VIEW has that another's has not."""
SHARED_AT: Final = tuple(VIEW_FIELDS.index(name) for name in ("last_hand", "result"))
"""Where the largest parts every seat is shown alike stand (between hands and after the
match): in the views of one moment, each is prepared once by the encoder
(``Encoder.shared``), not written per seat; the options and the traits, which do not change
in a match, once a match. (The line and the plays are not: at four seats, preparing them
apart costs what writing them in each view does.)"""
OPTIONS_AT: Final = VIEW_FIELDS.index("options")
TRAITS_AT: Final = VIEW_FIELDS.index("traits")


@functools.cache
def variant_traits(variant: str, players: int) -> dict[str, Any]:
    """What a client must know of a variant with its seat count (``Rules.traits``), so that
    it never asks which variant it shows: built once per variant and seat count, and carried
    as it is (never changed) in every view."""
    return traits_json(get_rules(variant), players)


_SHARED_TRAITS: dict[tuple[object, str, int], object] = {}


def _shared_traits(encoder: Encoder, variant: str, players: int) -> object:
    """:func:`variant_traits` as ``encoder`` prepares it for many messages: once."""
    key = (encoder, variant, players)
    found = _SHARED_TRAITS.get(key)
    if found is None:
        found = _SHARED_TRAITS[key] = encoder.shared(variant_traits(variant, players))
    return found


def with_own(values: list[Any], seat: int | None, hand: list[str], legal: list[str],
              forced_lead: str | None) -> ViewMessage:
    """The VIEW of ``values`` (:func:`_view_values`) with another seat's own fields."""
    values = values.copy()
    at_seat, at_hand, at_legal, at_forced = OWN_AT
    values[at_seat], values[at_hand], values[at_legal], values[at_forced] = (
        seat, hand, legal, forced_lead)
    return ViewMessage(*values)


def view_messages(
    first: View,
    owns: tuple[Own, ...],
    clock: Clock | None,
    pause: Pause | None,
    encoder: Encoder | None = None,
    lasting: dict[str, Any] | None = None,
) -> list[ViewMessage]:
    """Every seat's VIEW at one moment (``first``, ``owns``: kabes.views.views_of), built
    once: seat 0's in full, each other's from it with that seat's own fields (its seat, tiles
    and moves, and the forced lead, named to the leader only) from its own part. ``encoder``
    and ``lasting`` as :func:`view_values`."""
    values = view_values(first, clock, pause, encoder, lasting)
    out = [ViewMessage(*values)]
    for own in owns[1:]:
        seat, hand, legal, forced_lead = own_fields(first, own)
        out.append(with_own(values, seat, hand, legal, forced_lead))
    return out


def view_values(
    first: View,
    clock: Clock | None,
    pause: Pause | None,
    encoder: Encoder | None = None,
    lasting: dict[str, Any] | None = None,
) -> list[Any]:
    """The fields of ``first``'s VIEW, in order, as every seat's view at that moment shares
    them but for the seat's own (:data:`OWN_AT`, :func:`own_fields`). With ``encoder``, the
    largest parts they share (:data:`SHARED_AT`, the options, the traits) are prepared for it
    once (``Encoder.shared``: encoded once, at the server), for views that are encoded by it,
    and by nothing else. ``lasting``: what is kept from one change of the table to the next
    (``TableState.memo``: the options, which last a match; not the parts of one change, which
    would outlive it there)."""
    lasting = {} if lasting is None else lasting
    values = _view_values(first, clock, pause, {}, lasting)
    if encoder is not None:
        for at in SHARED_AT:
            if values[at] is not None:
                values[at] = encoder.shared(values[at])
        options = values[OPTIONS_AT]
        values[OPTIONS_AT] = reuse(lasting, "shared_options", (options, encoder),
                                   lambda: encoder.shared(options))
        values[TRAITS_AT] = _shared_traits(encoder, first.variant, first.players)
    return values


def own_fields(first: View, own: Own) -> tuple[int | None, list[str], list[str], str | None]:
    """A seat's own fields of its VIEW (:data:`OWN_AT`, in order), from seat 0's whole view
    and that seat's own part (kabes.views.views_of): its seat, tiles and moves, and the
    forced lead, which only the leader is told."""
    return (own.seat, [str(t) for t in own.hand], [move_text(m) for m in own.legal],
            _forced_lead(first.forced_lead, own.seat, first.leader))


def holed_view(values: list[Any], hole: object) -> ViewMessage:
    """The VIEW of ``values`` (:func:`view_values`) with ``hole`` in each of a seat's own
    fields (:data:`OWN_AT`): nothing of any seat's own, to be filled per seat
    (``Encoder.hole``)."""
    values = values.copy()
    for at in OWN_AT:
        values[at] = hole
    return ViewMessage(*values)


def watcher_view_of(values: list[Any]) -> ViewMessage:
    """:func:`watcher_view` from the fields of a view (:func:`view_values`)."""
    return with_own(values, None, [], [], None)


def watcher_view(seat_view: ViewMessage) -> ViewMessage:
    """The VIEW from no seat (a watcher's), from any seat's at the same moment: that view
    without what is that seat's own (``kabes.views.OWN_FIELDS``: the seat, its tiles, its
    moves) and without the forced lead, which only the leader is told. What is left is what
    every seat is shown alike, so a watcher sees no tile a seat would not show the table."""
    return with_own([getattr(seat_view, name) for name in VIEW_FIELDS], None, [], [], None)


def _forced_lead(tile: Tile | None, seat: int | None, leader: int | None) -> str | None:
    """A forced lead is in the leader's hand until laid: only the leader's view names it."""
    return None if tile is None or seat != leader else str(tile)


def view_json(view: View, clock: Clock | None = None, pause: Pause | None = None) -> dict[str, Any]:
    """A seat's VIEW as the JSON a client reads (for HTTP answers and for tests)."""
    out: dict[str, Any] = json.loads(JSON.encode(view_message(view, clock, pause)))
    return out


def review_move(alternative: Alternative) -> ReviewMove:
    """One move of a ``review`` answer: where it was played (its index in the hand's moves),
    the move played, the expert's, its reason, and the seat's VIEW just before the move, as
    an ``update`` shows it (no clock, no pause)."""
    return ReviewMove(
        alternative.index,
        move_text(alternative.played),
        move_text(alternative.better),
        alternative.reason,
        view_message(alternative.view, None, None),
    )


def event_json(event: Event) -> dict[str, Any]:
    """An engine event as the wire shows it. The tiles turned for plaza's draw for the lead
    are left out: they go back into the set before the deal, so they name no hidden tile's
    place, but a client has no use for them and a strict leak check would see them. A forced
    lead is not named either (``forced`` is true or false): it is in the leader's hand."""
    kind = type(event)
    shape = _EVENT_SHAPES.get(kind)
    if shape is None:
        shape = _EVENT_SHAPES[kind] = (event.kind, _field_names(kind))
    out: dict[str, Any] = {"kind": shape[0]}
    if isinstance(event, LeadDrawn):
        out["leader"] = event.leader
        return out
    if isinstance(event, LeaderChosen):
        # The forced tile stays in the leader's hand until it is laid (guarantee 1): the
        # event says who leads and whether the lead is forced; the leader's view names it.
        out["seat"] = event.seat
        out["forced"] = event.forced is not None
        return out
    for name in shape[1]:
        out[name] = _plain(getattr(event, name))
    return out


_EVENT_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}
"""An event type's wire name (``Event.kind``, its class's name in snake case) and its
fields in order, found once per type: every change sends its events to every seat."""


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, HandResult | MatchResult):
        return value.to_json()
    return value

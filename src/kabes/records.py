"""Game records (the normative format of DESIGN.md): reading, replaying, writing.

A record holds the variant, seat count, options that differ from the defaults, and per hand
the deal, the stock in draw order, the leader where chance picked it, and the moves. Replaying
it rebuilds the match exactly; every ``result`` is computed, never trusted from the file. A
record that breaks a rule is refused with an error naming the hand, the move and why. A result
stored in the file is checked against the computed one (:func:`disagreements`): each field
that differs is reported, with the stored and the computed value; a field the file leaves out
(such as ``counts`` in older records) is not a disagreement.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from kabes.errors import BadRecord, KabesError
from kabes.events import Event
from kabes.match import Match
from kabes.moves import parse_move
from kabes.tiles import Tile, parse_tile

T = TypeVar("T")

RECORD_FIELDS = ("variant", "players", "options", "hands", "result")
HAND_FIELDS = ("deal", "stock", "leader", "moves", "result")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; BadRecord if it cannot be read or is not a JSON object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BadRecord(f"cannot read {path}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadRecord(f"{path} is not JSON: {err.msg} at line {err.lineno}") from None
    if not isinstance(data, dict):
        raise BadRecord(f"{path}: a record is a JSON object")
    return data


def replay(
    record: Mapping[str, Any],
    on_events: Callable[[list[Event]], None] | None = None,
    on_match: Callable[[Match], None] | None = None,
) -> Match:
    """Rebuild the match a record describes; BadRecord naming the hand and move if it can't.

    ``on_events`` is handed the events of every step, for a replay shown as it goes;
    ``on_match`` the match as soon as it exists, so that such a replay can also read what
    events do not carry (a finished hand's explanation, in ``match.log``)."""
    tell = on_events or _ignore
    _check_fields(record, RECORD_FIELDS, "the record")
    variant = _typed(record, "variant", str, "the record")
    players = _typed(record, "players", int, "the record")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise BadRecord("the record's options must be an object")
    hands = _typed(record, "hands", list, "the record")
    try:
        match = Match(variant, players, options)
    except KabesError as err:
        raise BadRecord(f"the record: {err.message}") from None
    if on_match is not None:
        on_match(match)
    top = match.rules.top
    for number, hand in enumerate(hands, 1):
        where = f"hand {number}"
        if not isinstance(hand, dict):
            raise BadRecord(f"{where} must be an object")
        _check_fields(hand, HAND_FIELDS, where)
        if match.over:
            raise BadRecord(f"{where}: the match was already over after hand {number - 1}")
        if match.hand_in_progress:
            raise BadRecord(f"hand {number - 1} stops before its end, but {where} follows")
        deal = [_tiles(seat, top, f"{where}, deal") for seat in _typed(hand, "deal", list, where)]
        stock = _tiles(_typed(hand, "stock", list, where), top, f"{where}, stock")
        leader = hand.get("leader")
        if leader is not None and (isinstance(leader, bool) or not isinstance(leader, int)):
            raise BadRecord(f"{where}: leader must be a seat number")
        try:
            tell(match.start_hand(deal, stock, leader))
        except KabesError as err:
            raise BadRecord(f"{where}: {err.message}") from None
        for index, text in enumerate(_typed(hand, "moves", list, where), 1):
            at = f"{where}, move {index} ({text!r})"
            if not isinstance(text, str):
                raise BadRecord(f"{at}: a move is a string")
            if not match.hand_in_progress:
                raise BadRecord(f"{at}: the hand is already over")
            try:
                tell(match.apply(None, parse_move(text, top)))
            except KabesError as err:
                raise BadRecord(f"{at}: {err.message}") from None
    if match.options.open_ended and _host_finished(record):
        tell(match.finish())
    if _abandoned(record) and not match.over:
        if match.hand_in_progress:
            raise BadRecord(f"hand {len(hands)} stops before its end, but an abandoned "
                            "match's record holds only the hands it finished")
        tell(match.abandon())
    return match


def _host_finished(record: Mapping[str, Any]) -> bool:
    """Whether an open-ended match's record says the host finished it: the one result a
    replay cannot work out from the moves, so it is read from the record's own result."""
    result = record.get("result")
    return isinstance(result, dict) and result.get("finished") is True


def _abandoned(record: Mapping[str, Any]) -> bool:
    """Whether the record says a server ended the match because no person was left (its
    result's ``abandoned``): like a host's finish, read from the record's own result."""
    result = record.get("result")
    return isinstance(result, dict) and result.get("abandoned") is True


def filled(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record with every ``result`` computed by replaying it, and only the fields
    DESIGN.md names."""
    match = replay(record)
    hands = []
    for given, log in zip(record["hands"], match.log, strict=True):
        hand: dict[str, Any] = {"deal": given["deal"], "stock": given["stock"]}
        if given.get("leader") is not None:
            hand["leader"] = given["leader"]
        hand["moves"] = given["moves"]
        hand["result"] = None if log.result is None else log.result.to_json()
        hands.append(hand)
    return {
        "variant": record["variant"],
        "players": record["players"],
        "options": record.get("options", {}),
        "hands": hands,
        "result": match.current_result().to_json(),
    }


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A stored result field that the rules do not give: where, which, and both values.

    ``hand`` is the hand's number (1 for the first), or None for the record's own result;
    ``field`` is ``result`` when the whole result is at odds (stored for a hand that never
    ended, or not an object)."""

    hand: int | None
    field: str
    stored: Any
    computed: Any

    def __str__(self) -> str:
        where = "the match result" if self.hand is None else f"hand {self.hand}"
        stored, computed = json.dumps(self.stored), json.dumps(self.computed)
        return f"{where}, {self.field}: the record says {stored}, the rules give {computed}"


ABSENT = "(absent)"
"""The computed value shown for a stored field that no result has."""


def disagreements(record: Mapping[str, Any], computed: Mapping[str, Any]) -> list[Disagreement]:
    """Every field of a result stored in ``record`` that differs from ``computed`` (the
    record as :func:`filled` returns it). Fields the record leaves out are not compared."""
    out: list[Disagreement] = []
    pairs: list[tuple[int | None, Any, Any]] = [
        (number, given.get("result"), done["result"])
        for number, (given, done) in enumerate(zip(record["hands"], computed["hands"],
                                                   strict=True), 1)
    ]
    pairs.append((None, record.get("result"), computed["result"]))
    for hand, stored, rules in pairs:
        if stored is None:
            continue
        if not isinstance(stored, dict) or rules is None:
            out.append(Disagreement(hand, "result", stored, rules))
            continue
        for key, value in stored.items():
            want = rules.get(key, ABSENT)
            if value != want:
                out.append(Disagreement(hand, key, value, want))
    return out


def to_record(match: Match) -> dict[str, Any]:
    """The record of a match played here, results included."""
    hands = []
    for log in match.log:
        hand: dict[str, Any] = {
            "deal": [[str(t) for t in seat] for seat in log.deal],
            "stock": [str(t) for t in log.stock],
        }
        if log.leader is not None:
            hand["leader"] = log.leader
        hand["moves"] = list(log.moves)
        hand["result"] = None if log.result is None else log.result.to_json()
        hands.append(hand)
    return {
        "variant": match.variant,
        "players": match.players,
        "options": match.changed_options,
        "hands": hands,
        "result": match.current_result().to_json(),
    }


def save_record(match: Match, path: str | Path) -> None:
    """Write the record of ``match`` to ``path`` as indented JSON."""
    Path(path).write_text(json.dumps(to_record(match), indent=1) + "\n", encoding="utf-8")


def _ignore(events: list[Event]) -> None:
    """Nobody is watching."""


def _check_fields(data: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in known:
            raise BadRecord(f"{where} has an unknown field {key!r} (known: {', '.join(known)})")


def _typed(data: Mapping[str, Any], key: str, kind: type[T], where: str) -> T:
    if key not in data:
        raise BadRecord(f"{where} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRecord(f"{where}: {key!r} must be a {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


def _tiles(items: Any, top: int, where: str) -> list[Tile]:
    if not isinstance(items, list):
        raise BadRecord(f"{where}: expected a list of tiles")
    tiles = []
    for item in items:
        if not isinstance(item, str):
            raise BadRecord(f"{where}: {item!r} is not a tile")
        try:
            tiles.append(parse_tile(item, top))
        except KabesError as err:
            raise BadRecord(f"{where}: {err.message}") from None
    return tiles


_KIND_NAMES: dict[type, str] = {str: "string", int: "whole number", list: "list"}

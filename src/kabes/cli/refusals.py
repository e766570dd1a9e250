"""Refusals and hints in the player's words and notation.

A refusal is a stable ``code`` and its facts (the tile as the player wrote it, the ends, the
trains it would fit), and :func:`word_refusal` is the one place that words it: "You don't have
6-6", never "seat 0 does not hold 3-6". The terminal finds the refusal itself from the seat's
view before it asks the engine (:func:`check_play`), so what the player typed is answered in
their own notation; the engine's refusals carry the same codes and facts once it gives them.
:func:`word_hint` says the expert's move as a place ("6-3 on the left end"), never as a record
move ("12-0@0").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kabes.cli.words import Names, and_list
from kabes.moves import LEFT, PUBLIC, RIGHT, Move, Play
from kabes.tiles import Tile
from kabes.views import View


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is refused: a stable code and the facts a client words it from."""

    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Choose:
    """The tile fits several places and the player did not say which: ask."""

    tile: Tile
    written: str
    places: tuple[str, ...]


def written(tile: Tile, first: int | None) -> str:
    """The tile as the player wrote it (``6-3`` stays ``6-3``)."""
    return str(tile) if first is None or not tile.has(first) else tile.written(first)


def places_open(seen: View) -> list[str]:
    """Mexican Train: where the seat to move may play now, whatever its tiles."""
    seat = seen.seat
    if seen.first_turns_done and not seen.first_turns_done[seat]:
        return [str(seat)]
    if seen.open_double is not None:
        return [seen.open_double]
    places = [str(seat)]
    places += [t.place for t in seen.trains if t.owner is None]
    places += [t.place for t in seen.trains if t.owner not in (None, seat) and t.marked]
    return places


def check_play(seen: View, play: Play) -> Play | Choose | Refusal:
    """The play the engine should get, a question to ask, or why the move is refused."""
    tile, at = play.tile, play.at
    text = written(tile, play.first)
    if tile not in seen.hand:
        return Refusal("not_held", {"tile": text})
    fits = tuple(dict.fromkeys(m.at for m in seen.legal if m.tile is tile if m.at is not None))
    if seen.trains:
        return _check_train(seen, play, text, fits)
    if seen.line is None:
        if seen.forced_lead is not None and tile is not seen.forced_lead:
            return Refusal("forced_lead", {"tile": text, "lead": str(seen.forced_lead)})
        return Play(tile, None, play.first)
    assert seen.ends is not None
    left, right = seen.ends
    if not fits:
        return Refusal("fits_no_end", {"tile": text, "ends": [left, right]})
    if at is None:
        if len(fits) == 2 and left != right:
            return Choose(tile, text, fits)
        return Play(tile, fits[0], play.first)
    if at not in fits:
        shows = left if at == LEFT else right
        return Refusal("wrong_end", {"tile": text, "end": at, "shows": shows})
    return play


def _check_train(
    seen: View, play: Play, text: str, fits: tuple[str, ...]
) -> Play | Choose | Refusal:
    seat, at = seen.seat, play.at
    drawn = _drawn_tile(seen)
    if drawn is not None and play.tile is not drawn:
        return Refusal("only_drawn_tile", {"tile": text, "drawn": str(drawn)})
    open_places = places_open(seen)
    ends = {t.place: t.end for t in seen.trains}
    if at is None:
        if not fits:
            where = {p: ends[p] for p in open_places}
            return Refusal("fits_no_train", {"tile": text, "places": where})
        if len(fits) > 1:
            return Choose(play.tile, text, fits)
        return Play(play.tile, fits[0], play.first)
    if at == PUBLIC and PUBLIC not in ends:
        return Refusal("no_public_train", {})
    if at != PUBLIC and int(at) >= seen.players:
        return Refusal("no_such_train", {"train": at, "players": seen.players})
    if at not in open_places:
        if seen.first_turns_done and not seen.first_turns_done[seat]:
            return Refusal("first_turn_own_train", {"tile": text, "train": at})
        if seen.open_double is not None:
            return Refusal("double_open", {"train": seen.open_double})
        return Refusal("train_not_marked", {"train": at})
    if at not in fits:
        return Refusal("wrong_train", {"tile": text, "train": at, "shows": ends[at]})
    return play


def _drawn_tile(seen: View) -> Tile | None:
    """The tile drawn this turn, which alone may be played, if the seat has drawn."""
    if not seen.drew_this_turn:
        return None
    tiles = {m.tile for m in seen.legal}
    return next(iter(tiles)) if len(tiles) == 1 else None


def word_refusal(refusal: Refusal, names: Names) -> str:
    """A refusal in the player's words."""
    f = refusal.facts
    tile = f.get("tile", "")
    match refusal.code:
        case "not_held":
            return f"You don't have {tile}."
        case "forced_lead":
            return f"This hand must be opened with {f['lead']}, not {tile}."
        case "fits_no_end":
            left, right = f["ends"]
            if left == right:
                return f"{tile} doesn't fit: both ends show {left}."
            return f"{tile} fits neither end: they show {left} and {right}."
        case "wrong_end":
            side = "left" if f["end"] == LEFT else "right"
            return f"{tile} doesn't fit the {side} end, which shows {f['shows']}."
        case "only_drawn_tile":
            return f"You drew {f['drawn']}: only that tile may be played now."
        case "fits_no_train":
            where = and_list(
                [f"{names.train(p, names.viewer)} ends in {end}" for p, end in f["places"].items()]
            )
            return f"{tile} fits nowhere you may play: {where}."
        case "no_public_train":
            return "This table plays without a public train."
        case "no_such_train":
            return f"There is no train {f['train']}: the trains are 0 to {f['players'] - 1}."
        case "first_turn_own_train":
            return "In your first turn you play only on your own train (0)."
        case "double_open":
            train = names.train(f["train"], names.viewer)
            return f"The double on {train} must be covered first: play on it."
        case "train_not_marked":
            train = names.train(f["train"], names.viewer)
            return (f"{train[0].upper()}{train[1:]} has no marker: you may play on your own "
                    "train, on a marked train (●) or on the public train.")
        case "wrong_train":
            train = names.train(f["train"], names.viewer)
            return f"{tile} doesn't fit {train}, which ends in {f['shows']}."
        case "table_passes":
            return _table_does(f, "pass", "passes for you when nothing fits")
        case "table_draws":
            if not f.get("stock_game"):
                return "There is no stock to draw from in this game."
            return _table_does(f, "draw", "draws for you when nothing fits")
    return str(f.get("message", refusal.code))


def _table_does(facts: Mapping[str, Any], _verb: str, what: str) -> str:
    playable = facts.get("playable")
    now = f" Right now {playable} fits." if playable else ""
    return f"No need: the table {what}.{now}"


def ask_place(choice: Choose, seen: View, names: Names) -> str:
    """The question when a tile fits several places: "Left or right?"."""
    if not seen.trains:
        assert seen.ends is not None
        return f"{choice.written} fits both ends. Left or right? (L shows {seen.ends[0]}, " \
            f"R shows {seen.ends[1]}) "
    options = [f"{names.train(p, names.viewer)} ({p})" for p in choice.places]
    return f"{choice.written} fits {and_list(options)}. Which train? "


def read_place(answer: str, choice: Choose) -> str | None:
    """The place a player answered (``l``, ``left``, ``2``, ``M``), or None if not one."""
    word = answer.strip().upper()
    word = {"LEFT": LEFT, "RIGHT": RIGHT, "PUBLIC": PUBLIC}.get(word, word)
    return word if word in choice.places else None


def word_hint(move: Move, seen: View, names: Names) -> str:
    """The expert's move as the player would say it: "6-3 on the left end"."""
    if not isinstance(move, Play):
        return "let the table play for you"
    tile = str(move).partition("@")[0]
    if move.at is None:
        return f"open with {tile}"
    if move.at == str(seen.seat):
        return f"{tile} on your own train"
    return f"{tile} {names.place(move.at, seen.seat)}"

"""Refusals and hints in the player's words and notation.

The engine alone decides whether a move is allowed: when it refuses one it says why with a
stable ``reason`` and its facts (kabes.errors, docs/rules.md), and this module only words them,
in the player's notation: "You don't have 6-3" as they typed it, never "seat 0 does not hold
3-6". Two refusals are questions rather than errors ("Left or right?", "Which train?"): the
terminal asks them and plays the tile where the player answers. :func:`word_hint` says the
expert's move as a place ("6-3 on the left end"), never as a record move ("12-0@0").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kabes.cli.words import Names, and_list
from kabes.errors import KabesError
from kabes.moves import LEFT, PUBLIC, RIGHT, Move, Play
from kabes.views import View


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is refused: the engine's stable reason and the facts a client words it from."""

    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)


def refusal_of(err: KabesError, first: int | None = None) -> Refusal:
    """The engine's refusal, its tile written as the player wrote it (``6-3`` stays ``6-3``)."""
    facts = dict(err.facts)
    tile = facts.get("tile")
    if isinstance(tile, str) and first is not None:
        low, _, high = tile.partition("-")
        if str(first) == high and low != high:
            facts["tile"] = f"{high}-{low}"
    if not facts and err.reason == err.code:
        facts["message"] = err.message
    return Refusal(err.reason, facts)


ASKS = frozenset({"say_which_end", "say_which_train"})
"""The refusals the terminal answers with a question ("Left or right?", "Which train?")."""


def read_place(answer: str, refusal: Refusal) -> str | None:
    """The place a player answered (``l``, ``left``, ``2``, ``M``), or None if not one."""
    word = answer.strip().upper()
    word = {"LEFT": LEFT, "RIGHT": RIGHT, "PUBLIC": PUBLIC}.get(word, word)
    return word if word in refusal.facts.get("fits", ()) else None


def _side(end: str) -> str:
    return "left" if end == LEFT else "right"


def _places(places: list[dict[str, Any]], names: Names) -> str:
    return and_list(
        [f"{names.train(p['train'], names.viewer)} ends in {p['end']}" for p in places]
    )


def _train(train: str, names: Names) -> str:
    return names.train(train, names.viewer)


def word_refusal(refusal: Refusal, names: Names) -> str:
    """A refusal in the player's words (a reason without wording says the engine's message)."""
    f = refusal.facts
    wording = REFUSALS.get(refusal.code)
    if wording is None:
        return str(f.get("message", refusal.code))
    return wording(f, names)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _does_not_fit(f: Mapping[str, Any], _n: Names) -> str:
    left, right = f["ends"]
    if left == right:
        return f"{f['tile']} doesn't fit: both ends show {left}."
    return f"{f['tile']} fits neither end: they show {left} and {right}."


def _not_your_train(f: Mapping[str, Any], n: Names) -> str:
    return (f"{_cap(_train(f['train'], n))} has no marker: you may play on your own "
            "train, on a marked train (●) or on the public train.")


def _no_such_train(f: Mapping[str, Any], _n: Names) -> str:
    return f"There is no train {f['train']}: the trains are 0 to {f['players'] - 1}."


def _table_does(facts: Mapping[str, Any], what: str) -> str:
    playable = facts.get("playable")
    now = f" Right now {playable} fits." if playable else ""
    return f"No need: the table {what}.{now}"


def _table_draws(f: Mapping[str, Any], _n: Names) -> str:
    if not f.get("stock_game"):
        return "There is no stock to draw from in this game."
    return _table_does(f, "draws for you when nothing fits")


Wording = Callable[[Mapping[str, Any], Names], str]

REFUSALS: dict[str, Wording] = {
    "not_held": lambda f, n: f"You don't have {f['tile']}.",
    "lead_has_no_end": lambda f, n: f"The first tile sets both ends: play {f['tile']} "
    "without an end.",
    "must_lead": lambda f, n: f"This hand must be opened with {f['forced']}, not {f['tile']}.",
    "does_not_fit": _does_not_fit,
    "say_which_end": lambda f, n: f"{f['tile']} fits both ends. Left or right? "
    f"(L shows {f['ends'][0]}, R shows {f['ends'][1]}) ",
    "wrong_end": lambda f, n: f"{f['tile']} doesn't fit the {_side(f['end'])} end, which "
    f"shows {f['shows']}.",
    "no_such_end": lambda f, n: f"{f['at']!r} is not an end: say L (left) or R (right).",
    "only_drawn_tile": lambda f, n: f"You drew {f['drawn']}: only that tile may be played now.",
    "fits_no_train": lambda f, n: f"{f['tile']} fits nowhere you may play: "
    f"{_places(f['places'], n)}.",
    "say_which_train": lambda f, n: f"{f['tile']} fits "
    f"{and_list([f'{_train(p, n)} ({p})' for p in f['fits']])}. Which train? ",
    "no_public_train": lambda f, n: "This table plays without a public train.",
    "no_such_train": _no_such_train,
    "own_train_first_round": lambda f, n: "In your first turn you play only on your own "
    f"train ({f['own']}).",
    "double_open": lambda f, n: f"The double on {_train(f['double_train'], n)} must be "
    f"covered first: play on it (it ends in {f['end']}).",
    "not_your_train": _not_your_train,
    "does_not_fit_train": lambda f, n: f"{f['tile']} doesn't fit {_train(f['train'], n)}, "
    f"which ends in {f['end']}.",
    "not_your_turn": lambda f, n: f"Wait: it is {n.seat_in_text(f['turn'])}'s turn."
    if f["turn"] != n.viewer else "It is your turn.",
    "unreadable": lambda f, n: f"{f['move']!r} is not a move: type a tile number or a tile "
    "like 6-3.",
    "hand_over": lambda f, n: "The hand is over: nobody is to play.",
    "no_hand": lambda f, n: "No hand is being played: the next one is dealt first.",
    "table_move": lambda f, n: "Only the table plays a move when the clock runs out.",
    "table_passes": lambda f, n: _table_does(f, "passes for you when nothing fits"),
    "table_draws": _table_draws,
}
"""A sentence for every refusal reason of the engine (docs/rules.md, "Refusals") and the
terminal's own answers to ``pass`` and ``draw``."""


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

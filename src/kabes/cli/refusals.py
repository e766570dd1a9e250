"""Refusals and hints in the player's words and notation.

The engine alone decides whether a move is allowed: when it refuses one it says why with a
stable ``reason`` and its facts (kabes.errors, docs/rules.md), and this module only words them,
in the player's notation: "You don't have 6-3" as they typed it, never "seat 0 does not hold
3-6". Two refusals are questions rather than errors ("Left or right?", "Which train?"): the
terminal asks them and plays the tile where the player answers. :func:`word_hint` says the
expert's move as a place ("6-3 on the left end"), never as a record move ("12-0@0"). The
sentences are the English catalog's (:mod:`kabes.words`, ``refuse.<reason>`` and ``hint.*``,
read through :func:`kabes.cli.words.say`); this module picks the entry and fills it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kabes.cli.words import Names, and_list, say, say_to
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


def _places(places: list[dict[str, Any]], names: Names) -> str:
    return and_list([say("refuse.fits_no_train.place", train=_train(p["train"], names),
                         end=p["end"]) for p in places])


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


Facts = Mapping[str, Any]


def _not_held(f: Facts, _n: Names) -> str:
    return say("refuse.not_held", tile=f["tile"])


def _lead_has_no_end(f: Facts, _n: Names) -> str:
    return say("refuse.lead_has_no_end", tile=f["tile"])


def _must_lead(f: Facts, _n: Names) -> str:
    return say("refuse.must_lead", forced=f["forced"], tile=f["tile"])


def _does_not_fit(f: Facts, _n: Names) -> str:
    left, right = f["ends"]
    key = "refuse.does_not_fit" + (".same" if left == right else "")
    return say(key, tile=f["tile"], left=left, right=right)


def _say_which_end(f: Facts, _n: Names) -> str:
    return say("refuse.say_which_end", tile=f["tile"], left=f["ends"][0], right=f["ends"][1])


def _wrong_end(f: Facts, _n: Names) -> str:
    side = say("refuse.side.L" if f["end"] == LEFT else "refuse.side.R")
    return say("refuse.wrong_end", tile=f["tile"], side=side, shows=f["shows"])


def _no_such_end(f: Facts, _n: Names) -> str:
    return say("refuse.no_such_end", at=repr(f["at"]))


def _only_drawn_tile(f: Facts, _n: Names) -> str:
    return say("refuse.only_drawn_tile", drawn=f["drawn"])


def _fits_no_train(f: Facts, n: Names) -> str:
    return say("refuse.fits_no_train", tile=f["tile"], places=_places(f["places"], n))


def _say_which_train(f: Facts, n: Names) -> str:
    trains = and_list([say("refuse.say_which_train.train", train=_train(p, n), place=p)
                       for p in f["fits"]])
    return say("refuse.say_which_train", tile=f["tile"], trains=trains)


def _no_public_train(_f: Facts, _n: Names) -> str:
    return say("refuse.no_public_train")


def _no_such_train(f: Facts, _n: Names) -> str:
    return say("refuse.no_such_train", train=f["train"], last=f["players"] - 1)


def _own_train_first_round(f: Facts, _n: Names) -> str:
    return say("refuse.own_train_first_round", own=f["own"])


def _double_open(f: Facts, n: Names) -> str:
    return say("refuse.double_open", double_train=_train(f["double_train"], n), end=f["end"])


def _not_your_train(f: Facts, n: Names) -> str:
    return say("refuse.not_your_train", train=_cap(_train(f["train"], n)))


def _does_not_fit_train(f: Facts, n: Names) -> str:
    return say("refuse.does_not_fit_train", tile=f["tile"], train=_train(f["train"], n),
               end=f["end"])


def _not_your_turn(f: Facts, n: Names) -> str:
    return say_to("refuse.not_your_turn", f["turn"] == n.viewer,
                  name=n.seat_in_text(f["turn"]))


def _unreadable(f: Facts, _n: Names) -> str:
    return say("refuse.unreadable", move=repr(f["move"]))


def _hand_over(_f: Facts, _n: Names) -> str:
    return say("refuse.hand_over")


def _no_hand(_f: Facts, _n: Names) -> str:
    return say("refuse.no_hand")


def _table_move(_f: Facts, _n: Names) -> str:
    return say("refuse.table_move")


def _table_does(key: str, facts: Facts) -> str:
    playable = facts.get("playable")
    return say(key + (".playable" if playable else ""), playable=playable)


def _table_passes(f: Facts, _n: Names) -> str:
    return _table_does("refuse.table_passes", f)


def _table_draws(f: Facts, _n: Names) -> str:
    if not f.get("stock_game"):
        return say("refuse.table_draws.no_stock")
    return _table_does("refuse.table_draws", f)


Wording = Callable[[Facts, Names], str]

REFUSALS: dict[str, Wording] = {
    "not_held": _not_held,
    "lead_has_no_end": _lead_has_no_end,
    "must_lead": _must_lead,
    "does_not_fit": _does_not_fit,
    "say_which_end": _say_which_end,
    "wrong_end": _wrong_end,
    "no_such_end": _no_such_end,
    "only_drawn_tile": _only_drawn_tile,
    "fits_no_train": _fits_no_train,
    "say_which_train": _say_which_train,
    "no_public_train": _no_public_train,
    "no_such_train": _no_such_train,
    "own_train_first_round": _own_train_first_round,
    "double_open": _double_open,
    "not_your_train": _not_your_train,
    "does_not_fit_train": _does_not_fit_train,
    "not_your_turn": _not_your_turn,
    "unreadable": _unreadable,
    "hand_over": _hand_over,
    "no_hand": _no_hand,
    "table_move": _table_move,
    "table_passes": _table_passes,
    "table_draws": _table_draws,
}
"""A sentence for every refusal reason of the engine (docs/rules.md, "Refusals") and the
terminal's own answers to ``pass`` and ``draw``."""


def word_hint(move: Move, seen: View, names: Names) -> str:
    """The expert's move as the player would say it: "6-3 on the left end"."""
    if not isinstance(move, Play):
        return say("hint.table")
    tile = str(move).partition("@")[0]
    if move.at is None:
        return say("hint.lead", tile=tile)
    if move.at == str(seen.seat):
        return say("hint.own_train", tile=tile)
    return say("hint.place", tile=tile, place=names.place(move.at, seen.seat))

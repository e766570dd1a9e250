"""The computer at a local table: its seats' moves, hints and reviews, by the levels the
server's workers run (kabes.server.compute.computers), searched here in the one thread the page's
worker has.

The budgets are a phone's (:class:`Budgets`, docs/levels.md "On a phone"): the same waits
as the server's, and the expert's search given what a cheap phone needs to play as the
expert the server promises. With ``worlds`` set (tests), every search is exactly repeatable:
the same seed plays the same moves in Pyodide and in CPython.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any, Final

from kabes.ai import make_player, review
from kabes.ai.expert import Expert
from kabes.table import wire
from kabes.table.messages import ReviewMove
from kabes.views import View

PHONE_EXPERT_BUDGET: Final = 1.0
"""Seconds the expert searches a move on a phone: the server's default budget, which on a
cheap phone in Pyodide searches about as many worlds as the server's expert at the 0.05 s
its strength is measured at (docs/levels.md, "On a phone")."""


@dataclass(frozen=True, slots=True)
class Budgets:
    """How long the local table's computer waits and thinks, in seconds."""

    computer_delay: float = 1.0
    """Before a computer seat moves, so the person can follow (the server's default)."""
    expert_budget: float = PHONE_EXPERT_BUDGET
    hint_budget: float = 0.5
    """The expert's search for a hint (the server's default)."""
    review_budget: float = review.REVIEW_BUDGET
    """The expert's search of each position of a review (the server's default)."""
    worlds: int | None = None
    """At most this many worlds a search, whatever the time left (repeatable searches)."""


PHONE: Final = Budgets()
"""A phone's budgets."""


def think(level: str, seen: View, seed: int, budgets: Budgets) -> str:
    """The move ``level`` makes in ``seen``, in record notation."""
    if level == "expert" and budgets.worlds is not None:
        player = Expert(Random(seed), budgets.expert_budget, max_worlds=budgets.worlds)
        return str(player.choose(seen))
    return str(make_player(level, Random(seed), budget=budgets.expert_budget).choose(seen))


def advise(seen: View, seed: int, budgets: Budgets) -> tuple[str, str]:
    """The expert's move for ``seen`` and its reason: the answer to a ``hint``."""
    hint = Expert(Random(seed), budgets.hint_budget, max_worlds=budgets.worlds).hint(seen)
    return str(hint.move), hint.reason


def second_opinions(record: dict[str, Any], seat: int, hand: int, seed: int,
                    budgets: Budgets) -> list[ReviewMove]:
    """The moves of ``seat`` in hand ``hand`` of ``record`` where the expert would have
    played otherwise: a ``review``'s answer, each position searched as the server's workers
    search it (its own seed, drawn in order from ``seed``)."""
    found = review.review(record, seat, budgets.review_budget, seed, hand, budgets.worlds)
    return [wire.review_move(alternative) for alternative in found]

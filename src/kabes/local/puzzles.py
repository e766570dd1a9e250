"""The puzzles on a phone with no network: the starter set shipped in the offline pack
(kabes.puzzles.starter), answered as ``/api/puzzles`` answers (PROTOCOL.md, "Puzzles").

Standard library only, for Pyodide. What differs from the server, because a phone has one
person and no store:

- **The daily puzzle** is the n-th by key of the starter puzzles of the variant asked (of
  all, when none is), n from the SHA-256 of the date and the variant, as the server's first
  choice of a day; the server also skips the puzzles it already made daily ones, which a
  phone cannot know, so the phone's daily puzzle may differ from the server's.
- **Next** is the easiest puzzle (lowest difficulty, then key) not among those the page
  says this phone has tried.
- **A try** is judged on the stored proof and answered with the solution and proof; nothing
  is rated (``rating`` is null, as nothing is at a local table). The page keeps the tries and
  the streak on the phone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from typing import Any

from kabes.puzzles.model import Puzzle, move_class
from kabes.puzzles.starter import starter
from kabes.rules import VARIANTS
from kabes.table.refusals import ErrorCode, Refused


@cache
def _puzzles() -> dict[str, Puzzle]:
    """The starter set by key, in key order (read once)."""
    return {p.key: p for p in starter()}


def _of(variant: str | None) -> list[Puzzle]:
    """The puzzles of ``variant`` (all if None) in key order; Refused for no such variant."""
    if variant is not None and variant not in VARIANTS:
        raise Refused(ErrorCode.BAD_VARIANT, f"no variant {variant!r}", status=404)
    return [p for p in _puzzles().values() if variant is None or p.variant == variant]


def public(puzzle: Puzzle, day: str | None) -> dict[str, Any]:
    """What a player sees before trying: never the solution or the proof."""
    return {"id": puzzle.key, "variant": puzzle.variant, "players": puzzle.players,
            "options": dict(puzzle.options), "seat": puzzle.seat, "view": puzzle.view,
            "moves": list(puzzle.moves), "date": day}


def daily(day: str, variant: str | None = None) -> dict[str, Any]:
    """The phone's puzzle of ``day`` (ISO date) in ``variant``; Refused ``not_found`` when
    there is none (Mexican Train has no puzzles)."""
    found = _of(variant)
    if not found:
        raise Refused(ErrorCode.NOT_FOUND, f"no puzzles for {variant}")
    slot = "" if variant is None else variant
    seed = int.from_bytes(hashlib.sha256(f"{day}/{slot}".encode()).digest()[:8], "big")
    return public(found[seed % len(found)], day)


def following(tried: Iterable[str], day: str, variant: str | None = None) -> dict[str, Any]:
    """The easiest puzzle not in ``tried``; Refused ``not_found`` when every one was."""
    done = set(tried)
    left = sorted((p for p in _of(variant) if p.key not in done),
                  key=lambda p: (p.difficulty, p.key))
    if not left:
        raise Refused(ErrorCode.NOT_FOUND, "no puzzle is left that you have not tried")
    return public(left[0], day)


def attempt(key: str, move: object) -> dict[str, Any]:
    """A try of puzzle ``key`` judged by its proof: ``correct``, ``solution``, ``proof`` and
    ``rating`` (null: nothing is rated on the phone). Refused ``not_found`` for no such
    puzzle, ``bad_message`` for a move that is not text, ``illegal_move`` for one that is not
    among the position's legal moves."""
    puzzle = _puzzles().get(key)
    if puzzle is None:
        raise Refused(ErrorCode.NOT_FOUND, f"no puzzle {key!r}")
    if not isinstance(move, str) or len(move) > 32:
        raise Refused(ErrorCode.BAD_MESSAGE, "a try is {move}: text of at most 32 characters")
    ends = puzzle.view.get("ends")
    legal = [str(m) for m in puzzle.view.get("legal") or []]
    wanted = move_class(move, ends)
    if wanted is None or all(move_class(m, ends) != wanted for m in legal):
        raise Refused(ErrorCode.ILLEGAL_MOVE,
                      f"{move!r} is not one of the legal moves {', '.join(legal)}", status=422)
    return {"correct": puzzle.solves(move), "solution": list(puzzle.solution),
            "proof": puzzle.proof.to_dict(), "rating": None}

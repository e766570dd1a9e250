"""A puzzle and its proof, as the server stores and sends them.

Everything here is plain data that turns into JSON and back (``to_dict``/``from_dict``), so
a puzzle found once can be kept in any store. Moves are written as in records (``6-3@L``):
that is what a seat's VIEW lists as ``legal`` and what a client sends.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kabes.errors import BadMove
from kabes.moves import LEFT, Play, parse_move

MoveClass = tuple[str, tuple[int, int]]
"""What a move means for the rest of the hand: the tile, and the ends it leaves (as a sorted
pair: which side of the line an end is on changes nothing). Two moves of one class are the
same move for the game."""


def move_class(move: str, ends: tuple[int, int] | list[int] | None) -> MoveClass | None:
    """The class of ``move`` (record notation) on a line with ``ends`` (None before the
    lead), or None if the move cannot be played there. The same tile laid on either of two
    ends that show the same number is one class; so is a lead laid either way round."""
    try:
        parsed = parse_move(move)
    except BadMove:
        return None
    if not isinstance(parsed, Play):
        return None
    tile = parsed.tile
    name = str(tile)
    if ends is None:
        return name, (tile.low, tile.high)
    left, right = ends
    fits_left, fits_right = tile.has(left), tile.has(right)
    if parsed.at is None:
        if fits_left and fits_right and left != right:
            return None  # ambiguous: records name the end here
        on_left = fits_left
    elif parsed.at in (LEFT, "R"):
        on_left = parsed.at == LEFT
    else:
        return None
    if not (fits_left if on_left else fits_right):
        return None
    if on_left:
        left = tile.other(left)
    else:
        right = tile.other(right)
    return name, (min(left, right), max(left, right))


@dataclass(frozen=True)
class MoveProof:
    """One legal move over every deal of a proof: its worst, best and mean score, the deals
    in which it scores less than the solution, and by how much at most (0 for a solution)."""

    move: str
    worst: int
    best: int
    mean: float
    behind: int
    most_behind: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "worst": self.worst,
            "best": self.best,
            "mean": self.mean,
            "behind": self.behind,
            "most_behind": self.most_behind,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> MoveProof:
        return MoveProof(
            str(data["move"]),
            int(data["worst"]),
            int(data["best"]),
            float(data["mean"]),
            int(data["behind"]),
            int(data["most_behind"]),
        )


@dataclass(frozen=True)
class Proof:
    """The deals counted, every legal move's numbers over them, and the positions searched."""

    deals: int
    moves: tuple[MoveProof, ...]
    nodes: int

    def to_dict(self) -> dict[str, Any]:
        return {"deals": self.deals, "moves": [m.to_dict() for m in self.moves],
                "nodes": self.nodes}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Proof:
        return Proof(
            int(data["deals"]),
            tuple(MoveProof.from_dict(m) for m in data["moves"]),
            int(data["nodes"]),
        )

    def of(self, move: str) -> MoveProof | None:
        """The numbers of ``move`` as written in the proof, if it is there."""
        return next((m for m in self.moves if m.move == move), None)


@dataclass(frozen=True)
class Puzzle:
    """A position from ``seat``'s side (``view``, a VIEW with ``legal`` filled, as the table
    protocol sends it), the hand's moves so far, its solving moves and their proof.

    ``difficulty`` grows with the deals in which the tempting move (the ``skilled`` level's)
    falls behind and with ``depth``, the moves left in the hand; ``source`` says where it was
    found (a record's id, or ``computer:<variant>:<seed>:<hand>``)."""

    variant: str
    players: int
    options: dict[str, Any]
    seat: int
    view: dict[str, Any]
    moves: list[str]
    solution: tuple[str, ...]
    proof: Proof
    difficulty: int
    depth: int
    source: str

    @property
    def key(self) -> str:
        """A short id that depends only on the position (variant, seats, options, seat, own
        tiles, line, moves so far), so the same position found twice is one puzzle."""
        what = {
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "seat": self.seat,
            "hand": sorted(self.view.get("hand") or []),
            "line": self.view.get("line"),
            "moves": self.moves,
        }
        text = json.dumps(what, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def _ends(self) -> tuple[int, int] | None:
        ends = self.view.get("ends")
        return None if ends is None else (int(ends[0]), int(ends[1]))

    def solves(self, move: str) -> bool:
        """Whether ``move`` (record notation) is a solution: the same tile in the same place
        as a solving move, however it is written (``6-3@L`` and ``3-6@L``; either end where
        both show the same number; the end left out where only one fits)."""
        if not isinstance(move, str):
            return False
        ends = self._ends()
        wanted = move_class(move, ends)
        return wanted is not None and any(move_class(s, ends) == wanted for s in self.solution)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seat": self.seat,
            "view": self.view,
            "moves": list(self.moves),
            "solution": list(self.solution),
            "proof": self.proof.to_dict(),
            "difficulty": self.difficulty,
            "depth": self.depth,
            "source": self.source,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Puzzle:
        return Puzzle(
            str(data["variant"]),
            int(data["players"]),
            dict(data["options"]),
            int(data["seat"]),
            dict(data["view"]),
            [str(m) for m in data["moves"]],
            tuple(str(m) for m in data["solution"]),
            Proof.from_dict(data["proof"]),
            int(data["difficulty"]),
            int(data["depth"]),
            str(data["source"]),
        )

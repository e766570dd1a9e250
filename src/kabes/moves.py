"""Moves: what a player chooses, written as in game records.

A move is the player's choice only. ``6-3`` as a lead lays 6 on the left end and 3 on the
right; ``6-3@R`` plays 6-3 on the right end; in Mexican Train ``6-3@2`` plays on seat 2's train
and ``6-3@M`` on the public train; ``timeout`` stands for the table playing for the player (the
clock's first-fit rule). Passes and draws are never moves: the table makes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kabes.errors import BadMove, BadTile
from kabes.tiles import MAX_PIPS, Tile, parse_tile

LEFT: Final = "L"
RIGHT: Final = "R"
PUBLIC: Final = "M"
MAX_TRAINS: Final = 8


@dataclass(frozen=True, slots=True)
class Play:
    """A tile played: ``at`` names the end (``L``/``R``) or train (``0``..``7``, ``M``).

    ``at`` is None for a lead, or where the player left the end out. ``first`` is the number
    written first; for a lead it is the number laid on the left end.
    """

    tile: Tile
    at: str | None = None
    first: int | None = None

    def __str__(self) -> str:
        first = self.tile.low if self.first is None else self.first
        text = self.tile.written(first)
        return text if self.at is None else f"{text}@{self.at}"

    def same_place(self, other: Play) -> bool:
        """Whether both put the same tile in the same place (orientation aside)."""
        return self.tile is other.tile and self.at == other.at


@dataclass(frozen=True, slots=True)
class Timeout:
    """The table plays for the player by the first-fit rule (the turn clock ran out)."""

    def __str__(self) -> str:
        return "timeout"


TIMEOUT: Final = Timeout()

Move = Play | Timeout


def parse_move(text: str, top: int = MAX_PIPS) -> Move:
    """Read a move written as in records (``6-3``, ``6-3@L``, ``6-3@2``, ``timeout``)."""
    raw = text.strip()
    if raw == "timeout":
        return TIMEOUT
    tile_text, sep, at = raw.partition("@")
    if sep and at not in (LEFT, RIGHT, PUBLIC) and not _is_train(at):
        raise BadMove(f"{text!r}: after @ comes L, R, a train 0-7 or M", "unreadable",
                      {"move": text, "at": at})
    try:
        tile = parse_tile(tile_text, top)
    except BadTile as err:
        raise BadMove(f"{text!r}: {err.message}", "unreadable", {"move": text}) from None
    first = int(tile_text.split("-")[0])
    return Play(tile, at if sep else None, first)


def _is_train(at: str) -> bool:
    return at.isascii() and at.isdigit() and int(at) < MAX_TRAINS

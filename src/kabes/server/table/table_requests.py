"""What the hub asks of a table for an HTTP request, wherever the table is held.

A request about a table (its summary, a seat taken, its record) is answered by the process
that holds the table; when that is another process, the request crosses Redis to it
(kabes.server.hub.relay). Each request is a type here, so that the hub answers them with one
exhaustive ``match`` (mypy checks none is forgotten) rather than by comparing strings, and a
misspelt request cannot be written.

On the wire a request stays what it was before these types existed, a name and a list of
arguments (``"summary", []``, ``"join", [player, name]``, ``"record", []``), so the frames
between processes do not change: :meth:`wire` writes it, :func:`from_wire` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class AskSummary:
    """The table's summary (``GET /api/tables/{code}``)."""

    name: ClassVar[str] = "summary"

    def wire(self) -> tuple[str, list[Any]]:
        """The request's name and arguments, as frames between processes carry them."""
        return self.name, []


@dataclass(frozen=True, slots=True)
class AskSeat:
    """A seat for ``player`` (the lowest free one, or the one they hold already), with the
    table's summary as its seats are shown it (``POST /api/tables/{code}/join``, quick
    seats, a tournament seating its players)."""

    player: int
    who: str
    """The player's name, shown at the seat."""
    name: ClassVar[str] = "join"

    def wire(self) -> tuple[str, list[Any]]:
        """The request's name and arguments, as frames between processes carry them."""
        return self.name, [self.player, self.who]


@dataclass(frozen=True, slots=True)
class AskRecord:
    """The record of the hands finished so far (``GET /api/tables/{code}/record``)."""

    name: ClassVar[str] = "record"

    def wire(self) -> tuple[str, list[Any]]:
        """The request's name and arguments, as frames between processes carry them."""
        return self.name, []


TableRequest = AskSummary | AskSeat | AskRecord
"""Every request the hub answers about a table."""


def from_wire(name: str, args: list[Any]) -> TableRequest:
    """The request another process sent as ``name`` and ``args`` (see :meth:`AskSeat.wire`);
    ValueError for one this code does not know (every process of a deploy runs the same
    code, so only a bug sends one)."""
    if name == AskSummary.name and not args:
        return AskSummary()
    if name == AskRecord.name and not args:
        return AskRecord()
    if name == AskSeat.name and len(args) == 2:
        return AskSeat(int(args[0]), str(args[1]))
    raise ValueError(f"no such request: {name!r} with {len(args)} arguments")


__all__ = ["AskRecord", "AskSeat", "AskSummary", "TableRequest", "from_wire"]

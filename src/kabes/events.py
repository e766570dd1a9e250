"""Events: every change to a match, each public or private to one seat.

``to`` is None for an event everyone may see, or the seat that alone may see it (a deal, the
tiles a player drew). The server sends each seat the public events and its own private ones;
everything else a seat learns comes from its view.
"""

from __future__ import annotations

from dataclasses import dataclass

from kabes.results import HandResult, MatchResult
from kabes.tiles import Tile


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; ``to`` is None (public) or the one seat that may see it."""

    @property
    def to(self) -> int | None:
        """Who may see this event: None for everyone."""
        return None

    @property
    def kind(self) -> str:
        """A stable name for the event type, for the wire and the logs."""
        return _snake(type(self).__name__)


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand (or Mexican Train round) was dealt; ``counts`` are tiles per seat."""

    number: int
    counts: tuple[int, ...]
    stock: int


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The tiles dealt to one seat; private to that seat."""

    seat: int
    tiles: tuple[Tile, ...]

    @property
    def to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class LeadDrawn(Event):
    """Plaza's draw for the lead: the tile each seat turned up, and who opens."""

    turned: tuple[Tile, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class LeaderChosen(Event):
    """Who leads this hand, and the tile they must lead with, if the rules force one."""

    seat: int
    forced: Tile | None


@dataclass(frozen=True, slots=True)
class EngineSet(Event):
    """Mexican Train: ``seat`` set the round's double in the middle."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A tile went down; ``move`` is the record notation, ``timeout`` if the table chose it."""

    seat: int
    tile: Tile
    move: str
    timeout: bool


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Tiles one seat drew from the stock; private to the drawer."""

    seat: int
    tiles: tuple[Tile, ...]

    @property
    def to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class DrewCount(Event):
    """What the others see of a draw: who drew, and how many tiles."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A forced pass; ``numbers`` are the open ends the seat could not match."""

    seat: int
    numbers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MarkerChanged(Event):
    """Mexican Train: a seat's marker was put on (``on``) or taken off its train."""

    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; every hand is shown face up."""

    result: HandResult
    hands: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over."""

    result: MatchResult


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

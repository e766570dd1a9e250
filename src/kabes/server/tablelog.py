"""A table's log: its entries, and what a table needs of the place that keeps them.

The store keeps these entries and the table applies them (``kabes.server.state``); both import
this module and nothing of each other. A table reaches its log only through :class:`TableLog`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from kabes.server.effects import Effect


@dataclass(slots=True)
class Entry:
    """One change of a table, as its log keeps it."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float
    """Wall time of the change, in seconds."""
    seat: int | None = None
    """The seat whose action made it, if any."""
    action: str | None = None
    """That action's id, so a retried id is answered, not applied again."""
    epoch: int = 0
    """The epoch of the owner that wrote it (the store refuses one older than the table's)."""


class TableLog(Protocol):
    """What a table needs of the store: keep an entry durably, read a table's entries back."""

    async def append(self, code: str, entry: Entry, effects: list[Effect]) -> None:
        """Commit ``entry`` and its effects durably; raise if that cannot be done
        (:class:`Lost` if the table has a newer owner)."""
        ...

    async def load(self, code: str) -> list[Entry]:
        """Table ``code``'s entries in order (empty if there is no such table)."""
        ...


class Lost(Exception):
    """Raised by a table's log when the table has a newer owner: whoever holds this table
    in memory holds it no longer (the store's ``Fenced`` is one)."""

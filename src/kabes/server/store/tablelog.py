"""What a table's actor needs of the place that keeps its log.

The entries are the pure table's (``kabes.table.entries``), and so are the effects kept with
them (``kabes.table.effects``); the store keeps both and the table applies the entries. A
table reaches its log only through :class:`TableLog`.
"""

from __future__ import annotations

from typing import Protocol

from kabes.table.effects import Effect
from kabes.table.entries import Entry


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

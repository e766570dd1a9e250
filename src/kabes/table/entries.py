"""A table's log entries: what a table is made of (``kabes.table.state`` applies them).

The store keeps these entries (``kabes.server.store.tablelog``) and the table applies them; both
import this module and nothing of each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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

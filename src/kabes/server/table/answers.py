"""What each seat of a table was answered, so that a retried action id gets the same answer.

An action that made a log entry is answered from the log itself (its ``ack``, which a rebuilt
table still knows: ``TableState.acked``); every other answer (a refusal, a hint, a review) is
kept here, a bounded number per seat, and survives a rebuild of the table's state.
"""

from __future__ import annotations

from collections import OrderedDict

from kabes.server.common.protocol import Ack, ServerMessage
from kabes.table.state import TableState

ANSWERS_KEPT = 512
"""Answers remembered per seat for retried action ids."""


class Answers:
    """A table's answers not in its log, per seat."""

    def __init__(self) -> None:
        self._kept: dict[int, OrderedDict[str, ServerMessage]] = {}

    def remember(self, seat: int, action: str, answer: ServerMessage) -> None:
        """Keep ``answer`` to ``seat``'s action ``action`` (the oldest go past ANSWERS_KEPT)."""
        kept = self._kept.setdefault(seat, OrderedDict())
        kept[action] = answer
        while len(kept) > ANSWERS_KEPT:
            kept.popitem(last=False)

    def of(self, state: TableState, seat: int, action: str) -> ServerMessage | None:
        """The answer already given to ``seat``'s action ``action``, if any (a retry)."""
        seq = state.acked(seat, action)
        if seq is not None:
            return Ack(action, seq)
        kept = self._kept.get(seat)
        return None if kept is None else kept.get(action)

"""The fixed phrases at a local table (PROTOCOL.md, "Phrases"): the same phrases as the
server's (``kabes/words/phrases.json``) and the same gap between two of one seat's, so that a
``say`` is answered as there (``said`` and ``ack``; ``bad_message``, ``slow_down``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Final

from kabes.table.refusals import ErrorCode, Refused

PHRASE_GAP_SECONDS: Final = 3.0
"""A seat says at most one phrase within this many seconds (kabes.server.table.phrases)."""


@cache
def phrase_ids() -> frozenset[str]:
    """The ids a ``say`` may name."""
    data = json.loads((files("kabes.words") / "phrases.json").read_text(encoding="utf-8"))
    return frozenset(str(p["id"]) for p in data)


class PhraseGate:
    """When each seat last said a phrase."""

    def __init__(self, gap: float = PHRASE_GAP_SECONDS) -> None:
        self.gap = gap
        self._last: dict[int, float] = {}

    def check(self, seat: int, phrase: str, now: float) -> None:
        """Let ``seat`` say ``phrase`` now, or Refused as the server refuses it."""
        if phrase not in phrase_ids():
            raise Refused(ErrorCode.BAD_MESSAGE, f"no phrase {phrase!r}; see GET /api/phrases")
        last = self._last.get(seat)
        if last is not None and now - last < self.gap:
            raise Refused(ErrorCode.SLOW_DOWN, f"one phrase every {self.gap:g} s; wait a moment")
        self._last[seat] = now

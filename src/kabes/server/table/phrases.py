"""The fixed phrases players say at a table, and how often a seat may say one.

Phrases are data (``kabes/words/phrases.json``), read once: each has an ``id`` and its text
in every language of ``kabes.words.LANGUAGES``. They are never free text, so nothing needs
moderating, and none speaks of tiles, numbers or what to play, so partners cannot signal
through them (a test checks every text). A seat's ``say`` is told to every socket at the
table, watchers included, as ``said``; it is no change of the table: not in its log, no new
``seq`` (PROTOCOL.md, "Public tables, watching and phrases"). Their route is phrases_api's.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any, Final

from kabes.server.common.protocol import ErrorCode, Refused

PHRASE_GAP_SECONDS: Final = 3.0
"""A seat says at most one phrase within this many seconds; the next is ``slow_down``."""


@cache
def phrases() -> tuple[dict[str, Any], ...]:
    """Every phrase, ``{"id", "text": {language: text}}``, in the order clients list them."""
    data = json.loads((files("kabes.words") / "phrases.json").read_text(encoding="utf-8"))
    return tuple({"id": str(p["id"]), "text": dict(p["text"])} for p in data)


@cache
def phrase_ids() -> frozenset[str]:
    """The ids a ``say`` may name."""
    return frozenset(p["id"] for p in phrases())


class PhraseGate:
    """When each seat of one table last said a phrase (the actor's, as its clock reads)."""

    def __init__(self, gap: float = PHRASE_GAP_SECONDS) -> None:
        self.gap = gap
        self._last: dict[int, float] = {}

    def check(self, seat: int, phrase: str, now: float) -> None:
        """Let ``seat`` say ``phrase`` now, or Refused: ``bad_message`` for a phrase that
        does not exist, ``slow_down`` within the gap of its last one (a refusal does not
        count as said)."""
        if phrase not in phrase_ids():
            raise Refused(ErrorCode.BAD_MESSAGE, f"no phrase {phrase!r}; see GET /api/phrases")
        last = self._last.get(seat)
        if last is not None and now - last < self.gap:
            raise Refused(ErrorCode.SLOW_DOWN,
                          f"one phrase every {self.gap:g} s; wait a moment")
        self._last[seat] = now

"""Error classes of the engine, each with a stable ``code`` that the server and CLI can show.

Every refusal names the problem; raising one of these never leaves a match half-changed,
because the engine checks a move completely before it changes anything.

Beyond its English ``message``, a refusal carries a stable ``reason`` (finer than the class's
``code``: ``not_held``, ``does_not_fit``, ``say_which_end``...) and its ``facts`` as JSON values
(the tile written ``a-b``, the ends, the places it would fit, whose turn it is), so that every
client can word it in its own language and notation. The reasons and their facts are listed
in docs/rules.md.
"""

from __future__ import annotations

from typing import Any


class KabesError(Exception):
    """Base of every error the engine raises on bad input."""

    code = "error"

    def __init__(
        self, message: str, reason: str | None = None, facts: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or self.code
        """A stable name for what exactly was refused (the class's ``code`` if no finer)."""
        self.facts: dict[str, Any] = dict(facts or {})
        """The refusal's facts, JSON values only."""


class BadTile(KabesError):
    """A tile written wrongly, or not in the set being played."""

    code = "bad_tile"


class BadMove(KabesError):
    """A move that cannot be read (its text), as opposed to one that breaks a rule."""

    code = "bad_move"


class IllegalMove(KabesError):
    """A move that the rules do not allow in this position."""

    code = "illegal_move"


class NotYourTurn(KabesError):
    """A move by a seat that is not the one to play."""

    code = "not_your_turn"


class BadOptions(KabesError):
    """A variant, seat count or table option that the rules do not allow."""

    code = "bad_options"


class BadRecord(KabesError):
    """A game record that is malformed or inconsistent with the rules."""

    code = "bad_record"


class MatchOver(KabesError):
    """An action on a match, or a hand, that has already ended."""

    code = "match_over"

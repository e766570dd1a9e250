"""Error classes of the engine, each with a stable ``code`` that the server and CLI can show.

Every refusal names the problem; raising one of these never leaves a match half-changed,
because the engine checks a move completely before it changes anything.
"""

from __future__ import annotations


class KabesError(Exception):
    """Base of every error the engine raises on bad input."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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

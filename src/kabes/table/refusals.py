"""The protocol's error codes, and :class:`Refused`, the one way anything is refused.

A refusal is :class:`Refused` with an :class:`ErrorCode`, whatever layer raises it: the checks
of an action here, or the server's HTTP routes and socket. The socket turns it into an
``error`` message (:meth:`Refused.to_error`), HTTP into ``{"code", "message"}`` with the code's
status. Standard library only: the table that raises these runs without the server too.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final

from kabes.table.messages import Error, ReasonedError


class ErrorCode(StrEnum):
    """Every code a refusal carries, on the socket and over HTTP."""

    BAD_NAME = "bad_name"
    BAD_TOKEN = "bad_token"
    NOT_FOUND = "not_found"
    BAD_VARIANT = "bad_variant"
    BAD_OPTIONS = "bad_options"
    BAD_LEVEL = "bad_level"
    PEOPLE_ONLY = "people_only"
    TABLE_FULL = "table_full"
    STARTED = "started"
    NOT_SEATED = "not_seated"
    BAD_MESSAGE = "bad_message"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"
    NOT_HOST = "not_host"
    NOT_NOW = "not_now"
    NO_HINTS = "no_hints"
    SLOW_DOWN = "slow_down"
    TOO_MANY_TABLES = "too_many_tables"
    """A player holds the most seats at tables waiting to start (kabes.server.table.seat_holds)."""
    UNAVAILABLE = "unavailable"
    """An addition: the store (or the table's owner) could not keep or answer; try again."""
    BAD_STEP = "bad_step"
    """An addition (lessons): a step or choice that does not exist, or a try that does not fit."""
    BAD_LANGUAGE = "bad_language"
    """An addition (lessons): a language the lessons are not written in."""
    REMOVED = "removed"
    """An addition: the host removed this player from the table before its start; they may
    not take a seat there again."""
    TOO_MANY_SOCKETS = "too_many_sockets"
    """An addition: a seat opened a socket beyond its cap; its oldest is closed (4409)."""
    TOURNAMENT_FULL = "tournament_full"
    """``enter`` of a tournament that has ``--tournament-max-entrants`` entrants."""


HTTP_STATUS: Final[Mapping[ErrorCode, int]] = {
    ErrorCode.BAD_NAME: 422, ErrorCode.BAD_TOKEN: 401, ErrorCode.NOT_FOUND: 404,
    ErrorCode.BAD_VARIANT: 422, ErrorCode.BAD_OPTIONS: 422, ErrorCode.BAD_LEVEL: 422,
    ErrorCode.PEOPLE_ONLY: 422, ErrorCode.TABLE_FULL: 409, ErrorCode.STARTED: 409,
    ErrorCode.NOT_SEATED: 403, ErrorCode.BAD_MESSAGE: 422, ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.ILLEGAL_MOVE: 409, ErrorCode.NOT_HOST: 403, ErrorCode.NOT_NOW: 409,
    ErrorCode.NO_HINTS: 409, ErrorCode.SLOW_DOWN: 429, ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BAD_STEP: 400, ErrorCode.BAD_LANGUAGE: 400,
    ErrorCode.REMOVED: 403, ErrorCode.TOO_MANY_SOCKETS: 409, ErrorCode.TOO_MANY_TABLES: 409,
    ErrorCode.TOURNAMENT_FULL: 409,
}
"""The HTTP status each code is answered with."""


def error_code(text: str) -> ErrorCode:
    """The code named ``text`` (relayed from another process); ``unavailable`` if this
    process knows no such code (a process of another version)."""
    try:
        return ErrorCode(text)
    except ValueError:
        return ErrorCode.UNAVAILABLE


class Refused(Exception):
    """A request or an action refused with a protocol code; nothing was changed. A refused
    move also carries the engine's ``reason`` and ``facts`` (kabes.errors), which the
    ``error`` message passes on so that clients can word it themselves."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        reason: str | None = None,
        facts: dict[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.facts = facts
        self.status = HTTP_STATUS[code] if status is None else status

    def to_error(self, action_id: str | None) -> Error:
        """The socket's ``error`` message for this refusal (with ``reason`` and ``facts``
        only when it has a reason: the message leaves them out otherwise)."""
        if self.reason is None:
            return Error(action_id, self.code, self.message)
        return ReasonedError(action_id, self.code, self.message, self.reason,
                             dict(self.facts or {}))

    def to_body(self) -> dict[str, str]:
        """The HTTP error body."""
        return {"code": str(self.code), "message": self.message}

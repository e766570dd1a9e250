"""A new table's first log entry, from the host's request, checked against the rules.

Pure: whoever opens a table (the server's ``POST /api/tables``, decoded by msgspec; the local
table on a phone, kabes.local) hands the request as a :class:`NewTable`; what
they mean (a variant that exists, options the engine takes, levels at seats that exist) is
checked here, each refusal with the protocol's code, so that a table opened on a phone is
opened exactly as the server opens one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kabes.ai import LEVELS
from kabes.errors import KabesError
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.table.refusals import ErrorCode, Refused


@dataclass(slots=True)
class NewTable:
    """What a host asks for (PROTOCOL.md, ``POST /api/tables``): ``players`` and ``options``
    as in game records (defaults if left out); ``computers`` maps seats (as strings, never
    "0") to levels. The server decodes a request's body into it with msgspec
    (kabes.server.common.protocol), a phone's local table builds it from the page's JSON
    (kabes.local): one declaration of the request's shape."""

    variant: str
    players: int | None = None
    options: dict[str, Any] | None = None
    computers: dict[str, str] | None = None
    public: bool = False
    """Listed in the lobby, where anyone may take a free seat (PROTOCOL.md, public tables)."""
    watch: bool | None = None
    """Whether anyone holding the code may watch; None: as ``public``."""


def created(body: NewTable, player: int, name: str) -> dict[str, Any]:
    """The data of the ``created`` entry of a table opened by ``player`` (``name``) as
    ``body`` asks; Refused with the protocol's code for a bad variant, seat count, option
    or level."""
    rules = VARIANTS.get(body.variant)
    if rules is None:
        raise unknown_variant(repr(body.variant))
    players = rules.default_players if body.players is None else body.players
    computers = _computers(rules.people_only, body.variant, players, body.computers or {})
    options = dict(body.options or {})
    if rules.open_ended_for_people and not computers and not body.public:
        # Friends agree when to stop; strangers at a public table need an end they can see
        # (PROTOCOL.md: a public table is never open-ended unless the host says so).
        options.setdefault("open_ended", True)
    try:
        Match(body.variant, players, options)
    except KabesError as err:
        raise Refused(ErrorCode.BAD_OPTIONS, err.message) from None
    watch = body.public if body.watch is None else body.watch
    return {"variant": body.variant, "players": players, "options": options,
            "computers": computers, "player": player, "name": name,
            "public": body.public, "watch": watch}


def unknown_variant(what: str) -> Refused:
    """The refusal of a variant that does not exist (``what``: how the request named it),
    naming the variants there are."""
    return Refused(ErrorCode.BAD_VARIANT,
                   f"no variant {what}; the variants are {', '.join(VARIANTS)}")


def _computers(
    people_only: bool, variant: str, players: int, computers: dict[str, str]
) -> dict[str, str]:
    """The computer seats asked for, by seat number written in ASCII digits (1 to n-1)."""
    if computers and people_only:
        raise Refused(ErrorCode.PEOPLE_ONLY, f"only people sit at a {variant} table")
    out: dict[str, str] = {}
    for seat, level in computers.items():
        if not (seat.isascii() and seat.isdigit() and 0 < int(seat) < players):
            raise Refused(ErrorCode.BAD_LEVEL,
                          f"seat {seat!r} is not a computer's seat: 1 to {players - 1}")
        if level not in LEVELS:
            raise Refused(ErrorCode.BAD_LEVEL,
                          f"no level {level!r}; the levels are {', '.join(LEVELS)}")
        out[str(int(seat))] = level
    return out

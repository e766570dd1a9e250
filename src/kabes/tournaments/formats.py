"""Which format a variant can play, and how many sides sit at each table.

A side is an entrant: one player, or in a team variant a pair. So a team variant's table
holds two sides; any other variant's holds one side per seat (``players``).

Decision (PROTOCOL.md says "two sides a table only" of round robin): round robin and knockout
are played only with two sides a table. Round robin meets everyone once *head to head*; a
knockout needs one winner from each table until one is left, and with three or four sides a
table two entrants left could sit at no table. A Swiss plays any number of sides: entrants in
order of points are grouped into tables of ``sides`` entrants, the ones left over (fewer than
a table) each getting a bye.
"""

from __future__ import annotations

from kabes.rules import Rules

FORMATS = ("swiss", "round_robin", "knockout")
"""The formats, as the protocol names them."""

HEAD_TO_HEAD = frozenset({"round_robin", "knockout"})
"""The formats played with two sides a table only."""


def sides_per_table(rules: Rules, players: int) -> int:
    """How many entrants sit at one table of ``rules`` with ``players`` seats: two pairs in a
    team variant (``Rules.teams``), else one a seat."""
    return 2 if rules.teams else players


def unplayable(format_: str, rules: Rules, players: int) -> str | None:
    """Why a tournament of ``format_`` cannot be played at tables of ``rules`` with
    ``players`` seats, or None if it can."""
    if format_ not in FORMATS:
        return f"no format {format_!r}; the formats are {', '.join(FORMATS)}"
    sides = sides_per_table(rules, players)
    if format_ in HEAD_TO_HEAD and sides != 2:
        return (f"a {format_} tournament is played two sides a table; this variant seats "
                f"{sides} sides")
    return None

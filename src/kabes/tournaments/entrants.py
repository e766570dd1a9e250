"""Who plays: an entrant is one player, or in a team variant a pair that named each other.

Entries arrive one by one (``{}`` or ``{"partner": PLAYER}``); an entrant is formed the
moment its last member enters, and entrants are numbered 1, 2, ... in that order, which is
also the knockout's seeding. A player entered again replaces their entry's partner as long as
they are not yet in a pair; a pair once formed stands.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's entry: who, and the partner named (team variants)."""

    player: int
    partner: int | None = None


def form_entrants(entries: list[Entry], teams: bool) -> list[tuple[int, ...]]:
    """The entrants the ``entries`` (in order of arrival) make: each a tuple of players (one,
    or a pair: the first to enter first), in the order they were formed. Without teams every
    player who entered is an entrant (a partner named is ignored); with teams only pairs that
    named each other are, each player in at most one pair."""
    if not teams:
        seen: list[tuple[int, ...]] = []
        for entry in entries:
            if (entry.player,) not in seen:
                seen.append((entry.player,))
        return seen
    named: dict[int, int | None] = {}
    paired: set[int] = set()
    formed: list[tuple[int, ...]] = []
    for entry in entries:
        if entry.player in paired:
            continue
        named[entry.player] = entry.partner
        other = entry.partner
        if (other is not None and other != entry.player and other not in paired
                and named.get(other) == entry.player):
            formed.append((other, entry.player))
            paired.update((other, entry.player))
    return formed

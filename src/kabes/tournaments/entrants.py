"""Who plays: an entrant is one player, or in a team variant a pair that named each other.

Entries arrive one by one (``{}`` or ``{"partner": PLAYER}``); an entrant is formed the
moment its last member enters, and entrants are numbered 1, 2, ... in that order, which is
also the knockout's seeding. A player entered again replaces their entry's partner as long as
they are not yet in a pair; a pair once formed stands.

The entries are folded one at a time into a :class:`Roster`, each in constant time, so that
reading a tournament of n entries back from its log costs n steps, not n² (each entry folding
every entry before it again) or n³.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's entry: who, and the partner named (team variants)."""

    player: int
    partner: int | None = None


@dataclass(slots=True)
class Roster:
    """The entrants the entries so far make, with what deciding the next entry needs."""

    teams: bool
    entrants: list[tuple[int, ...]] = field(default_factory=list)
    """Each entrant's players (one, or a pair: the first to enter first), entrant n at
    index n - 1."""
    last: dict[int, Entry] = field(default_factory=dict)
    """Each player's last entry, in the order of their first."""
    number: dict[int, int] = field(default_factory=dict)
    """The entrant each player belongs to."""
    changes: dict[int, int] = field(default_factory=dict)
    """How many of each player's entries named another partner than their entry before
    (none before the first)."""

    def add(self, entry: Entry) -> None:
        """Fold one entry: ignored from a player in an entrant already; else the player's
        entry, forming a pair when the partner named has named the player."""
        player = entry.player
        if player in self.number:
            return
        before = self.last.get(player)
        if entry.partner != (None if before is None else before.partner):
            self.changes[player] = self.changes.get(player, 0) + 1
        self.last[player] = entry
        if not self.teams:
            self.entrants.append((player,))
            self.number[player] = len(self.entrants)
            return
        other = entry.partner
        if other is None or other == player or other in self.number:
            return
        theirs = self.last.get(other)
        if theirs is not None and theirs.partner == player:
            self.entrants.append((other, player))
            self.number[other] = self.number[player] = len(self.entrants)

    def waiting(self) -> list[Entry]:
        """The last entry of each player of a team variant not yet in a pair."""
        if not self.teams:
            return []
        return [e for p, e in self.last.items() if p not in self.number]


def form_entrants(entries: list[Entry], teams: bool) -> list[tuple[int, ...]]:
    """The entrants the ``entries`` (in order of arrival) make: each a tuple of players (one,
    or a pair: the first to enter first), in the order they were formed. Without teams every
    player who entered is an entrant (a partner named is ignored); with teams only pairs that
    named each other are, each player in at most one pair."""
    roster = Roster(teams)
    for entry in entries:
        roster.add(entry)
    return roster.entrants

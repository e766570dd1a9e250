"""Names and grammar for the terminal: who is "you", what the computer seats are called.

Every sentence the terminal writes about a seat goes through :class:`Names`, so "you" always
takes "you" verbs ("You open.", "You put a marker on your train.") and the others theirs
("Skilled 1 opens."), and a computer seat is named by its level and seat number everywhere
(the seat number is also its train's number in Mexican Train). The sentences themselves come
from the English catalog (:mod:`kabes.words`) through :func:`say`: the terminal's own wording
of a key (``terminal.<key>``) where it has one, else the words the web client shows too.
Variants and endings are named as the web client names them in English (:func:`variant_name`,
:func:`ending_name`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kabes import words
from kabes.moves import LEFT, PUBLIC, RIGHT
from kabes.rules import get_rules


def terminal_key(key: str) -> str:
    """The catalog key the terminal reads for ``key``: its own wording, else the shared one."""
    own = words.TERMINAL + key
    return own if words.has(own) else key


def has_words(key: str) -> bool:
    """Whether the catalog words ``key`` for the terminal (its own wording or the shared one)."""
    return words.has(terminal_key(key))


def say(key: str, **params: object) -> str:
    """The terminal's words for ``key``, placeholders filled from ``params``."""
    return words.word(terminal_key(key), words.ENGLISH, **params)


def say_to(key: str, you: bool, **params: object) -> str:
    """``say``, in the ``.you`` form when its subject is you (or a team: English verbs agree
    with both alike), as :meth:`Names.says` chooses the verb."""
    return say(f"{key}.you" if you else key, **params)


def variant_name(variant: str) -> str:
    """A variant's name, as the web client gives it in English: the catalog's
    ``variant.<id>``, else the variant's own ``Rules.title`` (a variant no catalog names yet)."""
    key = f"variant.{variant}"
    return say(key) if has_words(key) else get_rules(variant).title


def ending_name(name: str) -> str:
    """The name of an ending or a bonus (``tonbe``, ``domino``, ``capicu``, ``kochon``,
    ``wa``...), the catalog's ``ending.<name>``, as the web client shows it ("Capicú!")."""
    return say(f"ending.{name}")


def plural(count: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``; ``noun`` takes an ``s`` when ``count`` is not 1."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def and_list(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def or_list(numbers: Sequence[int]) -> str:
    """Numbers as ``3``, ``3 or 5``: what a player could not match."""
    return and_list([str(n) for n in sorted(set(numbers))], "or")


@dataclass(frozen=True, slots=True)
class Names:
    """How one viewer names the seats and teams of a table (``viewer`` None: a narrator)."""

    players: int
    teams: bool
    viewer: int | None = None
    levels: Mapping[int, str] = field(default_factory=dict)
    """The level of each computer seat, when known (a game against the computer)."""

    def seat(self, seat: int) -> str:
        """"You", or "Skilled 1" (a computer seat by level), or "Seat 1"."""
        if seat == self.viewer:
            return "You"
        level = self.levels.get(seat)
        return f"{level.capitalize()} {seat}" if level else f"Seat {seat}"

    def seat_in_text(self, seat: int) -> str:
        """The seat's name in the middle of a sentence ("you", "Skilled 1")."""
        name = self.seat(seat)
        return "you" if name == "You" else name

    def says(self, seat: int, you_form: str, other_form: str) -> str:
        """Subject and verb agreed: ``says(0, "play", "plays")`` is "You play" for seat 0."""
        verb = you_form if seat == self.viewer else other_form
        return f"{self.seat(seat)} {verb}"

    def their(self, seat: int) -> str:
        """"your" for the viewer, "their" for anyone else."""
        return "your" if seat == self.viewer else "their"

    def train(self, place: str, mover: int | None = None) -> str:
        """A train named for ``mover``: "your train", "their train", "Skilled 2's train"."""
        if place == PUBLIC:
            return "the public train"
        owner = int(place)
        if mover is not None and owner == mover:
            return f"{self.their(mover)} train"
        if owner == self.viewer:
            return "your train"
        return f"{self.seat(owner)}'s train"

    def place(self, at: str | None, mover: int | None = None) -> str:
        """Where a tile goes, in words: "on the left end", "on your train"."""
        if at is None:
            return ""
        if at == LEFT:
            return "on the left end"
        if at == RIGHT:
            return "on the right end"
        return f"on {self.train(at, mover)}"

    def party(self, party: int) -> str:
        """A team by its players ("You and Expert 2") or a seat, as the viewer says it."""
        if not self.teams:
            return self.seat(party)
        first, second = party, party + 2
        if self.viewer is not None and self.viewer % 2 == party:
            first, second = self.viewer, (self.viewer + 2) % 4
        return f"{self.seat(first)} and {self.seat_in_text(second)}"

    def party_says(self, party: int, you_form: str, other_form: str) -> str:
        """Subject and verb agreed for a party: a team takes the plural ("You and X win")."""
        if self.teams or party == self.viewer:
            return f"{self.party(party)} {you_form}"
        return f"{self.party(party)} {other_form}"

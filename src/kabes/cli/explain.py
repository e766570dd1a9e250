"""The engine's explanation of a hand, in the terminal's words.

After every hand the engine says, step by step, how its points follow from the pips left
(:mod:`kabes.explain`: stable codes and their facts, listed in docs/rules.md). How each step is
told, which catalog entry words it and what fills its placeholders, is composed once for both
clients in the web client's ``steps.js`` (read through :func:`kabes.words.steps`); this module
only does what is the terminal's own: it reads the English catalog, its ``terminal.*`` entries
first (the most precise entry it has), names seats and parties as :class:`Names` does ("you" in
a sentence, "You" at its start), joins lists with "and", and shows a sum in full. ``ENDINGS``
says each named ending in a sentence, the first time it happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from kabes import words
from kabes.cli.words import Names, and_list, say
from kabes.explain import Step

ENDINGS: Mapping[str, str] = {
    name: say(f"ending.about.{name}")
    for name in ("tonbe", "2-kabes", "blok", "capicu", "blocked", "kochon", "wa")
}
"""Each named ending, said once, the first time it happens in a game."""

Facts = Mapping[str, Any]
Counts = Sequence[int] | None
"""The pips left per seat, from the explanation's ``counts`` step, for sums shown in full."""


def endings_named(steps: Sequence[Step]) -> list[str]:
    """The named endings an explanation shows, as keys of ``ENDINGS``."""
    codes = {s.code for s in steps}
    named = [str(s.facts["name"]) for s in steps if s.code == "named"]
    if not named and "capicu" in codes:
        named.append("capicu")
    if not named and codes & {"blocked", "round_blocked"}:
        named.append("blocked")
    return named + [code for code in ("kochon", "wa") if code in codes]


def word_explanation(steps: Sequence[Step], names: Names) -> list[str]:
    """The explanation's steps in sentences, in the engine's order (steps told as one, a
    round's penalties, in one sentence)."""
    telling = words.steps()
    counts: Counts = next((s.facts[left] for s in steps
                           if (left := telling.get(s.code, {}).get("pips_left"))), None)
    told: list[Step] = []
    for s in steps:
        merge = telling.get(s.code, {}).get("merge")
        if merge and told and told[-1].code == s.code:
            told[-1].facts[merge].append(dict(s.facts))
        else:
            told.append(Step(s.code, {merge: [dict(s.facts)]} if merge else dict(s.facts)))
    return [word_step(s, names, counts) for s in told]


def word_step(s: Step, names: Names, counts: Counts = None) -> str:
    """One step in a sentence (a code without words says so rather than fail)."""
    telling: Mapping[str, Any] = words.steps().get(s.code, {})
    merge = telling.get("merge")
    facts = {merge: [dict(s.facts)]} if merge and merge not in s.facts else s.facts
    if names.teams and "teams" in telling:
        telling = telling["teams"]
    teller = _Teller(names, counts, facts)
    text = teller.phrase(f"explain.{s.code}", telling)
    return _capital(text) if text else f"({s.code})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sum(values: Sequence[int], total: int) -> str:
    if len(values) <= 1:
        return str(total)
    return " + ".join(map(str, values)) + f" = {total}"


@dataclass(frozen=True)
class _Teller:
    """One step told to one reader: its facts, how the reader names the table, the counts."""

    names: Names
    counts: Counts
    facts: Facts

    def entry(self, key: str, refine: Sequence[str]) -> str | None:
        """The most precise entry for ``key`` the terminal reads: its own (``terminal.``)
        first, then the shared one, each from the most refined form down."""
        suffixes = [s for s in (self.suffix(r) for r in refine) if s]
        forms = [".".join([key, *chosen]) for n in range(len(suffixes), -1, -1)
                 for chosen in combinations(suffixes, n)]
        return next((k for k in [words.TERMINAL + f for f in forms] + forms if words.has(k)),
                    None)

    def suffix(self, refine: str) -> str | None:
        """What one refinement adds to the entry's key here, if it applies."""
        if refine == "teams":
            return "teams" if self.names.teams else None
        if refine.startswith("you:"):
            who = self.facts.get(refine[4:])
            if refine == "you:party" and self.names.teams:
                return "you"
            return "you" if who is not None and who == self.names.viewer else None
        fact, _, suffix = refine.partition("?")
        value = self.facts.get(fact)
        if suffix:
            return suffix if value else None
        return None if value is None else str(value)

    def phrase(self, key: str, telling: Mapping[str, Any], item: Any = None,
               index: int | None = None) -> str:
        """An entry worded, its placeholders filled (only those its text has); "" if the
        terminal has no words for it."""
        found = self.entry(key, telling.get("refine", ()))
        if found is None:
            return ""
        params: Mapping[str, Any] = telling.get("params", {})
        needed = words.placeholders(words.catalog(words.ENGLISH)[found]) & set(params)
        return words.word(found, words.ENGLISH,
                          **{p: self.value(params[p], item, index) for p in needed})

    def value(self, source: Any, item: Any, index: int | None) -> Any:
        """A placeholder's value: a phrase, a list, or a path into the facts with its kind."""
        if isinstance(source, Mapping) and "each" in source:
            items = self.path(source["each"], item, index)
            return say("list.items").join(
                _capital(self.phrase(source["key"], source, each, i)) for i, each in
                enumerate(items))
        if isinstance(source, Mapping):
            return self.phrase(source["key"], source, item, index)
        kind, _, path = source.rpartition(":")
        if kind == "sum":
            seats, total = path.split("=")
            shown = self.path(total, item, index)
            if self.counts is None:
                return str(shown)
            return _sum([self.counts[s] for s in self.path(seats, item, index)], shown)
        value = self.path(path, item, index)
        n = self.names
        if kind == "seat":
            return "" if value is None else n.seat_in_text(value)
        if kind == "seats":
            return and_list([n.seat_in_text(s) for s in value])
        if kind == "party":
            return n.party(value)
        if kind == "parties":
            return and_list([n.party(p) for p in value])
        if kind == "ending":
            return say(f"ending.{value}")
        if kind == "team_sum":
            first = n.viewer if n.viewer is not None and n.viewer % 2 == value else value
            seats = [first, (first + 2) % 4]
            counts = self.counts if self.counts is not None else self.facts["counts"]
            return _sum([counts[s] for s in seats], self.facts["totals"][value])
        return value

    def path(self, path: str, item: Any, index: int | None) -> Any:
        """A path into the facts: ``tile``, ``totals[party]``, ``@``, ``@seat``, ``#``,
        ``hand_wins[#]``."""
        if path == "#":
            return index
        if path.startswith("@"):
            return item if path == "@" else item.get(path[1:])
        name, _, at = path.partition("[")
        value = self.facts.get(name)
        if at and value is not None:
            value = value[self.path(at.rstrip("]"), item, index)]
        return value

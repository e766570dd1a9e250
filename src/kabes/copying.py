"""Copies of a hand built from its declared fields, sharing nothing mutable with the original.

A hand is copied for search and what-if (the expert plays every move out in copies of one
world), so a copy must be cheap and independent. Each hand class declares, in a
:class:`Fields`, how every attribute it has is copied: shared (an immutable value: a number,
a tile, a tuple, a frozen record), a new list (a list of immutable values), a new list of new
lists (the seats' hands), or a board record rebuilt (the ``Line``, a ``Train``, a list of
them). :func:`copy_state` refuses an object with an attribute its class did not declare, so a
field added to a hand cannot be shared by mistake; ``tests/test_hand_copies.py`` checks, for
every variant, that a copy shares no mutable object with the original.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Fields:
    """How each attribute of a class is copied; every attribute must be named once."""

    shared: tuple[str, ...] = ()
    """Immutable values: the copy refers to the same object."""
    lists: tuple[str, ...] = ()
    """Lists of immutable values: the copy gets a new list."""
    nested: tuple[str, ...] = ()
    """Lists of lists of immutable values: new lists all the way down."""
    records: tuple[str, ...] = ()
    """Mutable dataclasses whose fields are immutable values or lists of them (or None, or a
    list of such records): rebuilt from their fields."""

    @property
    def every(self) -> frozenset[str]:
        """Every attribute declared."""
        return frozenset(self.shared + self.lists + self.nested + self.records)


def copy_state(original: T, declared: Fields) -> T:
    """A new object of the same class, each attribute copied as ``declared`` says;
    TypeError if the object has an attribute that is not declared (or lacks one that is)."""
    state: dict[str, Any] = vars(original)
    if state.keys() != declared.every:
        odd = sorted(state.keys() ^ declared.every)
        raise TypeError(f"{type(original).__name__}: declare how to copy {', '.join(odd)}")
    other = object.__new__(type(original))
    copied: dict[str, Any] = vars(other)
    for name in declared.shared:
        copied[name] = state[name]
    for name in declared.lists:
        copied[name] = list(state[name])
    for name in declared.nested:
        copied[name] = [list(inner) for inner in state[name]]
    for name in declared.records:
        value = state[name]
        copied[name] = [_record(r) for r in value] if type(value) is list else _record(value)
    return other


def _record(value: Any) -> Any:
    """A board record rebuilt from its fields, its lists copied; None stays None."""
    if value is None:
        return None
    kind = type(value)
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(f.name for f in fields(value))
    parts = [getattr(value, name) for name in names]
    return kind(*[list(p) if type(p) is list else p for p in parts])


_NAMES: dict[type, tuple[str, ...]] = {}
"""Each board record's field names, in order, looked up once."""

"""Copies of a hand that share nothing mutable with the original, by construction.

A hand is copied for search and what-if (the expert plays every move out in copies of one
world). Rather than a hand-kept list of fields, :func:`copy_state` copies every attribute the
object has, whatever it is named, through :func:`clone`: values of immutable kinds (numbers,
strings, tiles, frozen records of immutable values) are shared, lists and the mutable
dataclasses of a board (the line, a train) are copied all the way down, and a value of any
other kind is refused with TypeError, so a new field can never be shared by mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, TypeVar

from kabes.tiles import Tile

T = TypeVar("T")

_ATOMS: set[type] = {int, float, bool, str, type(None), Tile}
"""Kinds that are immutable and hold nothing mutable: always shared."""


def copy_state(original: T) -> T:
    """A new object of the same class whose every attribute is a :func:`clone`."""
    other = object.__new__(type(original))
    for name, value in vars(original).items():
        setattr(other, name, clone(value))
    return other


def clone(value: T) -> T:
    """``value`` itself if nothing in it can change, else a deep copy of it."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    copier = _COPIERS.get(kind) or _learn(kind)
    result: T = copier(value)
    return result


def _tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    items = [clone(x) for x in value]
    if all(a is b for a, b in zip(items, value, strict=True)):
        return value
    return tuple(items)


def _list(value: list[Any]) -> list[Any]:
    return [clone(x) for x in value]


def _frozenset(value: frozenset[Any]) -> frozenset[Any]:
    for item in value:
        if clone(item) is not item:
            raise TypeError(f"a frozenset holding a mutable {type(item).__name__}")
    return value


_COPIERS: dict[type, Callable[[Any], Any]] = {
    tuple: _tuple,
    list: _list,
    frozenset: _frozenset,
}


def _learn(kind: type) -> Callable[[Any], Any]:
    """How to copy a kind met for the first time: enums are shared; a frozen dataclass is
    shared if its fields are; a mutable dataclass is rebuilt from its fields."""
    if issubclass(kind, Enum):
        copier: Callable[[Any], Any] = _shared
    elif is_dataclass(kind):
        names = [f.name for f in fields(kind)]
        frozen = kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        copier = _frozen_record(names) if frozen else _record(kind, names)
    else:
        raise TypeError(f"cannot copy a {kind.__name__} safely: declare how in kabes.copying")
    _COPIERS[kind] = copier
    return copier


def _shared(value: Any) -> Any:
    return value


def _frozen_record(names: list[str]) -> Callable[[Any], Any]:
    def copy(value: Any) -> Any:
        for name in names:
            item = getattr(value, name)
            if clone(item) is not item:
                raise TypeError(f"{type(value).__name__}.{name} is mutable in a frozen record")
        return value

    return copy


def _record(kind: type, names: list[str]) -> Callable[[Any], Any]:
    def copy(value: Any) -> Any:
        return kind(**{name: clone(getattr(value, name)) for name in names})

    return copy

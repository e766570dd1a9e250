"""Table options, checked against what each variant allows.

Every variant declares the options it accepts, with their defaults and allowed values; an
unknown option, a value of the wrong kind or out of range is refused with a message that says
what would be allowed. Records keep only the options that differ from the defaults.

:class:`Options` holds what several variants share; a variant with options of its own keeps
them in a subclass in its own module, named by ``Rules.options_class``, so that adding a
variant's option touches nothing outside that module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from itertools import pairwise
from typing import Any

from kabes.errors import BadOptions


@dataclass(frozen=True, slots=True)
class Options:
    """The options several variants share; a variant uses only those it declares, and a
    subclass of its own adds the options only it has."""

    target: int | None = None
    hands: int | None = None
    open_ended: bool = False


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a variant accepts: its default and the values allowed."""

    name: str
    default: int | bool | None
    choices: tuple[int, ...] | None = None
    """For an integer option, the allowed values; None for a yes/no option."""
    why: str = ""
    """Said when a value is refused: where the allowed values come from."""


def flag(name: str) -> OptionSpec:
    """A yes/no option, off by default."""
    return OptionSpec(name, False)


def check_options(
    variant: str,
    specs: Mapping[str, OptionSpec],
    given: Mapping[str, Any] | None,
    kind: type[Options] = Options,
) -> Options:
    """The options for a table, as a ``kind`` (the variant's options class), from the
    defaults and ``given``; BadOptions if any is wrong."""
    values: dict[str, Any] = {name: spec.default for name, spec in specs.items()}
    for name, value in (given or {}).items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs)) or "none"
            raise BadOptions(f"{variant} has no option {name!r} (its options: {known})")
        values[name] = _checked(variant, spec, value)
    return kind(**values)


def changed_options(options: Options, specs: Mapping[str, OptionSpec]) -> dict[str, Any]:
    """The options that differ from the defaults, as a record keeps them."""
    out: dict[str, Any] = {}
    for f in fields(options):
        spec = specs.get(f.name)
        value = getattr(options, f.name)
        if spec is not None and value != spec.default:
            out[f.name] = value
    return out


def _checked(variant: str, spec: OptionSpec, value: Any) -> int | bool:
    if spec.choices is None:
        if not isinstance(value, bool):
            raise BadOptions(f"{variant}: option {spec.name} is yes or no (true/false)")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOptions(f"{variant}: option {spec.name} is a whole number, not {value!r}")
    if value not in spec.choices:
        raise BadOptions(
            f"{variant}: {spec.name} {value} is not allowed; "
            f"choose {_describe(spec.choices)}{spec.why}"
        )
    return value


def _describe(choices: tuple[int, ...]) -> str:
    if len(choices) > 6:
        step = choices[1] - choices[0]
        if all(b - a == step for a, b in pairwise(choices)):
            return f"from {choices[0]} to {choices[-1]} in steps of {step}"
    if len(choices) == 1:
        return str(choices[0])
    return ", ".join(map(str, choices[:-1])) + f" or {choices[-1]}"

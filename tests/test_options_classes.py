"""Each variant owns its options: the shared ``Options`` holds what several variants use, a
subclass in the variant's module holds the rest, and the record, the server's summary and the
view keep their shapes whatever class a table's options are."""

from __future__ import annotations

from dataclasses import dataclass, fields

import pytest

from kabes import rules as rules_package
from kabes.match import Match
from kabes.options import Options, OptionSpec
from kabes.records import to_record
from kabes.rules import VARIANTS
from kabes.rules.partnership import TARGETS, Partnership
from kabes.table.wire import view_json
from kabes.views import view

VIEW_OPTION_NAMES = (
    "target",
    "capicu_bonus",
    "score_losers_only",
    "blocker_wins_block",
    "hands",
    "open_ended",
    "mexican_train",
    "double_blank_50",
)
"""What the view's ``options`` object has always listed, for every variant."""


def declared(variant: str) -> set[str]:
    """Every option the variant declares, with any number of seats."""
    rules = VARIANTS[variant]
    return {name for n in rules.seat_counts for name in rules.option_specs(n)}


def names(kind: type[Options]) -> set[str]:
    return {f.name for f in fields(kind)}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variants_options_class_holds_exactly_its_declared_options(variant: str) -> None:
    """All it declares is a field of its class, and each field its class adds to the shared
    ones is declared: no variant carries another's options."""
    kind = VARIANTS[variant].options_class
    assert declared(variant) <= names(kind)
    assert names(kind) - names(Options) <= declared(variant)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_variants_own_options_class_lives_in_its_module(variant: str) -> None:
    rules = VARIANTS[variant]
    kind = rules.options_class
    assert kind is Options or kind.__module__ == type(rules).__module__


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_table_is_built_with_its_variants_options_class(variant: str) -> None:
    assert type(Match(variant).options) is VARIANTS[variant].options_class


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_view_lists_the_same_eight_options_whatever_the_variant(variant: str) -> None:
    """The protocol's shape: an option the variant has not is shown at its old default."""
    match = Match(variant)
    shown = view_json(view(match, 0), None, None)["options"]
    assert tuple(shown) == VIEW_OPTION_NAMES
    old_defaults = {"capicu_bonus": 0, "hands": None, "target": None}
    for name in VIEW_OPTION_NAMES:
        if name not in match.specs:
            assert shown[name] == old_defaults.get(name, False), name
        else:
            assert shown[name] == getattr(match.options, name), name


@dataclass(frozen=True, slots=True)
class DoubleOrNothingOptions(Options):
    """A made-up variant's own option."""

    double_or_nothing: bool = False


class DoubleOrNothing(Partnership):
    """A made-up variant, whole in this module: partnership with an option of its own."""

    id = "double-or-nothing"
    options_class = DoubleOrNothingOptions

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        return {
            "target": OptionSpec("target", 100, TARGETS),
            "double_or_nothing": OptionSpec("double_or_nothing", False),
        }


def test_a_new_variants_options_need_no_edit_outside_its_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Registered (its line in VARIANTS), a variant's own option is checked, recorded when
    changed, and shown in the view after the eight every view lists."""
    monkeypatch.setitem(rules_package.VARIANTS, DoubleOrNothing.id, DoubleOrNothing())
    match = Match(DoubleOrNothing.id, 4, {"double_or_nothing": True})
    assert isinstance(match.options, DoubleOrNothingOptions)
    assert match.options.double_or_nothing is True
    assert match.changed_options == {"double_or_nothing": True}
    assert to_record(match)["options"] == {"double_or_nothing": True}
    shown = view_json(view(match, 0), None, None)["options"]
    assert tuple(shown) == (*VIEW_OPTION_NAMES, "double_or_nothing")
    assert shown["double_or_nothing"] is True

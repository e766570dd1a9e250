"""The variants, by id: one module per rule family of RULES.md.

Adding a variant means a module here and a line in ``VARIANTS``; nothing else names them.
"""

from __future__ import annotations

from kabes.errors import BadOptions
from kabes.rules.base import MatchState, Rules, Scored
from kabes.rules.haitian import Haitian
from kabes.rules.mexican_train import MexicanTrain
from kabes.rules.partnership import Partnership
from kabes.rules.plaza import Plaza

VARIANTS: dict[str, Rules] = {
    rules.id: rules
    for rules in (
        Partnership(),
        Plaza(partners=False),
        Plaza(partners=True),
        Haitian(partners=False),
        Haitian(partners=True),
        MexicanTrain(),
    )
}

DEFAULT_VARIANT = "haitian"
"""The variant a client offers first when its player has not chosen one."""


def get_rules(variant: str) -> Rules:
    """The rules of ``variant``; BadOptions naming the known ids if there is no such variant."""
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise BadOptions(f"no variant {variant!r}; the variants are {known}") from None


__all__ = ["DEFAULT_VARIANT", "VARIANTS", "MatchState", "Rules", "Scored", "get_rules"]

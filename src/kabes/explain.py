"""How a hand's points follow from its end: the explanation, as data with stable codes.

Every variant says, step by step, why a finished hand scored what it did: how it ended, the
pips left in each hand (``counts``), which hands were counted for whom, bonuses, penalties and
who took them, how ties were broken, who leads next and why, and, when the hand ended the
match, who won it and why. A step is a stable ``code`` and its ``facts`` (JSON values only:
seats, parties, pips, tiles written ``a-b``); there is no English here, so every client words
the same facts in its own language. The codes and their facts are listed in docs/rules.md.

``party`` in a fact is a team (team 0 = seats 0 and 2) in team variants, a seat otherwise,
as in a result's ``winner``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kabes.tiles import Tile

Explanation = tuple["Step", ...]
"""The steps of one hand's explanation, in the order a person would tell them."""


@dataclass(frozen=True, slots=True)
class Step:
    """One fact of an explanation: a stable ``code`` and its facts, JSON values only."""

    code: str
    facts: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"code", "facts"}``."""
        return {"code": self.code, "facts": dict(self.facts)}


def explanation_json(steps: Explanation) -> list[dict[str, Any]]:
    """An explanation as JSON: a list of ``{"code", "facts"}``."""
    return [step.to_json() for step in steps]


def step(code: str, **facts: Any) -> Step:
    """A step; tiles among the facts are written ``a-b``."""
    return Step(code, {k: _plain(v) for k, v in facts.items()})


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


# The codes, one per ending and scoring rule (see docs/rules.md for each one's facts). --------

WENT_OUT = "went_out"
BLOCKED = "blocked"
ROUND_BLOCKED = "round_blocked"
CAPICU = "capicu"
NAMED = "named"
COUNTS = "counts"
SCORES_PIPS = "scores_pips"
LOWER_TOTAL_WINS = "lower_total_wins"
TIE_TO_LAST_PLAYER = "tie_to_last_player"
TIE_NOBODY_SCORES = "tie_nobody_scores"
BLOCKER_WINS_BLOCK = "blocker_wins_block"
CAPICU_BONUS = "capicu_bonus"
LOWEST_HAND_WINS = "lowest_hand_wins"
TIE_BLOCKER_WINS = "tie_blocker_wins"
TIE_FIRST_AFTER_BLOCKER = "tie_first_after_blocker"
TIE_ACROSS_TEAMS_BLOCKER = "tie_across_teams_blocker"
WINNER_POINTS = "winner_points"
PENALTY_TO_HIGHEST = "penalty_to_highest"
PENALTY_TIE_FIRST_AFTER_WINNER = "penalty_tie_first_after_winner"
LOSING_TEAM_RESET = "losing_team_reset"
PENALTY_PIPS = "penalty_pips"
DOUBLE_BLANK_50 = "double_blank_50"
FEWEST_PIPS = "fewest_pips"
NOBODY_WINS = "nobody_wins"
NEXT_LEADER = "next_leader"
MATCH_WON = "match_won"
TARGET_REACHED = "target_reached"
LOWEST_TOTAL = "lowest_total"
HIGHEST_SCORE = "highest_score"
WA = "wa"
WA_TIE_HAND_WINS = "wa_tie_hand_wins"
WA_SHARED = "wa_shared"
KOCHON = "kochon"
FINISHED_BY_HOST = "finished_by_host"

CODES = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str)
)
"""Every step code an explanation may hold."""

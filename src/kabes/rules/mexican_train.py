"""``mexican-train`` (seeds 001, 004): double-twelve, 2 to 8 players, 13 rounds.

Deal 15 tiles each up to 4 players, 12 for 5 or 6, 10 for 7 or 8; the rest is the stock.
Round r starts from the double of 13 - r (12-12 first, 0-0 last). Every player scores the
tiles left in their hand as penalty points (0-0 counts 50 with ``double_blank_50``); after 13
rounds the lowest total wins. The play itself is in ``kabes.trains``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.options import Options, OptionSpec, flag
from kabes.results import Ending, HandEnd
from kabes.rules.base import MatchState, Rules, Scored, add
from kabes.tiles import Tile
from kabes.trains import TrainHand

ROUNDS = 13
DOUBLE_BLANK = Tile.of(0, 0)
DOUBLE_BLANK_PENALTY = 50


@dataclass(frozen=True, slots=True)
class MexicanTrainOptions(Options):
    """Mexican Train's own options: two house rules, off by default."""

    mexican_train: bool = False
    """A public train anybody may play on."""
    double_blank_50: bool = False
    """The 0-0 left in hand counts 50."""


class MexicanTrain(Rules):
    """Mexican Train with a double-twelve set."""

    id = "mexican-train"
    top = 12
    seat_counts = (2, 3, 4, 5, 6, 7, 8)
    default_players = 4
    title = "Mexican Train"
    board = "trains"
    fixed_hands = ROUNDS
    options_class = MexicanTrainOptions
    colored_tiles = True
    stock_always_shown = True

    def penalties(self, players: int) -> bool:
        """Scores are the pips left in hand: penalties."""
        return True

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """Two house rules, off by default: a public train, and 0-0 counting 50."""
        return {"mexican_train": flag("mexican_train"), "double_blank_50": flag("double_blank_50")}

    def hand_size(self, players: int) -> int:
        """15 each up to 4 players, 12 for 5 or 6, 10 for 7 or 8."""
        return 15 if players <= 4 else 12 if players <= 6 else 10

    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> TrainHand:
        """Round r is played from the double of 13 - r."""
        number = ROUNDS - 1 - state.hands_played
        public = state.options_as(MexicanTrainOptions).mexican_train
        return TrainHand(deal, stock, Tile.of(number, number), public)

    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Everyone's penalty is what is left in their hand; the winner is who went out."""
        points = [self._penalty(state, hand) for hand in end.hands]
        winner = end.seat if end.ending is Ending.DOMINO else None
        return Scored(winner, tuple(points), add(state.scores, points))

    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> None:
        """Nobody: the next round's engine double picks its own leader."""
        return None

    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """After 13 rounds, the lowest total (equal totals share the win)."""
        if state.hands_played < ROUNDS:
            return None
        return self.finish_winners(state)

    def finish_winners(self, state: MatchState) -> tuple[int, ...]:
        """Penalties: the lowest total wins."""
        best = min(state.scores)
        return tuple(s for s, score in enumerate(state.scores) if score == best)

    def ending_steps(self, state: MatchState, end: HandEnd, last: Tile | None) -> list[Step]:
        """Who went out, or a round blocked: every player in turn passed, the stock empty
        (``seat`` is the last to pass)."""
        if end.ending is Ending.BLOCKED:
            return [step(ex.ROUND_BLOCKED, seat=end.seat)]
        return [step(ex.WENT_OUT, seat=end.seat, party=end.seat, tile=last)]

    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """A blocked round: the fewest pips, and nobody wins it; then every seat's penalty,
        the pips left (0-0 as 50 with ``double_blank_50``)."""
        steps: list[Step] = []
        if end.ending is Ending.BLOCKED:
            low = min(counts)
            steps.append(step(ex.FEWEST_PIPS, seats=[s for s, c in enumerate(counts)
                                                     if c == low], pips=low))
            steps.append(step(ex.NOBODY_WINS))
        blank = state.options_as(MexicanTrainOptions).double_blank_50
        for seat, hand in enumerate(end.hands):
            if blank and DOUBLE_BLANK in hand:
                steps.append(step(ex.DOUBLE_BLANK_50, seat=seat, points=DOUBLE_BLANK_PENALTY))
            steps.append(step(ex.PENALTY_PIPS, seat=seat, pips=counts[seat],
                              points=scored.points[seat]))
        return steps

    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """Never called: the next round's engine double picks its own leader."""
        return []

    def explain(
        self,
        state: MatchState,
        end: HandEnd,
        scored: Scored,
        next_leader: int | None,
        last: Tile | None,
    ) -> list[Step]:
        """As every variant, then the next round's engine (the match goes on): whoever
        holds that double sets it and leads."""
        steps = super().explain(state, end, scored, next_leader, last)
        number = ROUNDS - 2 - state.hands_played
        if number >= 0:
            steps.append(step(ex.NEXT_LEADER, seat=None, rule="engine_double",
                              double=Tile.of(number, number)))
        return steps

    def winner_steps(
        self, state: MatchState, winners: tuple[int, ...], finished: bool
    ) -> list[Step]:
        """After 13 rounds the lowest total wins (equal totals share the win)."""
        steps = [step(ex.FINISHED_BY_HOST)] if finished else []
        steps.append(step(ex.LOWEST_TOTAL, total=min(state.scores), parties=winners))
        steps.append(step(ex.MATCH_WON, winners=winners))
        return steps

    @staticmethod
    def _penalty(state: MatchState, hand: tuple[Tile, ...]) -> int:
        blank = DOUBLE_BLANK_PENALTY if state.options_as(MexicanTrainOptions).double_blank_50 else 0
        return sum(blank if t is DOUBLE_BLANK and blank else t.value for t in hand)

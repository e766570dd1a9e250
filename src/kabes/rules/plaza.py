"""``plaza`` and ``plaza-partners`` (seed 002): La Plaza rules, as in the FID rule book.

Head to head: 7 tiles each and 14 in the stock; a player with nothing that fits draws until a
tile fits ("boude", the pass, only with an empty stock). The first hand's leader is drawn for.
With partners: 4 players, no stock, and the 6-6 holder must lead the 6-6 in the first hand.
Domino scores the pips left (all hands, or only the losers' with ``score_losers_only``), plus
the capicú bonus; a block goes to the lower count, and scores all pips left (or the blocker's
side with ``blocker_wins_block``); equal counts score nothing. The winner of a hand, or the
player who blocked it, leads the next. First side to the target wins; kochon if the other
side is still at zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.line_hand import LineHand
from kabes.options import Options, OptionSpec, flag
from kabes.results import Ending, HandEnd
from kabes.rules.base import MatchState, Rules, Scored, add, holder, party_counts, reached
from kabes.tiles import Tile, full_set

TARGETS = (50, 100, 150, 200, 500)
CAPICU_BONUSES = (0, 25, 30)
DOUBLE_SIX = Tile.of(6, 6)


@dataclass(frozen=True, slots=True)
class PlazaOptions(Options):
    """La Plaza's own options: the capicú bonus and two house rules for scoring."""

    capicu_bonus: int = 0
    score_losers_only: bool = False
    blocker_wins_block: bool = False


class Plaza(Rules):
    """La Plaza, head to head (``plaza``) or with partners (``plaza-partners``)."""

    options_class = PlazaOptions
    counts_by_party = True
    last_tile_leads = True

    def __init__(self, partners: bool) -> None:
        self.id = "plaza-partners" if partners else "plaza"
        self.title = "La Plaza with partners" if partners else "La Plaza"
        self.teams = partners
        self.seat_counts = (4,) if partners else (2,)
        self.default_players = self.seat_counts[0]

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """Target (Short 50, Classic 100, Long 200, or 150, 500), capicú bonus, two flags."""
        return {
            "target": OptionSpec("target", 100, TARGETS),
            "capicu_bonus": OptionSpec("capicu_bonus", 0, CAPICU_BONUSES),
            "score_losers_only": flag("score_losers_only"),
            "blocker_wins_block": flag("blocker_wins_block"),
        }

    def draws_for_lead(self, state: MatchState) -> bool:
        """Head to head, the first hand's leader is drawn for."""
        return not self.teams and state.hands_played == 0

    def draw_for_lead(self, rng: Random, players: int) -> tuple[int, tuple[Tile, ...]]:
        """Each turns up a tile; the larger value opens, then the larger high half."""
        tiles = full_set(self.top)
        rng.shuffle(tiles)
        turned = tuple(tiles[:players])
        best = max(range(players), key=lambda s: (turned[s].value, turned[s].high))
        return best, turned

    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> LineHand:
        """First hand: the drawn leader (head to head) or the 6-6, led by its holder."""
        if state.hands_played == 0:
            if self.teams:
                first = holder(deal, DOUBLE_SIX)
                assert first is not None  # no stock with partners: 6-6 is dealt
                return LineHand(deal, stock, first, forced_lead=DOUBLE_SIX)
            assert leader is not None
            return LineHand(deal, stock, leader)
        assert state.next_leader is not None
        return LineHand(deal, stock, state.next_leader)

    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Pips left to the winning side; see the module docstring for the options."""
        options = state.options_as(PlazaOptions)
        totals = party_counts(state, end.hands)
        winner: int | None
        if end.ending is Ending.DOMINO or options.blocker_wins_block:
            winner = state.party(end.seat)
        else:
            low = min(totals)
            lowest = [p for p, t in enumerate(totals) if t == low]
            winner = lowest[0] if len(lowest) == 1 else None
        points = [0] * state.parties
        if winner is not None:
            losers = sum(totals) - totals[winner]
            points[winner] = losers if options.score_losers_only else sum(totals)
            if end.capicu:
                points[winner] += options.capicu_bonus
        return Scored(winner, tuple(points), add(state.scores, points))

    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """Blocked: to the blocker's side (option), the lower count, or nobody on a tie;
        then the winner scores all pips left (or the losers' only), plus the capicú bonus."""
        options = state.options_as(PlazaOptions)
        totals = party_counts(state, end.hands)
        winner = scored.winner
        steps: list[Step] = []
        if end.ending is Ending.BLOCKED:
            if options.blocker_wins_block:
                steps.append(step(ex.BLOCKER_WINS_BLOCK, party=winner, seat=end.seat))
            elif winner is None:
                steps.append(step(ex.TIE_NOBODY_SCORES, total=totals[0], totals=totals))
                return steps
            else:
                steps.append(step(ex.LOWER_TOTAL_WINS, party=winner, totals=totals))
        assert winner is not None
        if options.score_losers_only:
            seats = [s for s in range(state.players) if state.party(s) != winner]
            rule = "losers_only"
        else:
            seats = list(range(state.players))
            rule = "all_hands"
        pips = sum(counts[s] for s in seats)
        steps.append(step(ex.SCORES_PIPS, party=winner, seats=seats, pips=pips, rule=rule))
        if end.capicu and options.capicu_bonus:
            steps.append(step(ex.CAPICU_BONUS, party=winner, bonus=options.capicu_bonus))
        return steps

    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """Who went out, or who played the blocking tile, leads, whoever won the hand."""
        rule = "went_out" if end.ending is Ending.DOMINO else "last_tile"
        return [step(ex.NEXT_LEADER, seat=leader, rule=rule)]

    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> int:
        """The player who went out, or who played the blocking tile, whoever won it."""
        return end.seat

    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """The first side to reach the target."""
        assert state.options.target is not None
        return reached(state, state.options.target)

    def kochon(self, state: MatchState, winners: tuple[int, ...]) -> bool:
        """The match won while every other side is still at zero."""
        return all(s == 0 for p, s in enumerate(state.scores) if p not in winners)

"""``partnership`` (seed 000): the online partnership table, 4 people in two teams.

All 28 tiles are dealt, nobody draws. The 6-6 holder leads the first hand with any tile, then
the lead passes to the next seat every hand. Domino: the team that went out scores the two
opponents' hands. Blocked: the team with the lower total scores the other's total; an exact
tie goes to the team that played the last tile. First team at or over the target wins.
"""

from __future__ import annotations

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.line_hand import LineHand
from kabes.options import OptionSpec
from kabes.results import Ending, HandEnd
from kabes.rules.base import MatchState, Rules, Scored, add, holder, party_counts, reached
from kabes.tiles import Tile

TARGETS = tuple(range(50, 501, 50))


class Partnership(Rules):
    """The online partnership table."""

    id = "partnership"
    seat_counts = (4,)
    default_players = 4
    teams = True
    counts_by_party = True
    title = "Partnership"
    people_only = True
    crosswise_doubles = False

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """Only the target, set by the host: 50 to 500 in steps of 50, 100 by default."""
        return {"target": OptionSpec("target", 100, TARGETS)}

    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> LineHand:
        """First hand: the 6-6 holder leads with any tile; then the next seat leads."""
        if state.hands_played == 0:
            first = holder(deal, Tile.of(6, 6))
            assert first is not None  # all 28 tiles are dealt
            return LineHand(deal, stock, first)
        assert state.next_leader is not None
        return LineHand(deal, stock, state.next_leader)

    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Domino: the opponents' two hands; blocked: lower total takes the other's total."""
        totals = party_counts(state, end.hands)
        if end.ending is Ending.DOMINO:
            winner = state.party(end.seat)
        elif totals[0] != totals[1]:
            winner = 0 if totals[0] < totals[1] else 1
        else:
            winner = state.party(end.seat)
        points = [0, 0]
        points[winner] = totals[1 - winner]
        return Scored(winner, tuple(points), add(state.scores, points))

    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """Blocked: the lower total won, or the tie went to the last tile's team; then the
        winning team scores the two opponents' hands."""
        assert scored.winner is not None  # every partnership hand goes to one team
        winner = scored.winner
        totals = party_counts(state, end.hands)
        steps: list[Step] = []
        if end.ending is Ending.BLOCKED:
            if totals[0] != totals[1]:
                steps.append(step(ex.LOWER_TOTAL_WINS, party=winner, totals=totals))
            else:
                steps.append(
                    step(ex.TIE_TO_LAST_PLAYER, party=winner, seat=end.seat, total=totals[0])
                )
        losers = [s for s in range(state.players) if state.party(s) != winner]
        steps.append(step(ex.SCORES_PIPS, party=winner, seats=losers, pips=totals[1 - winner]))
        return steps

    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """The lead passes to the seat after this hand's leader."""
        return [step(ex.NEXT_LEADER, seat=leader, rule="rotation", previous=end.leader)]

    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> int:
        """The seat after the previous leader, whatever the result."""
        return (end.leader + 1) % state.players

    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """The team at or over the target at the end of a hand."""
        assert state.options.target is not None
        return reached(state, state.options.target)

"""``haitian`` and ``haitian-partners`` (seed 003): TONBE, 2 KABÈS, BLÒK, and the Wa.

7 tiles each, so the stock holds 14 (2 players), 7 (3) or none (4); who cannot play draws
until a tile fits, else passes. The first hand is led with the highest double held (else the
heaviest tile, the higher number first on equal value); later the winner leads, and after a
partnership BLÒK the winning team's partner with the lower count.

Endings: TONBE (last tile fits one end), 2 KABÈS (last tile, a non-double, fits both ends
showing different numbers), BLÒK (nobody can play, no stock: the lowest hand wins).
Scores: 2 players, the winner +10 or +15; 3-4 players, a penalty to the highest count only
(+2, +4, +8) and the lowest total at the end is Wa; partners, the winning team +1 or +2 and
the losing team back to 0.
"""

from __future__ import annotations

from typing import Any

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.line_hand import LineHand
from kabes.options import Options, OptionSpec, flag
from kabes.results import Ending, HandEnd
from kabes.rules.base import MatchState, Rules, Scored, add, after, reached
from kabes.tiles import Tile, count

TONBE, KABES, BLOK = "tonbe", "2-kabes", "blok"
WINNER_POINTS = {TONBE: 10, BLOK: 10, KABES: 15}
PENALTIES = {TONBE: 2, BLOK: 4, KABES: 8}
TEAM_POINTS = {TONBE: 1, BLOK: 1, KABES: 2}
MAX_HANDS = 100


class Haitian(Rules):
    """Haitian domino, each for themself (``haitian``) or in sosye (``haitian-partners``)."""

    open_ended_for_people = True

    def __init__(self, partners: bool) -> None:
        self.id = "haitian-partners" if partners else "haitian"
        self.title = "Haitian domino, sosye" if partners else "Haitian domino"
        self.teams = partners
        self.seat_counts = (4,) if partners else (2, 3, 4)
        self.default_players = 4 if partners else 2

    def penalties(self, players: int) -> bool:
        """With 3 or 4 players each for themself, scores are penalties."""
        return not self.teams and players > 2

    def wa(self, players: int) -> bool:
        """With 3 or 4 players each for themself, the lowest penalty total is Wa."""
        return self.penalties(players)

    def stake(self, players: int, options: Options) -> float:
        """With 3 or 4 players a hand costs at most 8 penalty points; else the target."""
        if self.penalties(players):
            return float(PENALTIES[KABES])
        return super().stake(players, options)

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """Online tables are open-ended; 3-4 players play ``hands`` hands (5 by default)."""
        specs = {"open_ended": flag("open_ended")}
        if self.teams:
            specs["target"] = OptionSpec("target", 4, (4,), " (partners play to 4 points)")
        elif players == 2:
            specs["target"] = OptionSpec("target", 100, (100,), " (2 players play to 100)")
        else:
            specs["hands"] = OptionSpec("hands", 5, tuple(range(1, MAX_HANDS + 1)))
        return specs

    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> LineHand:
        """First hand: the highest double held leads (else the heaviest tile); then the
        leader found at the end of the last hand, with any tile."""
        if state.hands_played == 0:
            seat, tile = max(
                ((s, t) for s, hand in enumerate(deal) for t in hand),
                key=lambda st: (st[1].is_double, st[1].value, st[1].high),
            )
            return LineHand(deal, stock, seat, forced_lead=tile)
        assert state.next_leader is not None
        return LineHand(deal, stock, state.next_leader)

    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Name the ending, find the winner, and score it for 2, 3-4 players or partners."""
        name = BLOK if end.ending is Ending.BLOCKED else KABES if end.capicu else TONBE
        seat = self._winning_seat(state, end)
        counts = [count(h) for h in end.hands]
        points = [0] * state.parties
        if self.teams:
            team = state.party(seat)
            points[team] = TEAM_POINTS[name]
            scores = list(add(state.scores, points))
            scores[1 - team] = 0
            return Scored(team, tuple(points), tuple(scores), name)
        if state.players == 2:
            points[seat] = WINNER_POINTS[name]
        else:
            worst = max(counts)
            loser = next(s for s in after(seat, state.players) if counts[s] == worst)
            points[loser] = PENALTIES[name]
        return Scored(seat, tuple(points), add(state.scores, points), name)

    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> int:
        """The winner; after a partnership BLÒK, the winning team's lower hand."""
        if self.teams and end.ending is Ending.BLOCKED:
            counts = [count(h) for h in end.hands]
            order = [end.seat, *after(end.seat, state.players)]
            team = [s for s in order if state.party(s) == scored.winner]
            return min(team, key=lambda s: counts[s])
        return self._winning_seat(state, end)

    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """2 players: first to 100; partners: first to 4; 3-4: after the hands, the Wa."""
        options = state.options
        if options.open_ended:
            return None
        if options.target is not None:
            return reached(state, options.target)
        assert options.hands is not None
        return self._wa(state) if state.hands_played >= options.hands else None

    def finish_winners(self, state: MatchState) -> tuple[int, ...]:
        """When the host finishes: the highest score wins, or with 3-4 players the Wa."""
        if self.teams or state.players == 2:
            return super().finish_winners(state)
        return self._wa(state)

    def _wa(self, state: MatchState) -> tuple[int, ...]:
        """Lowest penalty total; then more hands won; still equal, they are all Wa."""
        best = min(state.scores)
        low = [s for s in range(state.players) if state.scores[s] == best]
        most = max(state.hand_wins[s] for s in low)
        return tuple(s for s in low if state.hand_wins[s] == most)

    def _winning_seat(self, state: MatchState, end: HandEnd) -> int:
        """Who went out; after a BLÒK, the lowest hand (see RULES.md for the ties)."""
        if end.ending is Ending.DOMINO:
            return end.seat
        return self._block_winner(state, end)[0]

    def _block_winner(self, state: MatchState, end: HandEnd) -> tuple[int, str, list[int]]:
        """After a BLÒK: the winning seat, the rule that chose it (a step code), and the
        seats holding the lowest hand."""
        counts = [count(h) for h in end.hands]
        low = min(counts)
        lowest = [s for s in range(state.players) if counts[s] == low]
        if len(lowest) == 1:
            return lowest[0], ex.LOWEST_HAND_WINS, lowest
        if self.teams and len({state.party(s) for s in lowest}) == 2:
            return end.seat, ex.TIE_ACROSS_TEAMS_BLOCKER, lowest
        if end.seat in lowest:
            return end.seat, ex.TIE_BLOCKER_WINS, lowest
        seat = next(s for s in after(end.seat, state.players) if s in lowest)
        return seat, ex.TIE_FIRST_AFTER_BLOCKER, lowest

    # -- explanations -------------------------------------------------------------------------

    def ending_steps(self, state: MatchState, end: HandEnd, last: Tile | None) -> list[Step]:
        """The common ending, then its Haitian name: TONBE, 2 KABÈS or BLÒK."""
        name = BLOK if end.ending is Ending.BLOCKED else KABES if end.capicu else TONBE
        return [*super().ending_steps(state, end, last), step(ex.NAMED, name=name)]

    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """The BLÒK's winner and its tie rule; then the winner's points (2 players,
        partners, with the losing team back to 0) or the penalty to the highest count."""
        assert scored.name is not None and scored.winner is not None
        name = scored.name
        steps: list[Step] = []
        seat = self._winning_seat(state, end)
        if end.ending is Ending.BLOCKED:
            seat, rule, lowest = self._block_winner(state, end)
            # ``count`` is the lowest hand's, which the blocker's team need not hold.
            facts: dict[str, Any] = {
                "seat": seat, "party": state.party(seat), "count": min(counts)
            }
            if rule != ex.LOWEST_HAND_WINS:
                facts["seats"] = lowest
                facts["blocker"] = end.seat
            steps.append(step(rule, **facts))
        if self.teams:
            team = scored.winner
            points = TEAM_POINTS[name]
            steps.append(step(ex.WINNER_POINTS, party=team, points=points, name=name))
            steps.append(step(ex.LOSING_TEAM_RESET, party=1 - team,
                              score_before=state.scores[1 - team]))
        elif state.players == 2:
            steps.append(step(ex.WINNER_POINTS, party=seat, points=WINNER_POINTS[name],
                              name=name))
        else:
            worst = max(counts)
            holders = [s for s in after(seat, state.players) if counts[s] == worst]
            loser = holders[0]
            steps.append(step(ex.PENALTY_TO_HIGHEST, seat=loser, count=worst,
                              points=PENALTIES[name], name=name))
            if len(holders) > 1:
                steps.append(step(ex.PENALTY_TIE_FIRST_AFTER_WINNER, seat=loser, seats=holders,
                                  winner=seat, count=worst))
        return steps

    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """The winner leads; after a partnership BLÒK, the winning team's lower hand (on
        equal hands, the first of the two in play order from the blocker)."""
        if self.teams and end.ending is Ending.BLOCKED:
            partners = [s for s in range(state.players) if state.party(s) == scored.winner]
            tie = counts[partners[0]] == counts[partners[1]]
            return [step(ex.NEXT_LEADER, seat=leader, rule="team_lower_hand", seats=partners,
                         counts=[counts[s] for s in partners], tie=tie, blocker=end.seat)]
        return [step(ex.NEXT_LEADER, seat=leader, rule="winner")]

    def winner_steps(
        self, state: MatchState, winners: tuple[int, ...], finished: bool
    ) -> list[Step]:
        """With 3 or 4 players the lowest penalty total is Wa; on equal totals, more hands
        won; still equal, they are all Wa. Otherwise as every variant (target, best score)."""
        if not self.penalties(state.players):
            return super().winner_steps(state, winners, finished)
        steps = [step(ex.FINISHED_BY_HOST)] if finished else []
        best = min(state.scores)
        low = [s for s in range(state.players) if state.scores[s] == best]
        steps.append(step(ex.LOWEST_TOTAL, total=best, parties=low))
        if len(low) > 1:
            wins = [state.hand_wins[s] for s in low]
            steps.append(step(ex.WA_TIE_HAND_WINS, seats=low, hand_wins=wins))
            if len(winners) > 1:
                steps.append(step(ex.WA_SHARED, seats=winners))
        steps.append(step(ex.WA, seats=winners, total=best))
        steps.append(step(ex.MATCH_WON, winners=winners))
        return steps

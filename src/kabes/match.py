"""A match: hands dealt one after another, scored, until the variant says it is over.

The match deals from the ``random.Random`` it is given (or takes deals from a record), keeps
the log a game record is made of, and returns the events of every change. It is pure: no
clock, no I/O; same deals and same moves give the same match, always.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from kabes.errors import BadOptions, BadRecord, MatchOver, NotYourTurn
from kabes.events import Dealt, Event, HandEnded, HandStarted, LeadDrawn, MatchEnded
from kabes.explain import Explanation
from kabes.hand import Hand
from kabes.moves import Move
from kabes.options import changed_options, check_options
from kabes.results import HandResult, MatchResult
from kabes.rules import MatchState, Rules, get_rules
from kabes.tiles import Tile, count, full_set


@dataclass(slots=True)
class HandLog:
    """What a record keeps of one hand: the deal, the stock, a drawn leader, the moves."""

    deal: list[list[Tile]]
    stock: list[Tile]
    leader: int | None
    moves: list[str]
    result: HandResult | None = None
    explanation: Explanation | None = None
    """How the result follows from the hand's end (kabes.explain); with the match's
    winners when this hand ended the match."""


class Match:
    """One match of a variant, from the first deal to its result."""

    def __init__(
        self,
        variant: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        rng: Random | None = None,
    ) -> None:
        self.rules: Rules = get_rules(variant)
        rules = self.rules
        self.players = rules.default_players if players is None else players
        if self.players not in rules.seat_counts:
            allowed = ", ".join(map(str, rules.seat_counts))
            raise BadOptions(f"{variant} is played by {allowed} players, not {self.players}")
        self.specs = rules.option_specs(self.players)
        self.options = check_options(variant, self.specs, options, rules.options_class)
        self.rng = rng if rng is not None else Random()
        parties = 2 if rules.teams else self.players
        self.state = MatchState(
            self.players, rules.teams, self.options, [0] * parties, hand_wins=[0] * parties
        )
        self.hand: Hand | None = None
        self.log: list[HandLog] = []
        self.result: MatchResult | None = None
        self.explanation: Explanation = ()
        """Why the match was won by its winners (kabes.explain), once it is over."""

    @property
    def variant(self) -> str:
        """The variant id."""
        return self.rules.id

    @property
    def over(self) -> bool:
        """Whether the match has ended (by its rules, or finished by the host)."""
        return self.result is not None

    @property
    def turn(self) -> int | None:
        """The seat to move, or None between hands and after the match."""
        return None if self.hand is None else self.hand.turn

    @property
    def hand_in_progress(self) -> bool:
        """Whether a hand has been dealt and not yet ended."""
        return self.hand is not None and self.hand.end is None

    @property
    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the variant's defaults."""
        return changed_options(self.options, self.specs)

    def deal_hand(self) -> list[Event]:
        """Deal the next hand from the match's random source (drawing for the lead first
        where the rules say so)."""
        events: list[Event] = []
        leader = None
        if self.rules.draws_for_lead(self.state):
            leader, turned = self.rules.draw_for_lead(self.rng, self.players)
            events.append(LeadDrawn(turned, leader))
        deal, stock = self.rules.deal(self.rng, self.players)
        return events + self.start_hand(deal, stock, leader)

    def start_hand(
        self, deal: list[list[Tile]], stock: list[Tile], leader: int | None = None
    ) -> list[Event]:
        """Start the next hand with this deal and stock; ``leader`` only where chance picks
        it. BadRecord if the deal does not fit the variant."""
        if self.result is not None:
            raise MatchOver("the match is over: no more hands")
        if self.hand_in_progress:
            raise MatchOver("a hand is still being played")
        self._check_deal(deal, stock)
        by_chance = self.rules.draws_for_lead(self.state)
        if by_chance and leader is None:
            raise BadRecord("this hand's leader is drawn for: the record must give it")
        if not by_chance and leader is not None:
            raise BadRecord("this hand's leader follows from the rules: give no leader")
        if leader is not None and not 0 <= leader < self.players:
            raise BadRecord(f"leader {leader} is not a seat (0 to {self.players - 1})")
        hand = self.rules.new_hand(self.state, deal, stock, leader)
        self.hand = hand
        self.log.append(HandLog([list(h) for h in deal], list(stock), leader, hand.moves))
        sizes = tuple(len(h) for h in deal)
        events: list[Event] = [HandStarted(self.state.hands_played + 1, sizes, len(stock))]
        events += [Dealt(seat, tuple(sorted(h))) for seat, h in enumerate(deal)]
        return events + hand.start()

    def apply(self, seat: int | None, move: Move) -> list[Event]:
        """Play ``move`` for ``seat`` (None: whoever is to move, as a replay does). Refused
        with an error, and nothing changed, if it is not that seat's turn or not legal."""
        hand = self.hand
        if self.result is not None:
            raise MatchOver("the match is over")
        if hand is None or hand.end is not None:
            raise MatchOver("no hand is being played: deal the next one", "no_hand")
        if seat is not None and seat != hand.turn:
            raise NotYourTurn(f"it is seat {hand.turn}'s turn, not seat {seat}'s",
                              facts={"seat": seat, "turn": hand.turn})
        events = hand.apply(move)
        if hand.end is not None:
            events += self._close_hand()
        return events

    def finish(self) -> list[Event]:
        """End an open-ended match now (the host's "Finish match"); a hand in progress does
        not count. Decided as at a normal end."""
        if self.result is not None:
            raise MatchOver("the match is already over")
        if not self.options.open_ended:
            raise BadOptions(f"only an open-ended table can be finished early ({self.variant})")
        winners = self.rules.finish_winners(self.state)
        return self._conclude(winners, finished=True)

    def abandon(self) -> list[Event]:
        """End the match because no person is left at its table (a server's abandoned
        table, PROTOCOL.md "Safe for strangers"): the hands finished so far stand, the hand
        in progress is dropped as if never dealt, and nobody wins (``finished`` false,
        ``abandoned`` true)."""
        if self.result is not None:
            raise MatchOver("the match is already over")
        if self.hand_in_progress:
            self.log.pop()
            self.hand = None
        self.result = MatchResult(False, (), tuple(self.state.scores), False, abandoned=True)
        return [MatchEnded(self.result)]

    def current_result(self) -> MatchResult:
        """The match result so far: final once over, else unfinished with the scores."""
        if self.result is not None:
            return self.result
        return MatchResult(False, (), tuple(self.state.scores), False)

    def _close_hand(self) -> list[Event]:
        hand = self.hand
        assert hand is not None and hand.end is not None
        end = hand.end
        state = self.state
        before = replace(state, scores=list(state.scores), hand_wins=list(state.hand_wins))
        scored = self.rules.score(state, end)
        state.scores = list(scored.scores)
        state.hands_played += 1
        if scored.winner is not None:
            state.hand_wins[scored.winner] += 1
        winners = self.rules.winners(state)
        next_leader = None if winners is not None else self.rules.next_leader(state, end, scored)
        state.next_leader = next_leader
        result = HandResult(
            end.ending,
            scored.name,
            end.capicu,
            scored.winner,
            scored.points,
            scored.scores,
            end.leader,
            next_leader,
            tuple(count(h) for h in end.hands),
        )
        last = hand.played[-1][1].tile if hand.played else None
        steps = self.rules.explain(before, end, scored, next_leader, last)
        log = self.log[-1]
        log.result = result
        events: list[Event] = [HandEnded(result, end.hands)]
        if winners is not None:
            events += self._conclude(winners)
            steps += self.explanation
        log.explanation = tuple(steps)
        return events

    def _conclude(self, winners: tuple[int, ...], finished: bool = False) -> list[Event]:
        self.explanation = tuple(self.rules.winner_steps(self.state, winners, finished))
        kochon = self.rules.kochon(self.state, winners)
        self.result = MatchResult(True, winners, tuple(self.state.scores), kochon)
        return [MatchEnded(self.result)]

    def _check_deal(self, deal: list[list[Tile]], stock: list[Tile]) -> None:
        rules = self.rules
        if len(deal) != self.players:
            raise BadRecord(f"the deal has {len(deal)} hands for {self.players} players")
        size = rules.hand_size(self.players)
        for seat, hand in enumerate(deal):
            if len(hand) != size:
                raise BadRecord(f"seat {seat} is dealt {len(hand)} tiles, not {size}")
        every = full_set(rules.top)
        seen = [t for h in deal for t in h] + list(stock)
        extra = [t for t in seen if t not in every]
        if extra:
            raise BadRecord(f"{extra[0]} is not in the double-{rules.top} set")
        missing = set(every) - set(seen)
        if missing or len(seen) != len(every):
            twice = sorted(t for t in set(seen) if seen.count(t) > 1)
            what = f"{twice[0]} appears twice" if twice else f"{min(missing)} is missing"
            raise BadRecord(f"deal and stock must hold every tile once: {what}")

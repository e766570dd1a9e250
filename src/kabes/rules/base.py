"""What every variant provides, and the match facts its rules read.

A variant (one module per rule family under ``kabes.rules``) says who may sit, which options
it takes, how a hand starts (who leads, with which tile), how a finished hand is scored, who
leads the next one, and when the match is over. The mechanics of play live in
``kabes.line_hand`` and ``kabes.trains``, what the levels and the terminal make of their
boards in ``kabes.ai.boards`` and ``kabes.cli.boards``; the bookkeeping of a match in
``kabes.match``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from random import Random
from typing import TypeVar

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.hand import Hand
from kabes.options import Options, OptionSpec
from kabes.results import Ending, HandEnd
from kabes.rules.traits import Traits
from kabes.tiles import Tile, count, full_set

OptionsT = TypeVar("OptionsT", bound=Options)


@dataclass(slots=True)
class MatchState:
    """The facts about a match that rules need: scores, hands played, who leads next."""

    players: int
    teams: bool
    options: Options
    scores: list[int]
    hands_played: int = 0
    hand_wins: list[int] = field(default_factory=list)
    """Hands won per party, for the Wa tie-break."""
    next_leader: int | None = None

    def party(self, seat: int) -> int:
        """The team (seats 0 and 2 are team 0) or, without teams, the seat itself."""
        return seat % 2 if self.teams else seat

    @property
    def parties(self) -> int:
        """How many sides score: 2 teams, or one per seat."""
        return 2 if self.teams else self.players

    def options_as(self, kind: type[OptionsT]) -> OptionsT:
        """The match's options as ``kind``, the variant's own options class
        (``Rules.options_class``), which its table built them as."""
        options = self.options
        assert isinstance(options, kind)
        return options


@dataclass(frozen=True, slots=True)
class Scored:
    """A hand scored by its variant: the winner (party), points won, and the new scores."""

    winner: int | None
    points: tuple[int, ...]
    scores: tuple[int, ...]
    name: str | None = None


class Rules(ABC):
    """One variant of RULES.md; subclasses are small enough to read against their section."""

    id: str
    top = 6
    """The highest number in the set: 6 (double-six) or 12 (double-twelve)."""
    seat_counts: tuple[int, ...]
    default_players: int
    teams = False
    title: str
    """The variant's name for people."""
    people_only = False
    """Whether only people may sit (no computer player ever takes a seat)."""
    board = "line"
    """The kind of board the variant is played on (``"line"`` or ``"trains"``), the key of
    what the levels make of it (``kabes.ai.boards.TACTICS``) and of its drawing in the
    terminal (``kabes.cli.boards.BOARDS``); its hands are made by :meth:`new_hand`."""
    fixed_hands: int | None = None
    """How many hands (rounds) every match has, where the variant fixes it."""
    open_ended_for_people = False
    """Whether a server table with no computer seat is open-ended unless its host says
    otherwise (Haitian online tables, PROTOCOL.md)."""
    counts_by_party = False
    """Whether a hand's pips are scored per side only (the team's two hands added), never
    seat by seat: then the expert's search values ends alike per side once
    (``kabes.ai.fastline.summary``)."""
    options_class: type[Options] = Options
    """The class a table's options are built as: the shared :class:`Options`, or a subclass
    in the variant's module holding the options only it has; it holds every option
    :meth:`option_specs` declares."""

    # -- Traits the computer players read (issue 17, step 3): how the rule plays, never a ----
    # -- variant id. The levels (kabes.ai) ask these and ``board``, ``teams``, ``people_only``.
    last_tile_leads = False
    """Whether the seat that laid a hand's last tile (going out, or laying the tile that
    blocked it) leads the next hand, whoever won it (La Plaza): the next lead is then at
    stake in every hand, apart from its points. :meth:`next_leader` is that seat."""
    # -- end of the computer players' traits -------------------------------------------------

    def penalties(self, players: int) -> bool:
        """Whether scores are penalties (lower is better) with this many players."""
        return False

    def stake(self, players: int, options: Options) -> float:
        """A typical size of the points at play, for weighing a hand against the match:
        the target, or 100 where there is none."""
        return float(options.target or 100)

    @abstractmethod
    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """The options this variant accepts with ``players`` seats."""

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each seat."""
        return 7

    def draws_for_lead(self, state: MatchState) -> bool:
        """Whether chance picks this hand's leader (plaza's draw for the lead)."""
        return False

    def draw_for_lead(self, rng: Random, players: int) -> tuple[int, tuple[Tile, ...]]:
        """Turn up a tile per seat and say who leads; only for variants that draw for it."""
        raise NotImplementedError(f"{self.id} does not draw for the lead")

    @abstractmethod
    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> Hand:
        """The hand to play with this deal; ``leader`` only where chance picked it."""

    @abstractmethod
    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Score a finished hand."""

    @abstractmethod
    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> int | None:
        """Who leads the next hand (None where the variant finds it by other means)."""

    @abstractmethod
    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """The winning parties if the match is over after the hands played, else None."""

    def finish_winners(self, state: MatchState) -> tuple[int, ...]:
        """The winners when the host finishes an open-ended match: the highest score wins."""
        best = max(state.scores)
        return tuple(p for p, s in enumerate(state.scores) if s == best)

    def kochon(self, state: MatchState, winners: tuple[int, ...]) -> bool:
        """Whether the match was won while the other side was still at zero."""
        return False

    # -- explanations (kabes.explain): the same rules as above, told as steps -----------------

    def explain(
        self,
        state: MatchState,
        end: HandEnd,
        scored: Scored,
        next_leader: int | None,
        last: Tile | None,
    ) -> list[Step]:
        """How a hand's points follow from its end, as steps: the ending, the counts, the
        variant's scoring, who leads next. ``state`` is the match as it was before this hand
        was scored; ``last`` the last tile played (None if no tile was)."""
        counts = [count(h) for h in end.hands]
        steps = self.ending_steps(state, end, last)
        steps.append(step(ex.COUNTS, counts=counts, totals=party_counts(state, end.hands)))
        steps += self.scoring_steps(state, end, scored, counts)
        if next_leader is not None:
            steps += self.leader_steps(state, end, scored, next_leader, counts)
        return steps

    def ending_steps(self, state: MatchState, end: HandEnd, last: Tile | None) -> list[Step]:
        """Who went out (with which tile, and whether it was a capicú), or who blocked."""
        party = state.party(end.seat)
        if end.ending is Ending.BLOCKED:
            return [step(ex.BLOCKED, seat=end.seat, party=party)]
        steps = [step(ex.WENT_OUT, seat=end.seat, party=party, tile=last)]
        if end.capicu:
            steps.append(step(ex.CAPICU, seat=end.seat, tile=last))
        return steps

    @abstractmethod
    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """Who won the hand and why, which hands were counted for whom, bonuses, penalties."""

    @abstractmethod
    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """Who leads the next hand, and by which rule."""

    def winner_steps(
        self, state: MatchState, winners: tuple[int, ...], finished: bool
    ) -> list[Step]:
        """Why the match is won by ``winners``: the target reached, or (``finished`` by the
        host, or after its last hand) the best score; kochon where it applies."""
        steps: list[Step] = []
        if finished:
            steps.append(step(ex.FINISHED_BY_HOST))
        target = state.options.target
        if target is not None and not finished:
            party = winners[0]
            steps.append(
                step(ex.TARGET_REACHED, party=party, score=state.scores[party], target=target)
            )
        elif self.penalties(state.players):
            steps.append(step(ex.LOWEST_TOTAL, total=min(state.scores), parties=winners))
        else:
            steps.append(step(ex.HIGHEST_SCORE, score=max(state.scores), parties=winners))
        steps.append(step(ex.MATCH_WON, winners=winners))
        if self.kochon(state, winners):
            losers = [p for p in range(state.parties) if p not in winners]
            steps.append(step(ex.KOCHON, winners=winners, at_zero=losers))
        return steps

    def deal(self, rng: Random, players: int) -> tuple[list[list[Tile]], list[Tile]]:
        """Shuffle the set and deal; what is left is the stock, in draw order."""
        tiles = full_set(self.top)
        rng.shuffle(tiles)
        size = self.hand_size(players)
        deal = [tiles[i * size : (i + 1) * size] for i in range(players)]
        return deal, tiles[players * size :]

    # -- traits for clients (kabes.rules.traits): what GET /api/variants and the VIEW tell a
    # client of the variant, so that no client names a variant. The other traits come from
    # the attributes above (title, board, top, teams, people_only, fixed_hands, penalties). --

    crosswise_doubles = True
    """Whether doubles are laid crosswise on a line (the partnership table lays them in line)."""
    colored_tiles = False
    """Whether clients draw tiles with a colour per number (a double-twelve set's pips)."""
    stock_always_shown = False
    """Whether clients show the stock's count even when it is empty and nobody drew."""

    def wa(self, players: int) -> bool:
        """Whether the match with this many players crowns a Wa (the lowest penalty total)."""
        return False

    def traits(self, players: int) -> Traits:
        """Everything a client must know to show this variant with ``players`` seats."""
        return Traits(
            title=self.title,
            board=self.board,
            top=self.top,
            teams=self.teams,
            people_only=self.people_only,
            penalties=self.penalties(players),
            wa=self.wa(players),
            rounds=self.fixed_hands,
            crosswise_doubles=self.crosswise_doubles,
            colored_tiles=self.colored_tiles,
            stock_always_shown=self.stock_always_shown,
        )

    # -- end of the traits for clients ---------------------------------------------------------


def party_counts(state: MatchState, hands: tuple[tuple[Tile, ...], ...]) -> list[int]:
    """Pips left per party: each team's two hands added, or each seat's hand."""
    totals = [0] * state.parties
    for seat, hand in enumerate(hands):
        totals[state.party(seat)] += count(hand)
    return totals


def holder(deal: list[list[Tile]], tile: Tile) -> int | None:
    """The seat dealt ``tile``, or None if it lies in the stock."""
    for seat, hand in enumerate(deal):
        if tile in hand:
            return seat
    return None


def after(seat: int, players: int) -> list[int]:
    """The other seats in play order, starting with the one after ``seat``."""
    return [(seat + k) % players for k in range(1, players)]


def add(scores: list[int], points: list[int]) -> tuple[int, ...]:
    """Scores plus points, party by party."""
    return tuple(s + p for s, p in zip(scores, points, strict=True))


def reached(state: MatchState, target: int) -> tuple[int, ...] | None:
    """The party at or over ``target`` (at most one scores per hand), or None."""
    over = tuple(p for p, s in enumerate(state.scores) if s >= target)
    return over or None

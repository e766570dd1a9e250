"""The expert: it searches the hidden hands (information-set Monte Carlo).

For every move it could make, it deals the hidden tiles again many times, consistently with
everything its seat has seen (the tiles out, the numbers each seat lacks, the counts); at
tables where only people sit it draws those worlds as likely as they make the plays the
other seats chose (``kabes.ai.reading``). It plays each world out to the end of the hand
with quick sensible players, or once few tiles are left searches every line of play to the
best end for each side (``kabes.ai.endgame``); each kind of board deals and plays its own
worlds (``kabes.ai.boards``). It scores the hand by the variant's own rules and values the
result for the match: points against the target, and a won or lost match above all. It
keeps searching until its time budget is spent and plays the move with the best average.
All moves are tried in the same worlds, so luck cancels between them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from multiprocessing import get_context
from random import Random

from kabes.ai.boards import Playout, tactics_for
from kabes.ai.knowledge import Hint, unseen
from kabes.ai.level import Level
from kabes.ai.skilled import Skilled
from kabes.moves import Play
from kabes.results import HandEnd
from kabes.rules import MatchState, Rules, get_rules
from kabes.views import View

WIN = 3.0
"""What winning (or losing) the match is worth, against points scaled to the target."""
LEAD = 0.15
"""What leading the next hand is worth, as a share of the stake, each for themself where the
seat that laid a hand's last tile leads the next (``Rules.last_tile_leads``: in plaza whoever
went out or played the blocking tile). The lead is a tempo: the leader plays first and picks
the suit. Measured in plaza against heavy-tile play at 50 ms a move: 75.0% of hands and 95.6%
of matches won at 0.15, against 73.7% and 91.2% without. With partners it was not measured,
so it is not counted there; where the lead passes round (partnership) or goes to the hand's
winner (haitian), it is no stake of its own."""
GREEDY = 0.75
"""How often a playout player plays its heaviest tile rather than a random one."""
MIN_WORLDS = 4
"""Worlds searched whatever the budget, so that a move is never chosen blind."""
CLOCK_ENV = "KABES_EXPERT_CLOCK"
"""Set to ``thread`` to count the budget in CPU time of the searching thread
(``time.thread_time``) instead of wall-clock time: for benchmarks on a shared machine, where
a wall-clock budget buys whatever CPU the neighbours leave, so strength figures would measure
the load. The server keeps wall-clock time (a player waits in seconds, not in CPU)."""
SAFETY = 0.97
OVERHEAD = 0.004
"""Seconds kept back from the budget for choosing, explaining and answering."""


class Expert(Level):
    """Searches sampled worlds within a time budget; see the module docstring."""

    id = "expert"

    def __init__(
        self,
        rng: Random,
        budget: float = 1.0,
        workers: int = 1,
        max_worlds: int | None = None,
    ) -> None:
        super().__init__(rng)
        self.budget = budget
        self.workers = max(1, workers)
        """Processes searching at once: 2 uses both cores of a small server for one move."""
        self.max_worlds = max_worlds
        """Stop after this many worlds, whatever the time left (repeatable searches)."""

    def decide(self, view: View, moves: list[Play]) -> Hint:
        """The move with the best average over the worlds searched, and how it did."""
        if len(moves) == 1:
            return Hint(moves[0], f"{moves[0].tile} is your only move")
        values, worlds = self.evaluate(view, moves)
        best = max(range(len(moves)), key=lambda i: values[i])
        move = moves[best]
        ranked = sorted(values, reverse=True)
        clearly = ", clearly" if ranked[0] - ranked[1] > 0.05 else ""
        why = Skilled(self.rng).hint(_only(view, move)).reason
        return Hint(move, f"{why} (best of {len(moves)} moves over {worlds} deals{clearly})")

    def evaluate(self, view: View, moves: list[Play]) -> tuple[list[float], int]:
        """Average value of each move over the worlds dealt within the budget, searched
        on ``workers`` processes at once."""
        seeds = [self.rng.getrandbits(64) for _ in range(self.workers)]
        limit = None if self.max_worlds is None else -(-self.max_worlds // self.workers)
        helpers = []
        if self.workers > 1:
            pool = _pool(self.workers - 1)
            helpers = [
                pool.submit(search, view, moves, seed, self.budget, limit) for seed in seeds[1:]
            ]
        totals, worlds = search(view, moves, seeds[0], self.budget, limit)
        for future in helpers:
            more, count = future.result()
            totals = [a + b for a, b in zip(totals, more, strict=True)]
            worlds += count
        return [t / worlds for t in totals], worlds


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(size: int) -> ProcessPoolExecutor:
    """A process pool kept for the life of this process (started once, reused per move)."""
    if size not in _POOLS:
        _POOLS[size] = ProcessPoolExecutor(max_workers=size, mp_context=get_context("fork"))
    return _POOLS[size]


def clock() -> Callable[[], float]:
    """The clock a search's budget is counted on: wall-clock time, or the thread's CPU time
    where ``KABES_EXPERT_CLOCK=thread`` (benchmarks only; see ``CLOCK_ENV``)."""
    if os.environ.get(CLOCK_ENV, "").strip() == "thread":
        return time.thread_time
    return time.perf_counter


def search(
    view: View, moves: list[Play], seed: int, budget: float, max_worlds: int | None
) -> tuple[list[float], int]:
    """Total value of each move over the worlds one process searches in ``budget``
    seconds, and the number of worlds."""
    rng = Random(seed)
    rules = get_rules(view.variant)
    state = MatchState(
        view.players,
        view.teams,
        view.options,
        list(view.scores),
        view.hands_played,
        list(view.hand_wins),
    )
    totals = [0.0] * len(moves)
    now_of = clock()
    deadline = now_of() + budget * SAFETY - OVERHEAD
    party = view.party(view.seat)
    worlds = 0
    pool = unseen(view)
    tactics = tactics_for(view)
    reading = tactics.read(view) if reads(rules) else None
    scored = _scored(view, party)

    def valued(key: Hashable, end: Callable[[], HandEnd]) -> float:
        worth = scored.get(key)
        if worth is None:
            worth = scored[key] = value(rules, state, end(), party)
        return worth

    playout = Playout(view, moves, rng, pool, GREEDY, reading, valued)
    started = now_of()
    while max_worlds is None or worlds < max_worlds:
        now = now_of()
        per_world = (now - started) / worlds if worlds else 0.0
        if worlds >= MIN_WORLDS and now + per_world > deadline:
            break  # one more world would likely overrun the budget
        world = tactics.play_world(playout)
        for i, key in enumerate(world.keys):
            if key is None:
                worth = value(rules, state, world.end(i), party)
            else:
                worth = valued(key, partial(world.end, i))
            totals[i] += worth
        worlds += 1
    return totals, worlds


_SCORED: list[tuple[Hashable, dict[Hashable, float]]] = []
"""The values of the ends met in the searches of the last standing (one entry)."""


def reads(rules: Rules) -> bool:
    """Whether the expert weighs its worlds by the other seats' plays (``kabes.ai.reading``):
    at tables where only people sit (``Rules.people_only``: partnership), whose every other
    seat plays as the reading takes people to play. That is where it measured stronger at 50 ms
    a move; in plaza and haitian-partners it measured no better against the skilled level, so
    it is off there."""
    return rules.people_only


def _scored(view: View, party: int) -> dict[Hashable, float]:
    """The value to ``party`` of each kind of end met so far (``ai.boards.Searched.keys``),
    kept from one move's search to the next while the match stands where it stood: an end's
    value depends only on the standing before the hand, and the moves of one hand meet many
    of the same ends again (valuing them took about a tenth of a plaza search)."""
    standing = (
        get_rules(view.variant),
        view.players,
        view.options,
        view.scores,
        view.hands_played,
        view.hand_wins,
        party,
    )
    if not _SCORED or _SCORED[0][0] != standing:
        _SCORED[:] = [(standing, {})]
    return _SCORED[0][1]


def value(rules: Rules, state: MatchState, end: HandEnd, party: int) -> float:
    """What a finished hand is worth to ``party``: the change in its standing against the
    others, scaled to the target, and a won or lost match above all; where the end of a hand
    decides who leads the next (``LEAD``), that lead too."""
    scored = rules.score(state, end)
    sign = -1.0 if rules.penalties(state.players) else 1.0
    before = _standing(state.scores, party)
    after = _standing(list(scored.scores), party)
    worth = sign * (after - before) / rules.stake(state.players, state.options)
    future = MatchState(
        state.players,
        state.teams,
        state.options,
        list(scored.scores),
        state.hands_played + 1,
        [w + (p == scored.winner) for p, w in enumerate(state.hand_wins)],
    )
    winners = rules.winners(future)
    if winners is not None:
        worth += WIN if party in winners else -WIN
    else:
        lead = LEAD if rules.last_tile_leads and not state.teams else 0.0
        leader = rules.next_leader(state, end, scored) if lead else None
        if leader is not None:
            worth += lead if state.party(leader) == party else -lead
    return worth


def _standing(scores: list[int], party: int) -> float:
    others = [s for p, s in enumerate(scores) if p != party]
    return scores[party] - sum(others) / len(others)


def _only(view: View, move: Play) -> View:
    """The view with ``move`` as the only legal move, to borrow the skilled player's words."""
    return replace(view, legal=(move,))

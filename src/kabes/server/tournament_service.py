"""What the tournament routes do: create, enter, start, read; each change read from the
store, decided by the pure rules (kabes.tournaments), and kept in one transaction before it
is answered.

No tournament lives only in memory: every request reads the entries its process has not
folded yet (the log is append-only, its numbers without gaps, so the fold of the first n
entries never changes) and folds them into the state it keeps, so any process (``--redis``)
answers for any tournament from the store, a restart loses nothing, and reading a
1,000-entrant tournament costs one small query, not its whole log. Two writers racing for
the same next entry are settled by the store (:class:`~kabes.server.tournament_store.Conflict`):
the loser reads again and decides again, so a second ``start`` finds the tournament started
and a round is never paired twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from kabes.rules import VARIANTS
from kabes.server.hub import CODE_ALPHABET
from kabes.server.new_tables import created, unknown_variant
from kabes.server.protocol import (
    EnterTournament,
    ErrorCode,
    NewTable,
    NewTournament,
    Refused,
)
from kabes.server.store import Store
from kabes.server.tournament_store import Conflict, Entries, TournamentStore
from kabes.tournaments import unplayable
from kabes.tournaments.state import TournamentState

ID_LENGTH = 10
"""Characters of a tournament's id (about 49 bits: not guessed, as a table's code)."""
DEFAULT_SWISS_ROUNDS = 3
TRIES = 8
"""How many times a change is decided again after losing a race to another writer."""
CACHED = 256
"""Tournaments whose folded state a process keeps (the most recently read)."""


def new_id() -> str:
    """A fresh tournament id, of the tables' alphabet (easy to read aloud)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(ID_LENGTH))


def tournament_data(body: NewTournament, player: int, name: str) -> dict[str, Any]:
    """The ``created`` entry of a tournament ``player`` (``name``) asks for; Refused with
    the protocol's code as for a table, and ``bad_options`` for a format the variant cannot
    play, for open-ended matches, and for rounds outside a Swiss."""
    rules = VARIANTS.get(body.variant)
    if rules is None:
        raise unknown_variant(repr(body.variant))
    options = dict(body.options or {})
    if options.get("open_ended"):
        raise Refused(ErrorCode.BAD_OPTIONS, "a tournament's matches are never open-ended")
    if rules.open_ended_for_people:
        options["open_ended"] = False
    table = created(NewTable(body.variant, body.players, options), player, name)
    why = unplayable(body.format, rules, table["players"])
    if why is not None:
        raise Refused(ErrorCode.BAD_OPTIONS, why)
    if body.format != "swiss" and body.rounds is not None:
        raise Refused(ErrorCode.BAD_OPTIONS, "rounds are set for a Swiss only")
    rounds = (body.rounds or DEFAULT_SWISS_ROUNDS) if body.format == "swiss" else None
    return {"variant": body.variant, "players": table["players"], "options": table["options"],
            "format": body.format, "rounds": rounds, "public": body.public, "host": player,
            "name": name}


class Tournaments:
    """Every tournament, as the store keeps them."""

    def __init__(self, store: Store, now: Callable[[], float] = time.time) -> None:
        self.store = TournamentStore(store)
        self.now = now
        """The tables' clock: a round's start is written by it, its tables' clocks read it."""
        self._folded: OrderedDict[str, TournamentState] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    async def state(self, tournament: str) -> TournamentState:
        """The tournament as its log has it now; Refused ``not_found`` if there is none.
        (The state kept here: read it, do not change it.)"""
        if not (0 < len(tournament) <= 16 and tournament.isascii() and tournament.isalnum()):
            raise Refused(ErrorCode.NOT_FOUND, f"no tournament {tournament!r}")
        tid = tournament.upper()
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            state = self._folded.get(tid)
            entries = await self.store.load(tid, 0 if state is None else state.seq)
            if entries is None:
                raise Refused(ErrorCode.NOT_FOUND, f"no tournament {tournament!r}")
            if state is None:
                state = TournamentState(tid)
            for kind, data in entries:
                state.apply(kind, data)
            self._folded[tid] = state
            self._folded.move_to_end(tid)
            while len(self._folded) > CACHED:
                gone, _ = self._folded.popitem(last=False)
                self._locks.pop(gone, None)
        return state

    async def create(self, player: int, name: str, body: NewTournament) -> TournamentState:
        """Open a tournament hosted by ``player``."""
        data = tournament_data(body, player, name)
        for _ in range(TRIES):
            tournament = new_id()
            try:
                await self.store.create(tournament, player, body.public, data)
            except Conflict:
                continue
            return TournamentState.replay(tournament, [("created", data)])
        raise Refused(ErrorCode.UNAVAILABLE, "no free tournament id; try again")

    async def enter(self, tournament: str, player: int, name: str,
                    body: EnterTournament) -> TournamentState:
        """Enter ``player``, alone or naming a partner; 409 ``started`` once it has begun."""
        def decide(state: TournamentState) -> Entries:
            if state.status != "open":
                raise Refused(ErrorCode.STARTED, "this tournament has begun")
            partner = body.partner if state.teams else None
            if partner == player:
                raise Refused(ErrorCode.BAD_MESSAGE, "a partner is another player")
            if state.entrant_of(player) is not None:
                return []  # in already (alone, or in a pair that stands)
            mine = [e for e in state.entries if e.player == player]
            if mine and mine[-1].partner == partner:
                return []
            return [("entered", {"player": player, "name": name, "partner": partner})]
        return await self.change(tournament, decide)

    async def start(self, tournament: str, player: int) -> TournamentState:
        """Begin round 1: host only (``not_host``), once (``started``), with at least a
        table's worth of entrants (``not_now``)."""
        def decide(state: TournamentState) -> Entries:
            if state.host != player:
                raise Refused(ErrorCode.NOT_HOST, "only the host starts the tournament")
            if state.status != "open":
                raise Refused(ErrorCode.STARTED, "this tournament has begun")
            if len(state.entrants) < state.sides:
                raise Refused(ErrorCode.NOT_NOW, f"a tournament needs at least {state.sides} "
                              f"entrants; it has {len(state.entrants)}")
            first = dataclasses.replace(state, status="running").next_round()
            assert first is not None
            return [("started", {}), paired(1, first, self.now())]
        return await self.change(tournament, decide)

    async def change(
        self, tournament: str, decide: Callable[[TournamentState], Entries]
    ) -> TournamentState:
        """Read, decide (``decide(state)`` gives the entries to keep, maybe none), keep, and
        the state after; again from the start if another writer was first."""
        for _ in range(TRIES):
            state = await self.state(tournament)
            after = state.seq
            entries: Entries = decide(state)
            if not entries:
                return await self.state(tournament)
            try:
                status = "running" if any(k == "started" for k, _ in entries) else state.status
                if any(k == "over" for k, _ in entries):
                    status = "over"
                await self.store.append(state.id, after, entries, status)
            except Conflict:
                continue
            return await self.state(tournament)
        raise Refused(ErrorCode.UNAVAILABLE, "too many changes at once; try again")

    async def public(self) -> list[TournamentState]:
        """The public tournaments open or running, newest first."""
        return [await self.state(t) for t in await self.store.public()]


def paired(number: int, round_: Any, at: float) -> tuple[str, dict[str, Any]]:
    """The ``paired`` entry of round ``number``, which began ``at``."""
    return ("paired", {"round": number,
                       "tables": [list(t.entrants) for t in round_.tables],
                       "byes": list(round_.byes), "at": at})

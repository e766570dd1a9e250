"""What the tournament routes do: create, enter, start, read; each change read from the
store, decided by the pure rules (kabes.tournaments), and kept in one transaction before it
is answered.

No tournament lives only in memory: every request reads the entries its process has not
folded yet (the log is append-only, its numbers without gaps, so the fold of the first n
entries never changes) and folds them into the state it keeps, so any process (``--redis``)
answers for any tournament from the store, a restart loses nothing, and reading a
1,000-entrant tournament costs one small query, not its whole log. Two writers racing for
the same next entry are settled by the store (:class:`~kabes.server.tournaments.store.Conflict`):
the loser reads again and decides again, so a second ``start`` finds the tournament started
and a round is never paired twice.

Bounded for strangers (PROTOCOL.md, "Tournaments are bounded", "Asking costs nothing"): at
most ``max_entrants`` entrants, each player's partner changed at most
:data:`PARTNER_CHANGES` times, an entry that changes nothing not kept; pairing (a search,
however bounded) runs in a thread, never on the event loop; and an id that is no tournament
leaves nothing behind, not even its lock.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from kabes.rules import VARIANTS
from kabes.server.common.protocol import (
    EnterTournament,
    ErrorCode,
    NewTable,
    NewTournament,
    Refused,
)
from kabes.server.hub.hub import CODE_ALPHABET
from kabes.server.store.store import Store
from kabes.server.tournaments.store import Conflict, Entries, TournamentStore
from kabes.table.creation import created, unknown_variant
from kabes.tournaments import Round, unplayable
from kabes.tournaments.state import TournamentState

ID_LENGTH = 10
"""Characters of a tournament's id (about 49 bits: not guessed, as a table's code)."""
DEFAULT_SWISS_ROUNDS = 3
TRIES = 8
"""How many times a change is decided again after losing a race to another writer."""
CACHED = 256
"""Tournaments whose folded state a process keeps (the most recently read)."""
MAX_ENTRANTS = 256
"""Entrants a tournament takes by default (``--tournament-max-entrants``)."""
PARTNER_CHANGES = 10
"""Times a player may name a new partner (an entry naming another partner than their entry
before, or none after one): each is an entry kept, so they are counted."""

Decision = Callable[[TournamentState], Entries | Awaitable[Entries]]
"""What to keep, decided on the tournament as the store has it (see Tournaments.change):
at once, or awaited (a pairing, computed in a thread)."""


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

    def __init__(self, store: Store, now: Callable[[], float] = time.time,
                 max_entrants: int = MAX_ENTRANTS) -> None:
        self.store = TournamentStore(store)
        self.now = now
        """The tables' clock: a round's start is written by it, its tables' clocks read it."""
        self.max_entrants = max_entrants
        self._folded: OrderedDict[str, TournamentState] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        """One lock per tournament being read, dropped once nobody holds or awaits it."""

    async def state(self, tournament: str) -> TournamentState:
        """The tournament as its log has it now; Refused ``not_found`` if there is none.
        (The state kept here: read it, do not change it.)"""
        if not (0 < len(tournament) <= 16 and tournament.isascii() and tournament.isalnum()):
            raise Refused(ErrorCode.NOT_FOUND, f"no tournament {tournament!r}")
        tid = tournament.upper()
        # Check-then-act without an await between them: no other coroutine runs between
        # the get and the set, so every reader of ``tid`` gets the same lock. While anyone
        # holds or awaits it, their ``lock`` keeps it alive in the weak map; once nobody
        # does, it goes (an unknown id, read 20,000 times, keeps nothing). A lock dropped
        # and made anew only ever guards a moment when nobody held the old one.
        lock = self._locks.get(tid)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[tid] = lock
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
                self._folded.popitem(last=False)
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
        """Enter ``player``, alone or naming a partner: 404 ``not_found`` for a partner
        that is no player, 409 ``started`` once it has begun, 409 ``tournament_full`` past
        ``max_entrants``, 429 ``slow_down`` past :data:`PARTNER_CHANGES` new partners.
        An entry that would change nothing is not kept."""
        if body.partner is not None and not await self.store.is_player(body.partner):
            raise Refused(ErrorCode.NOT_FOUND, f"no player {body.partner}")

        def decide(state: TournamentState) -> Entries:
            if state.status != "open":
                raise Refused(ErrorCode.STARTED, "this tournament has begun")
            partner = body.partner if state.teams else None
            if partner == player:
                raise Refused(ErrorCode.BAD_MESSAGE, "a partner is another player")
            roster = state.roster
            if player in roster.number:
                return []  # in already (alone, or in a pair that stands)
            mine = roster.last.get(player)
            if mine is not None and mine.partner == partner:
                return []  # the same entry again
            # Full: no entrant can be formed; and in a team variant no more players than
            # the full count of pairs holds may wait for a partner, so that the log of a
            # tournament is bounded however many strangers enter it.
            members = 2 if state.teams else 1
            if len(roster.entrants) >= self.max_entrants or (
                    mine is None and len(roster.last) >= self.max_entrants * members):
                raise Refused(ErrorCode.TOURNAMENT_FULL, "this tournament has its "
                              f"{self.max_entrants} entrants")
            new_partner = mine is not None or partner is not None
            if new_partner and roster.changes.get(player, 0) >= PARTNER_CHANGES:
                raise Refused(ErrorCode.SLOW_DOWN, "a player names a new partner at most "
                              f"{PARTNER_CHANGES} times")
            return [("entered", {"player": player, "name": name, "partner": partner})]
        return await self.change(tournament, decide)

    async def start(self, tournament: str, player: int) -> TournamentState:
        """Begin round 1: host only (``not_host``), once (``started``), with at least a
        table's worth of entrants (``not_now``)."""
        def decide(state: TournamentState) -> Entries | Awaitable[Entries]:
            if state.host != player:
                raise Refused(ErrorCode.NOT_HOST, "only the host starts the tournament")
            if state.status != "open":
                raise Refused(ErrorCode.STARTED, "this tournament has begun")
            if len(state.entrants) < state.sides:
                raise Refused(ErrorCode.NOT_NOW, f"a tournament needs at least {state.sides} "
                              f"entrants; it has {len(state.entrants)}")
            return started(state)

        async def started(state: TournamentState) -> Entries:
            first = await pair_off_loop(state)
            assert first is not None
            return [("started", {}), paired(1, first, self.now())]
        return await self.change(tournament, decide)

    async def change(self, tournament: str, decide: Decision) -> TournamentState:
        """Read, decide (``decide(state)`` gives the entries to keep, maybe none, or an
        awaitable of them), keep, and the state after; again from the start if another
        writer was first.

        ``after`` is read before deciding: a decision awaited (a pairing in a thread) may
        see this process fold newer entries meanwhile, but it is kept only as entry
        ``after + 1``, which the store refuses (Conflict: decide again) if any was kept
        since."""
        for _ in range(TRIES):
            state = await self.state(tournament)
            after = state.seq
            decided = decide(state)
            entries: Entries = (await decided if inspect.isawaitable(decided)
                                else decided)
            if not entries:
                return await self.state(tournament)
            try:
                status = "running" if any(k == "started" for k, _ in entries) else state.status
                if any(k == "over" for k, _ in entries):
                    status = "over"
                await self.store.append(state.id, after, entries, status,
                                        **_who_plays(state, entries))
            except Conflict:
                continue
            return await self.state(tournament)
        raise Refused(ErrorCode.UNAVAILABLE, "too many changes at once; try again")

    async def public(self) -> list[TournamentState]:
        """The public tournaments open or running, newest first."""
        return [await self.state(t) for t in await self.store.public()]


def _who_plays(state: TournamentState, entries: Entries) -> dict[str, Any]:
    """For the players' pages, what ``entries`` settle (TournamentStore.append): at the
    start, who plays (every member of an entrant); at the end, each one's place (their
    entrant's in the standings; a knockout's winner first) of how many entrants."""
    kinds = {kind for kind, _ in entries}
    if not kinds & {"started", "over"}:
        return {}
    after = copy.deepcopy(state)
    for kind, data in entries:
        after.apply(kind, data)
    members = after.entrants
    out: dict[str, Any] = {"entrants": {p for team in members for p in team}}
    if "over" in kinds:
        order = [line.entrant for line in after.standings()]
        winner = after.winner()
        if winner is not None and winner in order:
            order.remove(winner)
            order.insert(0, winner)
        out["places"] = {p: place for place, number in enumerate(order, start=1)
                         for p in members[number - 1]}
        out["of"] = len(members)
    return out


async def pair_off_loop(state: TournamentState) -> Round | None:
    """``state``'s next round, paired in a thread on what ``state`` holds now (read before
    the first await), so that the event loop answers every table and ``/healthz``
    meanwhile."""
    return await asyncio.to_thread(state.pairing())


def paired(number: int, round_: Any, at: float) -> tuple[str, dict[str, Any]]:
    """The ``paired`` entry of round ``number``, which began ``at``."""
    return ("paired", {"round": number,
                       "tables": [list(t.entrants) for t in round_.tables],
                       "byes": list(round_.byes), "at": at})

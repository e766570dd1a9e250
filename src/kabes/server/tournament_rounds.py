"""The rounds in play: each running tournament's tables opened and seated, their results
recorded when their matches end, and the next round paired at once (PROTOCOL.md,
"Tournaments").

A loop looks at every running tournament every ``POLL_SECONDS``: everything it does is read
from the store and kept there with the tournament's entries (``opened``, ``result``,
``paired``, ``over``), each in one transaction, so a restart goes on where the log stands,
and two processes doing it at once cannot both keep the same entry (the store's sequence
numbers and its one row per round paired): a round is paired once. A table opened by a writer
that then loses the race to keep its ``opened`` entry is left unseated in the tournament and
closes as any abandoned table does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from kabes.server.hub import Hub
from kabes.server.protocol import NewTable
from kabes.server.store import Store
from kabes.server.tournament_service import Tournaments, paired
from kabes.server.tournament_store import Entries
from kabes.tournaments.results import result_of, seat_order
from kabes.tournaments.state import TournamentState

log = logging.getLogger("kabes.tournaments")

Decision = Callable[[TournamentState], Entries]
"""What to keep, decided on the tournament as the store has it (see Tournaments.change)."""

POLL_SECONDS = 0.25
"""How often the running tournaments are looked at."""


class RoundRunner:
    """Moves every running tournament on; :meth:`start` with the server, :meth:`stop`."""

    def __init__(self, service: Tournaments, hub: Hub, store: Store) -> None:
        self.service = service
        self.hub = hub
        self.store = store
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin looking at the running tournaments."""
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="tournaments")

    async def stop(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                for tournament in await self.service.store.running():
                    await self.advance(tournament)
            except asyncio.CancelledError:
                raise
            except Exception:  # the store down, a race lost: look again next time
                log.exception("tournament rounds")
            await asyncio.sleep(POLL_SECONDS)

    async def advance(self, tournament: str) -> None:
        """Do what the tournament's current round needs now: open its tables, record the
        matches over, pair the next round (or end the tournament) once all are."""
        state = await self.service.state(tournament)
        if state.status != "running" or not state.played:
            return
        number = len(state.played)
        for index, code in enumerate(state.tables[number - 1]):
            if code is None:
                await self._open(state, number, index)
        state = await self.service.state(tournament)
        round_ = state.played[number - 1]
        for index, table in enumerate(round_.tables):
            code = state.tables[number - 1][index]
            if table.result is None and code is not None:
                record = await self.store.match_record(code)
                if record is not None and record.get("result"):
                    result = result_of(record, table.entrants)
                    entry = {"round": number, "index": index, "winners": list(result.winners),
                             "scores": list(result.scores),
                             "hands_won": list(result.hands_won)}
                    await self.service.change(tournament, _once(number, index, entry))
        await self.service.change(tournament, _next(number))

    async def _open(self, state: TournamentState, number: int, index: int) -> None:
        """Open the table of pairing ``index`` of round ``number`` and seat its entrants."""
        pairing = state.played[number - 1].tables[index]
        players = seat_order([state.entrants[e - 1] for e in pairing.entrants], state.teams)
        first, *others = players
        table = await self.hub.create(first, state.names.get(first, ""), NewTable(
            state.variant, state.players, dict(state.options)))
        for player in others:
            await self.hub.ask(table.code, "join", [player, state.names.get(player, "")], 0.0)

        def decide(now: TournamentState) -> Entries:
            if now.tables[number - 1][index] is not None:
                return []
            return [("opened", {"round": number, "index": index, "table": table.code})]
        await self.service.change(state.id, decide)


def _once(number: int, index: int, entry: dict[str, object]) -> Decision:
    """The decision to keep a table's result, unless it is kept already."""
    def decide(state: TournamentState) -> Entries:
        if len(state.played) != number or state.played[number - 1].tables[index].result:
            return []
        return [("result", dict(entry))]
    return decide


def _next(number: int) -> Decision:
    """The decision to pair round ``number + 1`` (or end the tournament) once round
    ``number`` is over."""
    def decide(state: TournamentState) -> Entries:
        if state.status != "running" or len(state.played) != number:
            return []
        if not state.played[-1].over:
            return []
        nxt = state.next_round()
        if nxt is None:
            return [("over", {})]
        return [paired(number + 1, nxt)]
    return decide


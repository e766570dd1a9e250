"""The tournaments in the store: each one's append-only log, its row (for the public list),
and one row per round paired.

Every change is written in one transaction before it is answered (so ``kill -9`` at any
moment loses no entry, pairing or result), and an entry is kept only at the sequence number
its writer read: two writers (two requests, or two processes with ``--redis``) that both
read entry n and write entry n + 1 cannot both succeed; the second is refused with
:class:`Conflict`, reads the log again and decides again. A round's row makes its pairing
unique as well: the ``paired`` entry of round r and the row (tournament, r) go in together.
"""

from __future__ import annotations

import json
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kabes.server.store.schema import (
    matches,
    players,
    tournament_events,
    tournament_players,
    tournament_rounds,
    tournaments,
)
from kabes.server.store.store import Store

Entries = list[tuple[str, dict[str, Any]]]
MAX_PLAYER = 2**31 - 1
"""The largest player id a store can hold (PostgreSQL's ``integer``): a number past it is
no player, answered without asking the database (which would refuse to compare it)."""
RECORDS_AT_ONCE = 400
"""Table codes asked for in one query (under every database's limit of parameters)."""


class Conflict(Exception):
    """Another writer kept an entry at that number first; nothing of this write was kept."""


class TournamentStore:
    """The tournaments' part of the store (the same database as the tables')."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, tournament: str, host: int, public: bool,
                     data: dict[str, Any]) -> None:
        """Keep a new tournament and its ``created`` entry; Conflict if the id is taken."""
        now = time.time()
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(tournaments.insert().values(
                    id=tournament, host=host, public=public, status="open",
                    created_at=now, updated_at=now, variant=data.get("variant"),
                    host_name=data.get("name")))
                await conn.execute(tournament_events.insert().values(
                    tournament=tournament, seq=1, kind="created", data=json.dumps(data),
                    at=now))
        except IntegrityError:
            raise Conflict(tournament) from None

    async def load(self, tournament: str, after: int = 0) -> Entries | None:
        """The entries of ``tournament`` in order after the first ``after``, or None if
        there is no such tournament (or it has no entry past number ``after``, with
        ``after`` 0)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(tournament_events.c.kind, tournament_events.c.data)
                .where(tournament_events.c.tournament == tournament,
                       tournament_events.c.seq > after)
                .order_by(tournament_events.c.seq))).all()
        if not rows and not after:
            return None
        return [(str(kind), json.loads(data)) for kind, data in rows]

    async def append(self, tournament: str, after: int, entries: Entries, status: str,
                     entrants: set[int] | None = None,
                     places: dict[int, int] | None = None, of: int = 0) -> None:
        """Keep ``entries`` as numbers ``after + 1``, ... of ``tournament``'s log, and its
        ``status``, in one transaction; Conflict (nothing kept) if another writer was first
        or the round of a ``paired`` entry was paired already.

        The players' pages follow in the same transaction: a player named by an
        ``entered`` entry is listed as in the tournament; ``entrants`` (given at the start)
        are all who play it, the others (left without a partner) are listed no more; and
        ``places`` (given at the end) are each player's place, of ``of`` entrants."""
        now = time.time()
        rows = [{"tournament": tournament, "seq": n, "kind": kind, "data": json.dumps(data),
                 "at": now} for n, (kind, data) in enumerate(entries, start=after + 1)]
        rounds = [{"tournament": tournament, "round": data["round"], "paired_at": now}
                  for kind, data in entries if kind == "paired"]
        try:
            async with self.store.engine.begin() as conn:
                # One statement for all the entries (a round's 500 ``opened`` at once), not
                # one round trip each.
                await conn.execute(tournament_events.insert(), rows)
                if rounds:
                    await conn.execute(tournament_rounds.insert(), rounds)
                await _players_follow(conn, tournament, entries, entrants, places, of)
                await conn.execute(tournaments.update()
                                   .where(tournaments.c.id == tournament)
                                   .values(status=status, updated_at=now))
        except IntegrityError:
            raise Conflict(tournament) from None

    async def is_player(self, player: int) -> bool:
        """Whether ``player`` is a player's id (any integer may be asked: 10**30 is no
        player, never an error)."""
        if not 0 < player <= MAX_PLAYER:
            return False
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(players.c.id).where(players.c.id == player))).first()
        return row is not None

    async def public(self, limit: int = 100) -> list[str]:
        """The public tournaments open or running, newest first."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(tournaments.c.id)
                .where(tournaments.c.public.is_(True),
                       tournaments.c.status.in_(("open", "running")))
                .order_by(tournaments.c.created_at.desc()).limit(limit))).all()
        return [str(row[0]) for row in rows]

    async def records(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """The records of the matches over among tables ``codes`` (one query per few
        hundred tables, however many are still playing)."""
        found: dict[str, dict[str, Any]] = {}
        async with self.store.engine.connect() as conn:
            for start in range(0, len(codes), RECORDS_AT_ONCE):
                rows = (await conn.execute(
                    sa.select(matches.c.code, matches.c.record)
                    .where(matches.c.code.in_(codes[start:start + RECORDS_AT_ONCE]),
                           matches.c.record.is_not(None)))).all()
                found.update((str(code), dict(json.loads(record))) for code, record in rows)
        return found

    async def running(self) -> list[str]:
        """Every tournament in play (a restart goes on with their rounds)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(tournaments.c.id)
                                       .where(tournaments.c.status == "running"))).all()
        return [str(row[0]) for row in rows]


async def _players_follow(conn: AsyncConnection, tournament: str, entries: Entries,
                          entrants: set[int] | None, places: dict[int, int] | None,
                          of: int) -> None:
    """Who is in ``tournament`` and their places, as :meth:`TournamentStore.append` keeps
    them (in its transaction)."""
    named = {int(data["player"]) for kind, data in entries if kind == "entered"}
    if named:
        listed = {int(p) for p in (await conn.execute(
            sa.select(tournament_players.c.player)
            .where(tournament_players.c.tournament == tournament,
                   tournament_players.c.player.in_(sorted(named))))).scalars()}
        if named - listed:
            await conn.execute(tournament_players.insert(), [
                {"tournament": tournament, "player": p} for p in sorted(named - listed)])
    if entrants is not None:
        await conn.execute(tournament_players.delete().where(
            tournament_players.c.tournament == tournament,
            tournament_players.c.player.not_in(sorted(entrants))))
    if places:
        await conn.execute(
            tournament_players.update()
            .where(tournament_players.c.tournament == tournament,
                   tournament_players.c.player == sa.bindparam("who"))
            .values(place=sa.bindparam("place"), entrants=sa.bindparam("of")),
            [{"who": p, "place": n, "of": of}
             for p, n in sorted(places.items())])

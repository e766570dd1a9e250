"""Puzzles in the store (PROTOCOL.md, "Puzzles"): the puzzles with their proofs, the puzzle
of each day, each player's first try of each puzzle and their puzzle rating and streak.

Ratings are openskill's Plackett-Luce as at the tables (kabes.server.store.commits.MODEL): a
try is a game of two, the player against the puzzle, which the player wins when the move is
a solution. Both ratings move, so a puzzle many get wrong climbs, and ``next`` can offer each
player puzzles near their own rating. Only a player's first try of a puzzle counts: the
attempt's row is keyed by (player, puzzle), and the ratings move only in the transaction
whose insert of that row took effect.

Races, all settled by the database rather than by this process (a cluster shares one store):

- **The daily puzzle.** The first ask of a date chooses one (deterministically, from the
  date, the variant and the puzzles stored), then *inserts it or ignores the insert* on the
  primary key (day, variant), then reads the row back. Two first asks at once may choose
  differently (a puzzle stored between them), but only one row can exist: the later insert
  waits for the earlier (PostgreSQL's unique index; SQLite's one writer), does nothing, and
  its read finds the earlier's choice. Everyone gets the one row. The choice itself counts
  and then picks, two statements another first ask can commit between (``choose_daily``
  counts again when its pick found nothing).
- **The starter set** (``seed``): a store with no puzzles is given the shipped set
  (kabes.puzzles.starter) when a server starts. Two processes starting at once on one new
  store may both find it empty and both insert the set; each row is *inserted or ignored*
  by key, in key order, so each puzzle is kept once and neither waits on the other in a
  cycle (the later insert waits for the earlier's commit on the first key, then ignores
  every row). Puzzles already kept are never overwritten: a store holding any puzzle is
  not seeded at all.
- **Two first tries at once** (two tabs): the attempt's insert-or-ignore lets exactly one
  through; the other answers as a second try.
- **Tries of two puzzles at once by one player, or of one puzzle by two players**: the
  player's rating row, then the puzzle's, are read ``FOR UPDATE`` (PostgreSQL; SQLite's
  first write already holds the file), always in that order, so no update is lost and no
  two transactions wait on each other in a cycle.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kabes.server.store.commits import MODEL
from kabes.server.store.history import rating
from kabes.server.store.schema import puzzle_attempts, puzzle_days, puzzle_players, puzzles

ANY_VARIANT = ""
"""The daily puzzle's variant key when no variant is asked for: one among all puzzles."""
DIFFICULTY_MU = 1.0
"""A new puzzle's mu above openskill's starting 25 per point of its difficulty: a first
guess at its rating, which the first tries then correct."""
AT_ONCE = 500
"""Puzzles inserted in one statement."""
RECOUNTS = 8
"""How many times a daily choice counts again when the puzzles it counted changed before
its pick (see ``choose_daily``) before it chooses among all puzzles instead."""


class Storable(Protocol):
    """What the store keeps of a puzzle (kabes.puzzles.model.Puzzle has all of it)."""

    @property
    def key(self) -> str: ...

    @property
    def variant(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def difficulty(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Tried:
    """The outcome of a try as kept: whether it was the player's ``first`` try of the
    puzzle (only then did anything change), and the player's puzzle card after it."""

    first: bool
    card: dict[str, Any]


def starting_mu(difficulty: int) -> float:
    """A new puzzle's mu: openskill's starting mu, raised by its difficulty."""
    return float(MODEL.mu) + DIFFICULTY_MU * max(0, difficulty)


def _insert(dialect: str) -> Any:
    """The dialect's INSERT, which can be told to ignore a row whose key is taken."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)


class PuzzleStore:
    """The puzzles of the store whose engine is ``engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._insert = _insert(engine.dialect.name)

    # Puzzles -------------------------------------------------------------------------

    async def add(self, found: Iterable[Storable], now: float | None = None) -> int:
        """Keep ``found``; a puzzle already kept (by key) is left as it is. The number of
        puzzles new to the store."""
        at = time.time() if now is None else now
        rows = {p.key: {"id": p.key, "variant": p.variant, "players": p.players,
                        "difficulty": p.difficulty, "mu": starting_mu(p.difficulty),
                        "sigma": float(MODEL.sigma), "made_at": at,
                        "data": json.dumps(p.to_dict(), separators=(",", ":"))}
                for p in found}
        added = 0
        listed = list(rows.values())
        async with self.engine.begin() as conn:
            for start in range(0, len(listed), AT_ONCE):
                result = await conn.execute(
                    self._insert(puzzles).values(listed[start:start + AT_ONCE])
                    .on_conflict_do_nothing(index_elements=["id"]))
                added += max(0, result.rowcount or 0)
        return added

    async def seed(self, starter: Iterable[Storable], now: float | None = None) -> int:
        """Give an empty store the ``starter`` puzzles (see the module's note on races); a
        store that holds any puzzle is left as it is. The number of puzzles added."""
        async with self.engine.connect() as conn:
            held = (await conn.execute(sa.select(puzzles.c.id).limit(1))).first()
        if held is not None:
            return 0
        return await self.add(sorted(starter, key=lambda p: p.key), now)

    async def counts(self) -> dict[str, int]:
        """How many puzzles each variant has."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(puzzles.c.variant, sa.func.count()).group_by(puzzles.c.variant)
            )).all()
        return {str(v): int(n) for v, n in rows}

    async def get(self, key: str) -> dict[str, Any] | None:
        """The puzzle ``key`` as kept (its ``to_dict``), or None."""
        async with self.engine.connect() as conn:
            data = (await conn.execute(
                sa.select(puzzles.c.data).where(puzzles.c.id == key))).scalar()
        return None if data is None else dict(json.loads(data))

    # The daily puzzle ----------------------------------------------------------------

    async def daily(self, day: str, variant: str | None) -> tuple[str, dict[str, Any]] | None:
        """The puzzle of ``day`` (ISO date) in ``variant`` (any variant if None): chosen
        and kept by the first ask of that day, the same for every later ask (see the
        module's note on races). None when there is no puzzle to choose from."""
        slot = ANY_VARIANT if variant is None else variant
        async with self.engine.begin() as conn:
            chosen = await self._day_of(conn, day, slot)
            if chosen is None:
                pick = await choose_daily(conn, day, slot)
                if pick is None:
                    return None
                await conn.execute(
                    self._insert(puzzle_days).values(day=day, variant=slot, puzzle=pick)
                    .on_conflict_do_nothing(index_elements=["day", "variant"]))
                chosen = await self._day_of(conn, day, slot)
            assert chosen is not None
            data = (await conn.execute(
                sa.select(puzzles.c.data).where(puzzles.c.id == chosen))).scalar()
        return None if data is None else (chosen, dict(json.loads(data)))

    @staticmethod
    async def _day_of(conn: AsyncConnection, day: str, slot: str) -> str | None:
        found = (await conn.execute(
            sa.select(puzzle_days.c.puzzle)
            .where(puzzle_days.c.day == day, puzzle_days.c.variant == slot))).scalar()
        return None if found is None else str(found)

    # Next, tries and cards -----------------------------------------------------------

    async def next_for(self, player: int, variant: str | None = None
                       ) -> tuple[str, dict[str, Any]] | None:
        """A puzzle ``player`` has not tried, the nearest to their puzzle rating (mu), ties
        by key; None when they have tried every one."""
        async with self.engine.connect() as conn:
            mine = (await conn.execute(
                sa.select(puzzle_players.c.mu).where(puzzle_players.c.player == player)
            )).scalar()
            mu = float(MODEL.mu) if mine is None else float(mine)
            tried = sa.select(puzzle_attempts.c.puzzle).where(
                puzzle_attempts.c.player == player, puzzle_attempts.c.puzzle == puzzles.c.id)
            query = (sa.select(puzzles.c.id, puzzles.c.data)
                     .where(~tried.exists())
                     .order_by(sa.func.abs(puzzles.c.mu - mu), puzzles.c.id).limit(1))
            if variant is not None:
                query = query.where(puzzles.c.variant == variant)
            row = (await conn.execute(query)).first()
        return None if row is None else (str(row[0]), dict(json.loads(row[1])))

    async def attempt(self, player: int, key: str, move: str, correct: bool,
                      now: float | None = None) -> Tried:
        """Keep ``player``'s try of puzzle ``key`` if it is their first: their rating and
        the puzzle's move, their streak goes on or back to 0, their counts grow. A later try
        changes nothing. Either way, the player's card after it."""
        at = time.time() if now is None else now
        async with self.engine.begin() as conn:
            kept = await conn.execute(
                self._insert(puzzle_attempts)
                .values(player=player, puzzle=key, move=move, correct=correct, at=at)
                .on_conflict_do_nothing(index_elements=["player", "puzzle"]))
            first = kept.rowcount == 1
            if first:
                await self._rate(conn, player, key, correct)
            card = await card_of(conn, player)
        return Tried(first, card)

    async def _rate(self, conn: AsyncConnection, player: int, key: str, correct: bool
                    ) -> None:
        fresh = MODEL.rating()
        await conn.execute(
            self._insert(puzzle_players)
            .values(player=player, mu=fresh.mu, sigma=fresh.sigma, tried=0, solved=0,
                    streak=0, best_streak=0)
            .on_conflict_do_nothing(index_elements=["player"]))
        me = (await conn.execute(
            sa.select(puzzle_players.c.mu, puzzle_players.c.sigma, puzzle_players.c.streak,
                      puzzle_players.c.best_streak)
            .where(puzzle_players.c.player == player).with_for_update())).one()
        it = (await conn.execute(
            sa.select(puzzles.c.mu, puzzles.c.sigma)
            .where(puzzles.c.id == key).with_for_update())).one()
        ranks = [1.0, 2.0] if correct else [2.0, 1.0]
        (mine,), (its,) = MODEL.rate(
            [[MODEL.rating(float(me[0]), float(me[1]))],
             [MODEL.rating(float(it[0]), float(it[1]))]], ranks=ranks)
        streak = int(me[2]) + 1 if correct else 0
        await conn.execute(
            puzzle_players.update().where(puzzle_players.c.player == player).values(
                mu=mine.mu, sigma=mine.sigma, tried=puzzle_players.c.tried + 1,
                solved=puzzle_players.c.solved + int(correct), streak=streak,
                best_streak=max(int(me[3]), streak)))
        await conn.execute(puzzles.update().where(puzzles.c.id == key)
                           .values(mu=its.mu, sigma=its.sigma))

    async def card(self, player: int) -> dict[str, Any]:
        """``player``'s puzzle card: rating, streak, best streak, solved, tried."""
        async with self.engine.connect() as conn:
            return await card_of(conn, player)

    async def tried(self, player: int, key: str) -> bool | None:
        """Whether ``player``'s first try of ``key`` was correct; None if never tried."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(
                sa.select(puzzle_attempts.c.correct)
                .where(puzzle_attempts.c.player == player, puzzle_attempts.c.puzzle == key)
            )).scalar()
        return None if found is None else bool(found)


async def choose_daily(conn: AsyncConnection, day: str, slot: str) -> str | None:
    """The puzzle a first ask of ``day`` in ``slot`` chooses: the same whoever asks, from
    the date, the slot and the puzzles stored: one not yet a daily puzzle of this slot if
    any is left (else any), the n-th by key, n from the SHA-256 of the date and slot.

    The count and the pick are two statements, and on PostgreSQL (READ COMMITTED) each sees
    the commits made before it began: a first ask of another day of this slot committing
    between them takes one puzzle out of those not yet daily ones, and the pick's offset can
    then run past the end. Such a pick finds nothing and is counted again (CI once saw a
    first ask answer no puzzle at all this way); puzzles are never removed, so the set only
    shrinks by days kept elsewhere, and each retry needs another such commit in between.
    """
    base = sa.select(puzzles.c.id)
    if slot != ANY_VARIANT:
        base = base.where(puzzles.c.variant == slot)
    used = sa.select(puzzle_days.c.puzzle).where(puzzle_days.c.variant == slot,
                                                 puzzle_days.c.puzzle == puzzles.c.id)
    seed = int.from_bytes(hashlib.sha256(f"{day}/{slot}".encode()).digest()[:8], "big")
    for query in (base.where(~used.exists()), base):
        for _ in range(RECOUNTS):
            count = int((await conn.execute(
                sa.select(sa.func.count()).select_from(query.subquery()))).scalar_one())
            if not count:
                break
            found = (await conn.execute(
                query.order_by(puzzles.c.id).offset(seed % count).limit(1))).scalar()
            if found is not None:
                return str(found)
    return None


async def card_of(conn: AsyncConnection, player: int) -> dict[str, Any]:
    """``player``'s puzzle card (a player's page shows it): rating (openskill's ordinal, as
    the tables'), streak, best streak, solved and tried (first tries only)."""
    row = (await conn.execute(
        sa.select(puzzle_players.c.mu, puzzle_players.c.sigma, puzzle_players.c.streak,
                  puzzle_players.c.best_streak, puzzle_players.c.solved,
                  puzzle_players.c.tried)
        .where(puzzle_players.c.player == player))).first()
    if row is None:
        fresh = MODEL.rating()
        return {"rating": rating(fresh.mu, fresh.sigma), "streak": 0, "best_streak": 0,
                "solved": 0, "tried": 0}
    mu, sigma, streak, best, solved, tried = row
    return {"rating": rating(float(mu), float(sigma)), "streak": int(streak),
            "best_streak": int(best), "solved": int(solved), "tried": int(tried)}


def public_puzzle(key: str, data: Mapping[str, Any], day: str | None) -> dict[str, Any]:
    """What a player sees before trying (PROTOCOL.md): never the solution or the proof."""
    return {"id": key, "variant": data["variant"], "players": data["players"],
            "options": data.get("options") or {}, "seat": data["seat"],
            "view": data["view"], "moves": data["moves"], "date": day}

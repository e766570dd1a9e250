"""What one group commit writes: the entries of many tables, their effects, the heartbeat.

The store's writer (``kabes.server.store.store``) gathers every entry waiting and calls
:func:`write` in one transaction. Everything here runs inside that transaction, so a table's
status, its matches and its players' ratings are kept together with the entry that caused
them or not at all. The statements a busy server runs at every commit are built once, here,
and run with many rows at a time where they can be.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgspec
import sqlalchemy as sa
from openskill.models import PlackettLuce

from kabes.server.store import history
from kabes.server.store.schema import match_players, matches, servers, tables, waiting_seats
from kabes.table.effects import (
    Effect,
    HandRated,
    MatchFinished,
    MatchScored,
    MatchStarted,
    SeatsFreed,
    TableStatus,
)
from kabes.table.entries import Entry

_JSON = msgspec.json.Encoder().encode
"""An entry's data as compact JSON (the log is read back with any JSON reader)."""

MODEL = PlackettLuce()
"""The rating model (openskill's Plackett-Luce): partners are one team in team variants."""


@dataclass(slots=True)
class Pending:
    """An entry of table ``code`` waiting to be committed, with its effects, and the future
    its writer awaits; with no entry, a heartbeat."""

    code: str | None
    entry: Entry | None
    effects: list[Effect]
    done: asyncio.Future[None]


_PLACEHOLDERS: dict[str, Callable[[int], str]] = {
    "qmark": lambda n: "?",
    "numeric": lambda n: f":{n}",
    "numeric_dollar": lambda n: f"${n}",
    "format": lambda n: "%s",
    "pyformat": lambda n: "%s",
}


class _Statements:
    """The statements a busy server runs at every commit, as plain SQL in the driver's own
    parameter style: run on the driver's cursor, many rows at a time, with none of the
    work SQLAlchemy does per statement (compiling, binding, results), which was most of a
    group commit's CPU. Rows, statements and transactions are the same as through Core."""

    def __init__(self, paramstyle: str, dialect: str) -> None:
        mark = _PLACEHOLDERS[paramstyle]
        self.mark = mark
        self.share = " FOR SHARE" if dialect == "postgresql" else ""
        self.insert_events = (
            "INSERT INTO table_events (code, seq, kind, data, at, seat, action, epoch) "
            f"VALUES ({', '.join(mark(n) for n in range(1, 9))})")
        self.set_status = (
            f"UPDATE tables SET status={mark(1)}, updated_at={mark(2)} WHERE code={mark(3)}")
        self.rate_hand = (
            f"UPDATE ratings SET mu={mark(1)}, sigma={mark(2)}, hands=hands + 1, "
            f"hands_won=hands_won + {mark(3)} WHERE player={mark(4)} AND variant={mark(5)}")
        self.count_match = (
            f"UPDATE ratings SET matches=matches + 1, matches_won=matches_won + {mark(1)} "
            f"WHERE player={mark(2)} AND variant={mark(3)}")
        self.insert_rating = (
            "INSERT INTO ratings (player, variant, mu, sigma, hands, hands_won, matches, "
            f"matches_won) VALUES ({', '.join(mark(n) for n in range(1, 9))})")
        self.history = history.Statements(mark)
        self.score = f"UPDATE matches SET scores={mark(1)} WHERE code={mark(2)}"
        self._epochs: dict[int, str] = {}
        self._ratings: dict[int, str] = {}

    def _marks(self, first: int, count: int) -> str:
        return ", ".join(self.mark(n) for n in range(first, first + count))

    def epochs(self, count: int) -> str:
        """The epochs of ``count`` tables, under a shared lock (PostgreSQL)."""
        sql = self._epochs.get(count)
        if sql is None:
            sql = self._epochs[count] = (
                f"SELECT code, epoch FROM tables WHERE code IN ({self._marks(1, count)}) "
                f"ORDER BY code{self.share}")
        return sql

    def ratings_of(self, count: int) -> str:
        """The (player, mu, sigma) of ``count`` players in one variant."""
        sql = self._ratings.get(count)
        if sql is None:
            sql = self._ratings[count] = (
                f"SELECT player, mu, sigma FROM ratings WHERE variant = {self.mark(1)} "
                f"AND player IN ({self._marks(2, count)})")
        return sql


_STATEMENTS: dict[tuple[str, str], _Statements] = {}


class _Commit:
    """One group commit's work inside its transaction: the driver's cursor, the statements,
    and the ratings read or written so far in this transaction (a player's rating is read
    from the database once per commit; later hands in the same commit find it here, as the
    database would give it back)."""

    def __init__(self, conn: sa.Connection) -> None:
        dialect = conn.dialect
        key = (dialect.paramstyle, dialect.name)
        sql = _STATEMENTS.get(key)
        if sql is None:
            sql = _STATEMENTS[key] = _Statements(*key)
        self.sql = sql
        self.conn = conn
        self.cursor = conn.connection.cursor()
        self.known: dict[tuple[str, int], tuple[float, float]] = {}
        self.rated: list[tuple[float, float, int, int, str]] = []
        """The hands' rating updates, run together at the end of the commit, in order."""
        self.points: list[tuple[int, str, float, int, float]] = []
        """The hands' rating history points (kabes.server.store.history), in order."""
        self.now = time.time()

    def close(self) -> None:
        self.cursor.close()


def write(conn: sa.Connection, batch: list[Pending], server: str) -> dict[int, int]:
    """The entries of ``batch`` whose epoch is their table's, their effects, and the
    heartbeat if one is asked for; the refused: {index in batch: the table's epoch}.

    The tables' epochs are read under a shared lock (PostgreSQL ``FOR SHARE``; SQLite has one
    writer at a time), so no claim can raise one between this check and the commit. A table
    with no row yet is one being created: its first entry's effects make its row."""
    work = _Commit(conn)
    dialect = conn.dialect
    failure = dialect.loaded_dbapi.Error
    try:
        return _write(work, batch, server)
    except failure as err:
        # What SQLAlchemy does with an error of a statement it runs: a lost connection is
        # invalidated (the pool opens a new one next time), and the error is SQLAlchemy's.
        lost = dialect.is_disconnect(err, conn.connection.dbapi_connection, work.cursor)
        if lost:
            conn.invalidate(err)
        raise sa.exc.DBAPIError.instance(
            None, None, err, failure, connection_invalidated=lost, dialect=dialect) from err
    finally:
        with contextlib.suppress(Exception):
            work.close()


def _write(work: _Commit, batch: list[Pending], server: str) -> dict[int, int]:
    conn, cursor, sql = work.conn, work.cursor, work.sql
    codes = sorted({item.code for item in batch if item.entry is not None and item.code})
    epochs: dict[str, int] = {}
    for start in range(0, len(codes), 500):
        part = codes[start:start + 500]
        cursor.execute(sql.epochs(len(part)), part)
        epochs.update((str(c), int(e)) for c, e in cursor.fetchall())
    rows = []
    refused: dict[int, int] = {}
    kept: list[Pending] = []
    beat = False
    for index, item in enumerate(batch):
        entry = item.entry
        if entry is None:
            beat = True
            continue
        code = item.code
        assert code is not None
        current = epochs.get(code)
        if current is not None and current != entry.epoch:
            refused[index] = current
            continue
        kept.append(item)
        rows.append((code, entry.seq, entry.kind, _JSON(entry.data).decode(), entry.at,
                     entry.seat, entry.action, entry.epoch))
    if rows:
        cursor.executemany(sql.insert_events, rows)
    now = work.now
    statuses: list[tuple[str, float, str]] = []
    born: dict[str, dict[str, object]] = {}
    """The tables with no row yet (being created: a round's 500 at once), their row as this
    batch leaves it: one insert each, all in one statement."""
    for item in kept:
        if not item.effects:
            continue
        assert item.entry is not None
        for effect in item.effects:
            if isinstance(effect, TableStatus) and effect.code in epochs:
                statuses.append((effect.status, now, effect.code))
            elif isinstance(effect, TableStatus):
                born[effect.code] = {"code": effect.code, "status": effect.status,
                                     "created_at": now, "updated_at": now,
                                     "epoch": item.entry.epoch, "owner": server}
            else:
                _carry_out(work, effect, now)
    if work.rated:  # every hand's ratings, in the order of the hands
        cursor.executemany(sql.rate_hand, work.rated)
        history.keep(cursor, sql.history, work.points)
    if born:
        conn.execute(tables.insert(), list(born.values()))
    if statuses:  # tables whose row exists: one statement for all of them
        cursor.executemany(sql.set_status, statuses)
    if beat:
        _beat(conn, now, server)
    return refused


def _carry_out(work: _Commit, effect: Effect, now: float) -> None:
    """One effect (not a status: :func:`write` keeps those), inside the transaction that
    keeps its entry."""
    conn = work.conn
    if isinstance(effect, MatchStarted):
        conn.execute(matches.insert().values(
            code=effect.code, variant=effect.variant, players=effect.players,
            rated=effect.rated, started_at=now, finished=False, public=effect.public,
            seats=None if effect.seats is None else _JSON(effect.seats).decode()))
        if effect.people:
            conn.execute(match_players.insert(), [
                {"code": effect.code, "seat": seat, "player": player, "won": False,
                 "started_at": now}
                for seat, player in effect.people
            ])
    elif isinstance(effect, HandRated):
        _rate_hand(work, effect)
    elif isinstance(effect, MatchScored):
        work.cursor.execute(work.sql.score, (_JSON(effect.scores).decode(), effect.code))
    elif isinstance(effect, MatchFinished):
        _finish_match(work, effect, now)
    elif isinstance(effect, SeatsFreed):
        freed = waiting_seats.delete().where(waiting_seats.c.code == effect.code)
        if effect.players is not None:
            freed = freed.where(waiting_seats.c.player.in_(effect.players))
        conn.execute(freed)


def _finish_match(work: _Commit, effect: MatchFinished, now: float) -> None:
    conn = work.conn
    result = effect.record.get("result")
    result = result if isinstance(result, dict) else {}
    scores = result.get("scores")
    conn.execute(
        matches.update().where(matches.c.code == effect.code).values(
            finished=True, finished_at=now,
            record=json.dumps(effect.record, separators=(",", ":")),
            abandoned=result.get("abandoned") is True,
            scores=json.dumps(scores) if isinstance(scores, list) else None)
    )
    if effect.winners:
        conn.execute(
            match_players.update()
            .where(match_players.c.code == effect.code)
            .where(match_players.c.player.in_(effect.winners))
            .values(won=True)
        )
    if effect.rated:
        people = sorted(set(effect.players))
        _ratings_of(work, people, effect.variant)
        work.cursor.executemany(work.sql.count_match, [
            (int(p in effect.winners), p, effect.variant) for p in people
        ])


def _ratings_of(
    work: _Commit, people: list[int], variant: str
) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) in ``variant`` as this transaction leaves it so far, a new
    player's row made at the model's starting rating."""
    known = work.known
    found: dict[int, tuple[float, float]] = {}
    unread: list[int] = []
    for p in people:
        have = known.get((variant, p))
        if have is None:
            unread.append(p)
        else:
            found[p] = have
    if unread:
        cursor = work.cursor
        cursor.execute(work.sql.ratings_of(len(unread)), [variant, *unread])
        read = {int(p): (float(mu), float(sigma)) for p, mu, sigma in cursor.fetchall()}
        missing = sorted(set(unread) - set(read))
        if missing:
            fresh = MODEL.rating()
            cursor.executemany(work.sql.insert_rating, [
                (p, variant, fresh.mu, fresh.sigma, 0, 0, 0, 0) for p in missing
            ])
            read.update((p, (float(fresh.mu), float(fresh.sigma))) for p in missing)
        for p, rating in read.items():
            known[variant, p] = rating
        found.update(read)
    return found


def _rate_hand(work: _Commit, effect: HandRated) -> None:
    """openskill (Plackett-Luce) over the hand's teams and ranks, plus the hand counts."""
    variant = effect.variant
    known = _ratings_of(work, sorted({p for team in effect.teams for p in team}), variant)
    teams = [[MODEL.rating(*known[p]) for p in team] for team in effect.teams]
    rated = MODEL.rate(teams, ranks=[float(r) for r in effect.ranks])
    for team, new in zip(effect.teams, rated, strict=True):
        for player, rating in zip(team, new, strict=True):
            work.rated.append((rating.mu, rating.sigma, int(player in effect.won), player,
                               variant))
            work.known[variant, player] = (float(rating.mu), float(rating.sigma))
            work.points.append((player, variant, work.now, history.day_of(work.now),
                                history.rating(rating.mu, rating.sigma)))


def _beat(conn: sa.Connection, now: float, server: str) -> None:
    updated = conn.execute(
        servers.update().where(servers.c.id == server).values(heartbeat_at=now)
    )
    if updated.rowcount == 0:
        conn.execute(servers.insert().values(id=server, heartbeat_at=now))

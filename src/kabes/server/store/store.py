"""The store: each table's append-only log, players, matches and ratings (SQLAlchemy 2).

SQLite (WAL, ``synchronous=FULL``) by default, PostgreSQL (asyncpg) with another URL; the
same code for both. Writes go through one writer that commits in groups (a task on the
event loop, or for a SQLite file a thread of its own: :mod:`kabes.server.store.file_writer`):
every entry waiting at that moment goes into one transaction, so a move costs a share of one durable
commit, not a commit of its own. :meth:`Store.append` returns only once its entry is durable.

Fencing: every entry carries the epoch of the owner that wrote it, and the store keeps an entry
only if its epoch is the table's current one (read under a lock in the transaction that keeps
the entry); :meth:`Store.claim` raises a table's epoch when a process takes it. An entry from an
older epoch is refused with :class:`Fenced` and nothing of it is kept: a process that was
paused or cut off can never write into a table that another process has taken since.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from kabes.server.common.mailbox import Mailbox
from kabes.server.common.metrics import Metrics
from kabes.server.store.commits import Pending, write
from kabes.server.store.file_writer import MAX_BATCH, FileWriter, sqlite_file, sqlite_pragmas
from kabes.server.store.outcomes import Fenced as Fenced  # where callers have imported it from
from kabes.server.store.outcomes import StoreError as StoreError
from kabes.server.store.outcomes import settle
from kabes.server.store.players import player_page
from kabes.server.store.puzzles import PuzzleStore
from kabes.server.store.rankings import PER_PAGE, place_of, ranked_rows
from kabes.server.store.schema import (
    lesson_progress,
    link_codes,
    matches,
    player_tokens,
    players,
    servers,
    table_events,
    tables,
)
from kabes.table.effects import Effect
from kabes.table.entries import Entry
from kabes.table.rankings import RANKED_AFTER_HANDS

log = logging.getLogger("kabes.store")

HEARTBEAT_SECONDS = 0.25
"""How often the server notes it is alive: a restart gives a turn back its time up to this."""
CODES_AT_ONCE = 400
"""Table codes asked for in one query (under every database's limit of parameters)."""
MIGRATIONS = Path(__file__).with_name("migrations")
SERVER_ID = "local"
"""The server id of a process that runs alone (without Redis)."""
STALE_SERVERS = 86_400.0
"""Seconds after which a server's heartbeat row is forgotten (see :meth:`Store.forget_servers`)."""



async def token_player(conn: AsyncConnection, token: str) -> int | None:
    """The id of the player holding ``token`` (its first or a linked device's), read on
    ``conn`` (inside the caller's transaction), or None."""
    hashed = token_hash(token)
    found = (await conn.execute(
        sa.select(players.c.id).where(players.c.token_hash == hashed)
        .union_all(sa.select(player_tokens.c.player)
                   .where(player_tokens.c.token_hash == hashed)))).first()
    return None if found is None else int(found[0])


def token_hash(token: str) -> str:
    """What the store keeps of a guest's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def database_url(url: str | None, folder: Path) -> str:
    """The async URL for ``url`` (``sqlite:///``, ``postgresql://`` accepted), or the
    default SQLite file in ``folder``."""
    if not url:
        return f"sqlite+aiosqlite:///{folder / 'kabes.sqlite3'}"
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix):]
    return url


@dataclass(frozen=True, slots=True)
class Claim:
    """A table taken by this process: its new epoch, and the last heartbeat of the process
    that owned it before (None if unknown), from which its clocks resume."""

    epoch: int
    heartbeat: float | None


class Store:
    """The database behind the server; :meth:`open` before use, :meth:`close` after."""

    def __init__(
        self, url: str, metrics: Metrics | None = None, server_id: str = SERVER_ID,
        stalled: float | None = None,
    ) -> None:
        self.url = url
        self.metrics = metrics
        self.server_id = server_id
        """Who this process is: its heartbeats and the tables it claims are kept under it."""
        args: dict[str, Any] = {}
        if url.startswith("sqlite"):
            args["connect_args"] = {"timeout": 30}
        elif stalled is not None:
            # PostgreSQL ends a transaction left idle past ``stalled`` (its locks go with it):
            # a process frozen or cut off halfway through a commit holds the tables' rows it
            # read FOR SHARE, and a process taking one of those tables (claim) would wait on
            # them until it woke. Its commit then fails, and is retried or fenced as any.
            args["connect_args"] = {"server_settings": {
                "idle_in_transaction_session_timeout": str(max(1, round(stalled * 1000)))}}
        self.engine: AsyncEngine = create_async_engine(url, **args)
        if url.startswith("sqlite"):
            sa.event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        path = sqlite_file(url)
        self._file: FileWriter | None = (
            None if path is None else FileWriter(path, server_id, metrics))
        """For a SQLite file: the writer in its own thread (kabes.server.store.file_writer);
        otherwise the writer is a task on the event loop (:meth:`_write_loop`)."""
        self._queue: Mailbox[Pending] = Mailbox()
        self._writer: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        self.puzzles = PuzzleStore(self.engine)
        """The puzzles, their days, tries and ratings (kabes.server.store.puzzles)."""

    @property
    def writer(self) -> sa.Engine:
        """The engine whose transactions keep appended entries: its ``commit`` events are the
        group commits."""
        return self._file.engine if self._file is not None else self.engine.sync_engine

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    async def open(self) -> None:
        """Bring the schema up to date (Alembic) and start the writer."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)
        loop = asyncio.get_running_loop()
        if self._file is not None:
            self._file.start(loop)
        else:
            self._writer = loop.create_task(self._write_loop(), name="store")

    def start_heartbeat(self) -> None:
        """Note every quarter second that this server is alive (clocks resume from it)."""
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat(), name="heartbeat")

    async def close(self) -> None:
        """Stop writing and release the connections."""
        for task in (self._beat, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._file is not None:
            await self._file.stop()
        await self.engine.dispose()

    # Writes ----------------------------------------------------------------------------

    async def append(self, code: str, entry: Entry, effects: list[Effect]) -> None:
        """Keep ``entry`` of table ``code`` and its effects; return once durable."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put(Pending(code, entry, effects, done))
        await done

    def _put(self, item: Pending) -> None:
        """Give ``item`` to the writer: the SQLite file's thread, or the loop's task."""
        if self._file is not None:
            self._file.put(item)
        else:
            self._queue.put_nowait(item)

    async def _heartbeat(self) -> None:
        while True:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._put(Pending(None, None, [], done))
            with contextlib.suppress(StoreError):
                await done
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self._queue.get_nowait())
            started = time.perf_counter()
            try:
                refused = await self._commit(batch)
            except Exception as err:
                log.warning("group commit of %d failed (%r); one by one now", len(batch), err)
                await self._write_singly(batch)
            else:
                settle(batch, refused)
            if self.metrics is not None:
                self.metrics.commits.observe(time.perf_counter() - started)
                self.metrics.batch.observe(len(batch))

    async def _write_singly(self, batch: list[Pending]) -> None:
        for item in batch:
            try:
                refused = await self._commit([item])
            except Exception as err:
                settle([item], {0: err})
            else:
                settle([item], refused)

    async def _commit(self, batch: list[Pending]) -> dict[int, int]:
        """``batch`` in one transaction, on the event loop (a store that is not a SQLite
        file: PostgreSQL, or SQLite in memory). The entries refused by their epoch:
        {index in batch: the table's epoch}."""
        async with self.engine.begin() as conn:
            return await conn.run_sync(write, batch, self.server_id)

    # Players ---------------------------------------------------------------------------

    async def create_guest(self, name: str, token: str) -> int:
        """A new guest; its id. Only the token's hash is kept."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                players.insert().values(name=name, token_hash=token_hash(token),
                                        created_at=time.time())
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    async def revoke_token(self, token: str) -> bool:
        """End ``token`` (``POST /api/me/logout``): its player keeps everything but can no
        longer be reached by it. The hash is replaced by a random value that is not the
        SHA-256 of anything sent (no hex digest holds a colon), so no token finds it. False
        if the token was unknown."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                players.update().where(players.c.token_hash == token_hash(token))
                .values(token_hash="revoked:" + os.urandom(24).hex()))
            linked = await conn.execute(  # a linked device's token (kabes.server.store.links)
                player_tokens.delete().where(player_tokens.c.token_hash == token_hash(token)))
        return bool(result.rowcount or linked.rowcount)

    async def revoke_everywhere(self, token: str) -> bool:
        """End every token of ``token``'s player (``POST /api/me/logout`` with
        ``everywhere``): its first one, every linked device's, and its live link code, so
        that a stolen token cannot link itself again. False if the token was unknown.

        Races: the player's row is written first, so it stays locked (PostgreSQL's row
        lock; SQLite's single writer) until this commits. Making a code and using one
        (kabes.server.store.links) lock the same row first too: one of them waiting here finds,
        once this committed, the token ended (no code is made) or the code gone (no token
        is given); one that went first has committed its code or token, which the
        deletes below, run after the lock, then see."""
        async with self.engine.begin() as conn:
            player = await token_player(conn, token)
            if player is None:
                return False
            await conn.execute(players.update().where(players.c.id == player)
                               .values(token_hash="revoked:" + os.urandom(24).hex()))
            await conn.execute(player_tokens.delete().where(player_tokens.c.player == player))
            await conn.execute(link_codes.delete().where(link_codes.c.player == player))
        return True

    async def player_by_token(self, token: str) -> tuple[int, str] | None:
        """The (id, name) holding ``token`` (its first, or a linked device's), or None."""
        hashed = token_hash(token)
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(players.c.id, players.c.name)
                .where(players.c.token_hash == hashed)
                .union_all(
                    sa.select(players.c.id, players.c.name)
                    .join(player_tokens, player_tokens.c.player == players.c.id)
                    .where(player_tokens.c.token_hash == hashed))
            )).first()
        return None if row is None else (int(row[0]), str(row[1]))

    async def player(self, player: int, own: bool = False) -> dict[str, Any] | None:
        """A player's page (``GET /api/players/{id}``; kabes.server.store.players): a
        private table's code, and a private tournament's id, only on the player's ``own``
        page."""
        async with self.engine.connect() as conn:
            return await player_page(conn, player, own)

    async def rankings(
        self, variant: str, limit: int = PER_PAGE, least_hands: int = RANKED_AFTER_HANDS,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """The best players of ``variant`` from ``offset``, best first: those with
        ``least_hands`` rated hands or more (RANKED_AFTER_HANDS; kabes.server.store.rankings)."""
        async with self.engine.connect() as conn:
            return await ranked_rows(conn, variant, least_hands, limit, offset)

    async def ranking_place(self, variant: str, player: int,
                            least_hands: int = RANKED_AFTER_HANDS) -> dict[str, Any] | None:
        """``{"place", "rating"}`` of ``player`` in ``variant``'s rankings, or None."""
        async with self.engine.connect() as conn:
            return await place_of(conn, variant, player, least_hands)

    # Lessons ---------------------------------------------------------------------------

    async def finish_lesson(self, player: int, lesson: str) -> None:
        """Mark ``lesson`` finished for ``player`` (finishing it again changes nothing)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(lesson_progress.insert().values(
                    player=player, lesson=lesson, finished_at=time.time()))
        except sa.exc.IntegrityError:
            pass  # already finished: the first time is the one kept

    async def lessons_finished(self, player: int) -> set[str]:
        """The ids of the lessons ``player`` has finished."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(lesson_progress.c.lesson).where(lesson_progress.c.player == player)
            )).all()
        return {str(r[0]) for r in rows}

    # Tables ----------------------------------------------------------------------------

    async def live_codes(self, statuses: tuple[str, ...] | None = None) -> list[str]:
        """Tables not over (or only those in ``statuses``): the ones a restart must rebuild."""
        where = tables.c.status != "over" if statuses is None else tables.c.status.in_(statuses)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(tables.c.code).where(where))).all()
        return [r[0] for r in rows]

    async def claim(self, code: str) -> Claim | None:
        """Take table ``code`` for this process: its epoch goes up by one, so that whoever
        owned it before can write nothing more into it. None if there is no such table.
        Read the table's log only after this: nothing can be added to it under an older
        epoch once this returns."""
        async with self.engine.begin() as conn:
            # Raise the epoch first: a write, so the table's row (PostgreSQL) or the whole
            # file (SQLite) is this transaction's until it commits, and no writer can check
            # the old epoch in between.
            raised = await conn.execute(
                tables.update().where(tables.c.code == code).values(epoch=tables.c.epoch + 1)
            )
            if raised.rowcount == 0:
                return None
            row = (await conn.execute(
                sa.select(tables.c.epoch, tables.c.owner).where(tables.c.code == code)
            )).one()
            epoch = int(row[0])
            await conn.execute(
                tables.update().where(tables.c.code == code).values(owner=self.server_id)
            )
            beat = None
            if row[1] is not None:
                beat = (await conn.execute(
                    sa.select(servers.c.heartbeat_at).where(servers.c.id == row[1])
                )).scalar()
        return Claim(epoch, None if beat is None else float(beat))

    async def holder(self, code: str) -> tuple[str | None, float | None]:
        """Who claimed table ``code`` last (None if nobody holds it now) and when that
        process last said it was alive."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(tables.c.owner, servers.c.heartbeat_at)
                .select_from(tables.outerjoin(servers, servers.c.id == tables.c.owner))
                .where(tables.c.code == code)
            )).first()
        if row is None:
            return None, None
        return row[0], None if row[1] is None else float(row[1])

    async def in_play(self) -> list[tuple[str, str | None, float | None]]:
        """Every table whose clocks run (playing, between hands): its code, who claimed it
        last, and when that process last said it was alive."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(tables.c.code, tables.c.owner, servers.c.heartbeat_at)
                .select_from(tables.outerjoin(servers, servers.c.id == tables.c.owner))
                .where(tables.c.status.in_(("playing", "between_hands")))
            )).all()
        return [(str(c), o, None if h is None else float(h)) for c, o, h in rows]

    async def disown(self, codes: list[str]) -> None:
        """This process holds ``codes`` no more (it let them go; nobody took them)."""
        if not codes:
            return
        async with self.engine.begin() as conn:
            await conn.execute(tables.update().where(
                tables.c.code.in_(codes), tables.c.owner == self.server_id).values(owner=None))

    async def epoch(self, code: str) -> int | None:
        """Table ``code``'s current epoch (None if there is no such table)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(
                sa.select(tables.c.epoch).where(tables.c.code == code)
            )).scalar()
        return None if found is None else int(found)

    async def load(self, code: str) -> list[Entry]:
        """Table ``code``'s log, in order (empty if there is no such table)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(table_events.c.seq, table_events.c.kind, table_events.c.data,
                          table_events.c.at, table_events.c.seat, table_events.c.action,
                          table_events.c.epoch)
                .where(table_events.c.code == code)
                .order_by(table_events.c.seq)
            )).all()
        return [Entry(s, k, json.loads(d), a, seat, act, e)
                for s, k, d, a, seat, act, e in rows]

    async def first_entries(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """The data of the ``created`` entry (the first) of every table of ``codes`` that
        exists: one query per few hundred codes, where :meth:`load` would be one a table."""
        found: dict[str, dict[str, Any]] = {}
        async with self.engine.connect() as conn:
            for start in range(0, len(codes), CODES_AT_ONCE):
                rows = (await conn.execute(
                    sa.select(table_events.c.code, table_events.c.data)
                    .where(table_events.c.code.in_(codes[start:start + CODES_AT_ONCE]),
                           table_events.c.seq == 1))).all()
                found.update((str(code), dict(json.loads(data))) for code, data in rows)
        return found

    async def last_heartbeat(self, server: str | None = None) -> float | None:
        """When ``server`` (by default this one) last said it was alive."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(servers.c.heartbeat_at)
                .where(servers.c.id == (server or self.server_id))
            )).first()
        return None if row is None else float(row[0])

    async def forget_servers(self, older_than: float = STALE_SERVERS) -> None:
        """Forget the heartbeats of servers silent for ``older_than`` seconds (each process
        of a cluster beats under a name of its own, new at every start)."""
        async with self.engine.begin() as conn:
            await conn.execute(servers.delete().where(
                servers.c.heartbeat_at < time.time() - older_than,
                servers.c.id != SERVER_ID))

    async def match_record(self, code: str) -> dict[str, Any] | None:
        """The record kept when table ``code``'s match ended."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(matches.c.record).where(matches.c.code == code)
            )).first()
        if row is None or row[0] is None:
            return None
        return dict(json.loads(row[0]))


MIGRATION_LOCK = 0x6B61626573
"""PostgreSQL advisory lock held while migrating: processes started together on one
database migrate it one after the other (the later ones find it up to date)."""


def _upgrade(connection: sa.Connection) -> None:
    """Alembic's ``upgrade head`` on this connection (under the migration lock on
    PostgreSQL, until the transaction ends)."""
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                           {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")

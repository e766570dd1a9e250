"""The writer of a SQLite file: group commits in a thread of its own.

Every entry appended in one turn of the event loop is handed to the thread at the turn's end
(one hand-over a turn at most, none while the thread is busy committing); the thread puts
every list handed over since its last commit into the next one, on a connection it keeps
from one commit to the next, and tells the loop once a commit, with all its entries. A move
thus costs a share of one durable commit and one wake-up of the loop, not a commit, a
future of the executor and a task step of its own (issue 30).

What makes the hand-over safe without a lock: the turn's list is touched only on the event
loop's thread until it is put in the thread's queue, and only by the thread after; each
entry's future is checked and set only on the loop's thread (:meth:`FileWriter._settled`,
called there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
import time
from typing import Any

import sqlalchemy as sa

from kabes.server.common.metrics import Metrics
from kabes.server.common.os_threads import name_this_thread
from kabes.server.store.commits import Pending, write
from kabes.server.store.outcomes import StoreError, settle

log = logging.getLogger("kabes.store")

THREAD_NAME = "kabes-store"
"""The writer thread's name, for Python and the OS alike (``top -H``, bench/load.py)."""

MAX_BATCH = 1000
"""Entries in one commit at most."""


class FileWriter:
    """Keeps appended entries in the SQLite file at ``path``; see the module docstring.
    :meth:`start` on the event loop before :meth:`put`, :meth:`stop` after."""

    def __init__(self, path: str, server_id: str, metrics: Metrics | None) -> None:
        self.path = path
        self.server_id = server_id
        self.metrics = metrics
        self.engine = sa.create_engine(
            "sqlite:///" + path, connect_args={"timeout": 30, "check_same_thread": False}
        )
        """The writer's own engine, used in its thread only: its ``commit`` events are the
        group commits."""
        sa.event.listen(self.engine, "connect", sqlite_pragmas)
        sa.event.listen(self.engine, "connect", _own_transactions)
        sa.event.listen(self.engine, "begin", _begin_immediate)
        self._inbox: queue.SimpleQueue[list[Pending] | None] = queue.SimpleQueue()
        """The lists of entries handed to the thread; None tells it to stop."""
        self._gathered: list[Pending] = []
        """The entries appended in this turn of the event loop, handed over at its end."""
        self._thread: threading.Thread | None = None
        self._held: sa.Connection | None = None
        """The thread's connection, kept from one commit to the next."""
        self._inode: int | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the thread; it settles entries on ``loop``."""
        self._thread = threading.Thread(target=self._run, args=(loop,),
                                        name=THREAD_NAME, daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Commit all that was handed over, then stop the thread and close the engine."""
        if self._thread is not None:
            # What this turn gathered first, then the end: the thread commits all it was
            # handed before it stops.
            self._hand_over()
            self._inbox.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None
        self.engine.dispose()

    def put(self, item: Pending) -> None:
        """Give ``item`` to the thread, with the others of this turn of the event loop, in
        one hand-over at the turn's end."""
        self._gathered.append(item)
        if len(self._gathered) == 1:
            # Safe without a lock: _gathered is touched only on the event loop's thread.
            asyncio.get_running_loop().call_soon(self._hand_over)

    def _hand_over(self) -> None:
        gathered, self._gathered = self._gathered, []
        if gathered:
            # From here the list is the thread's: the loop never touches it again.
            self._inbox.put(gathered)

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        """The thread: every entry handed over since its last commit goes into the next one,
        whole in this thread (one hop from the event loop a commit, not one a statement: a
        busy loop would otherwise stretch every step of every commit), and the loop hears of
        a commit once, with all its entries (one wake-up a commit, not one an entry)."""
        name_this_thread(THREAD_NAME)
        inbox = self._inbox
        stopping = False
        while not stopping:
            handed = inbox.get()
            if handed is None:
                break
            batch = handed
            while len(batch) < MAX_BATCH:
                try:
                    more = inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.extend(more)  # the thread's lists now: the loop never touches them
            for start in range(0, len(batch), MAX_BATCH):
                part = batch[start:start + MAX_BATCH]
                started = time.perf_counter()
                outcome = self._commit_part(part)
                try:
                    loop.call_soon_threadsafe(self._settled, part, outcome,
                                              time.perf_counter() - started)
                except RuntimeError:  # the loop is closed: nobody waits for these any more
                    stopping = True
                    break
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                held.close()

    def _commit_part(self, batch: list[Pending]) -> dict[int, int | Exception]:
        """``batch`` in one commit, or one by one if that fails (in the thread): {index: the
        table's epoch if refused, or the error that kept it out}."""
        try:
            return dict(self._commit(batch))
        except Exception as err:
            log.warning("group commit of %d failed (%r); one by one now", len(batch), err)
        failed: dict[int, int | Exception] = {}
        for index, item in enumerate(batch):
            try:
                refused = self._commit([item])
            except Exception as err:
                failed[index] = err
            else:
                if refused:
                    failed[index] = refused[0]
        return failed

    def _settled(self, batch: list[Pending], failed: dict[int, int | Exception],
                 seconds: float) -> None:
        """On the event loop: release the writers of a batch the thread committed."""
        settle(batch, failed)
        if self.metrics is not None:
            self.metrics.commits.observe(seconds)
            self.metrics.batch.observe(len(batch))

    def _commit(self, batch: list[Pending]) -> dict[int, int]:
        """``batch`` in one transaction: the entries refused by their epoch."""
        try:
            now = os.stat(self.path).st_ino
        except OSError:
            raise StoreError(f"the database file {self.path} is gone") from None
        if now != self._inode:
            # The file was replaced: a commit through the connection still open on the old
            # one would be lost, so open the path again.
            held, self._held = self._held, None
            if held is not None:
                with contextlib.suppress(Exception):
                    held.close()
            self.engine.dispose()
            self._inode = now
        conn = self._held
        if conn is None or conn.closed or conn.invalidated:
            # Kept from one commit to the next: no checkout from the pool, no reset on
            # return, a third of SQLAlchemy's cost of an empty commit (issue 30).
            conn = self._held = self.engine.connect()
        try:
            with conn.begin():
                return write(conn, batch, self.server_id)
        except BaseException:
            # The next commit takes a fresh connection: this one may be lost or in a
            # transaction SQLAlchemy could not end.
            self._held = None
            with contextlib.suppress(Exception):
                conn.close()
            raise


def sqlite_file(url: str) -> str | None:
    """The file of a ``sqlite+aiosqlite:///`` URL (None for another store, or a database in
    memory, which a second engine would not share)."""
    prefix = "sqlite+aiosqlite:///"
    if not url.startswith(prefix):
        return None
    path = url[len(prefix):]
    if not path or path == ":memory:" or "?" in path or path.startswith("file:"):
        return None
    return path


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL for readers beside the writer; FULL so a commit survives a power cut."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _own_transactions(dbapi_connection: Any, _record: Any) -> None:
    """Let SQLAlchemy begin the writer's transactions itself: the sqlite3 module would begin
    one only at the first INSERT, after the epochs were read outside it."""
    dbapi_connection.isolation_level = None


def _begin_immediate(conn: sa.Connection) -> None:
    """The writer takes SQLite's write lock before it reads the tables' epochs, so that no
    claim can raise an epoch between that check and the entries' commit."""
    conn.connection.dbapi_connection.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]

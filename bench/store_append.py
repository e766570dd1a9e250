"""The store alone: CPU a durable append, on a SQLite file, under a busy event loop.

TABLES coroutines each append one move at a time through ``Store.append`` (as a table's
actor does: the next once the last is durable), after spending BUSY_US of the event loop's
CPU (a busy-wait standing for the rest of a move's work: the engine, views, sockets), so the
store's thread competes for the GIL as in the server. Prints, over the window, the process's
CPU a move less the busy-wait (the store's share, both threads: its hand-over, futures,
SQLAlchemy, sqlite3, the commit), the writer thread's own CPU a move, the entries a commit,
and bench/playout.py's yardstick (`dominoes` 6.1.0's hands per CPU-second) from the same run.

Run: .venv/bin/python bench/store_append.py [TABLES [SECONDS [BUSY_US]]]   (40 10 300)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa
import uvloop

from kabes.server.runtime import tune_runtime
from kabes.server.store.commits import Pending
from kabes.server.store.store import Store
from kabes.table.effects import TableStatus
from kabes.table.entries import Entry

sys.path.insert(0, str(Path(__file__).parent))
from playout import dominoes_hands  # bench/ is not a package

MOVE = {"seat": 1, "move": [3, 4, "left"], "presence": [True, True, True, True]}


async def measure(tables: int, seconds: float, busy_us: float) -> None:
    folder = tempfile.mkdtemp(prefix="kabes-store-bench-")
    store = Store(f"sqlite+aiosqlite:///{folder}/bench.sqlite3")
    await store.open()
    tune_runtime()
    commits = [0]
    sa.event.listen(store.writer, "commit", lambda _c: commits.__setitem__(0, commits[0] + 1))
    writer = store._file  # the SQLite file's writer thread (kabes.server.store.file_writer)
    assert writer is not None, "a SQLite file has a writer thread"
    inner = writer._commit
    thread_cpu = [0.0]

    def timed(batch: list[Pending]) -> dict[int, int]:
        started = time.thread_time()
        try:
            return inner(batch)
        finally:
            thread_cpu[0] += time.thread_time() - started

    writer._commit = timed  # type: ignore[method-assign]
    busy = [0.0]
    moves = [0]
    stop = [False]

    async def table(number: int) -> None:
        code = f"T{number:04d}"
        await store.append(code, Entry(1, "created", {}, time.time()),
                           [TableStatus(code, "playing")])
        seq = 1
        while not stop[0]:
            started = time.thread_time()
            end = time.perf_counter() + busy_us / 1e6
            while time.perf_counter() < end:
                pass
            busy[0] += time.thread_time() - started
            seq += 1
            await store.append(code, Entry(seq, "move", MOVE, time.time(), 1, f"a{seq}"), [])
            moves[0] += 1

    tasks = [asyncio.create_task(table(n)) for n in range(tables)]
    await asyncio.sleep(2)
    before = (moves[0], busy[0], time.process_time(), commits[0], thread_cpu[0])
    await asyncio.sleep(seconds)
    after = (moves[0], busy[0], time.process_time(), commits[0], thread_cpu[0])
    stop[0] = True
    await asyncio.gather(*tasks, return_exceptions=True)
    await store.close()
    n, busy_s, cpu, made, thread = (b - a for a, b in zip(before, after, strict=True))
    print(f"{n / seconds:.0f} moves a second, {n / made:.1f} a commit; store CPU a move "
          f"{(cpu - busy_s) / n * 1e6:.1f} us (its thread {thread / n * 1e6:.1f} us); "
          f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", nargs="?", type=int, default=40,
                        help="tables appending at once (default 40)")
    parser.add_argument("seconds", nargs="?", type=float, default=10.0,
                        help="seconds measured (default 10)")
    parser.add_argument("busy_us", nargs="?", type=float, default=300.0,
                        help="microseconds of work between a table's moves (default 300)")
    args = parser.parse_args()
    uvloop.run(measure(args.tables, args.seconds, args.busy_us))
    print(f"yardstick: dominoes 6.1.0 {dominoes_hands(3.0):.0f} hands per CPU-second")


if __name__ == "__main__":
    main()

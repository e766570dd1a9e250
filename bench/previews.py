"""A shared link's picture: the time to make the PNG of a public match's preview (the table's
log rebuilt, its record replayed by the engine, the position drawn with Pillow and stored as
a PNG), uncached and cached, for a line variant and for Mexican Train.

Each match is played here to its end by the engine's first legal move at every turn (a whole
match: 1 to 13 hands), written as the table log a server keeps (``created``, ``started``,
``move``, ``dealt`` entries), and then:

- uncached: ``match_facts`` + ``match_image`` (what one preview costs the server's thread),
  ``--repeats`` times;
- cached: ``Previews.match_image`` (what the image route asks) on a fake store once the
  preview is made and drawn (the cache's lookup and nothing else).

Printed: p50 and max of each, the PNG's size, and bench/playout.py's yardstick (the
``dominoes`` library's random hands a CPU-second, and Kabès's fastline) measured after the
run, so that figures from machines of other speeds compare.

Run: .venv/bin/python bench/previews.py [--repeats 20] [--out FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

from kabes.match import Match
from kabes.server.http.preview_facts import match_facts
from kabes.server.http.preview_images import match_image
from kabes.server.http.previews import Previews
from kabes.table.entries import Entry
from kabes.views import view

sys.path.insert(0, str(Path(__file__).parent))

NAMES = ("Roselène", "Wilner", "Manouchka", "Jean-Baptiste")


def played_log(variant: str, players: int, seed: int, options: dict[str, Any] | None = None,
               names: tuple[str, ...] = NAMES) -> list[Entry]:
    """The log of a public table of ``variant`` whose match was played to its end, every
    seat playing its first legal move."""
    rng = Random(seed)
    match = Match(variant, players, options or {}, rng)
    created = {"variant": variant, "players": players, "options": options or {},
               "computers": {}, "player": 1, "name": names[0], "public": True, "watch": True}
    entries = [Entry(1, "created", created, 1.0)]
    entries += [Entry(len(entries) + 1, "joined",
                      {"seat": n, "player": n + 1, "name": names[n % len(names)]}, 2.0)
                for n in range(1, players)]
    first = True
    while not match.over:
        leader = None
        if match.rules.draws_for_lead(match.state):
            leader, _ = match.rules.draw_for_lead(rng, players)
        deal, stock = match.rules.deal(rng, players)
        match.start_hand(deal, stock, leader)
        data = {"deal": [[str(t) for t in hand] for hand in deal],
                "stock": [str(t) for t in stock], "leader": leader}
        entries.append(Entry(len(entries) + 1, "started" if first else "dealt", data, 3.0))
        first = False
        while match.hand_in_progress:
            seat = match.turn
            assert seat is not None
            move = view(match, seat).legal[0]
            match.apply(seat, move)
            entries.append(Entry(len(entries) + 1, "move",
                                 {"seat": seat, "move": str(move)}, 4.0))
    return entries


class Shelf:
    """A store that holds one table's log (what Previews reads of a public table)."""

    def __init__(self, code: str, entries: list[Entry]) -> None:
        self.code, self.entries = code, entries

    async def first_entries(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        return {self.code: self.entries[0].data} if self.code in codes else {}

    async def load(self, code: str) -> list[Entry]:
        return self.entries if code == self.code else []


def measure(label: str, variant: str, players: int, args: argparse.Namespace) -> None:
    """Print the preview's times for one match."""
    entries = played_log(variant, players, seed=7)
    code = "BENCH1"
    facts = match_facts(code, entries, "ht")
    assert facts is not None
    image = match_image(facts)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / f"{variant}.png").write_bytes(image)
    uncached, engine, drawing = [], [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        made = match_facts(code, entries, "ht")
        middle = time.perf_counter()
        assert made is not None
        match_image(made)
        end = time.perf_counter()
        uncached.append(end - start)
        engine.append(middle - start)
        drawing.append(end - middle)

    async def cached() -> list[float]:
        previews = Previews(Shelf(code, entries), "ht")  # type: ignore[arg-type]
        await previews.match_image(code)
        seconds = []
        for _ in range(args.repeats * 50):
            start = time.perf_counter()
            await previews.match_image(code)
            seconds.append(time.perf_counter() - start)
        return seconds

    hits = asyncio.run(cached())
    moves = sum(1 for e in entries if e.kind == "move")
    print(f"{label}: {facts.hands} hands, {moves} moves, PNG {len(image)} bytes; uncached p50 "
          f"{statistics.median(uncached) * 1000:.1f} ms max {max(uncached) * 1000:.1f} ms "
          f"(the log rebuilt by the engine {statistics.median(engine) * 1000:.1f} ms, drawn "
          f"and stored {statistics.median(drawing) * 1000:.1f} ms); cached p50 "
          f"{statistics.median(hits) * 1e6:.1f} µs max {max(hits) * 1e6:.1f} µs")


def main() -> None:
    """Measure both boards, then the yardstick."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--out", help="write each PNG into this folder, to look at")
    parser.add_argument("--yardstick-seconds", type=float, default=3.0)
    args = parser.parse_args()
    measure("haitian, 4 players (a line)", "haitian", 4, args)
    measure("mexican-train, 6 players (trains)", "mexican-train", 6, args)
    from playout import dominoes_hands, kabes_hands

    print("playout yardstick (bench/playout.py), random hands a CPU-second, this run: "
          f"dominoes 6.1.0 {dominoes_hands(args.yardstick_seconds):.0f}, "
          f"kabes fastline {kabes_hands(args.yardstick_seconds):.0f}")


if __name__ == "__main__":
    main()

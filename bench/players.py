"""A player's page: ``GET /api/players/{id}`` for a player with 10,000 matches and a two-year
rating history, on a real server.

Fills a fresh SQLite file through the store (its migrations), then bulk: one player with
``--matches`` matches (finished, each with a record of about 2 KB, an opponent, its seats and
scores, half of them public), ``--tournaments`` tournaments entered, each over with a place, and, in
``--variants`` variants, the rating history the store leaves after two years of daily play
(``--days``): one point a day before the latest 100 points, and the latest 100 whole (what
``kabes.server.store.history`` keeps however many hands were played). Then starts ``kabes
serve`` on that file (one worker, rate limits off) and asks for the player's page
``--requests`` times, one at a time, over HTTP on 127.0.0.1, and prints the time of each
answer as the client sees it (the server's time plus loopback HTTP: an upper bound on the
server's), p50 and p99, with the page's size; then the same page read by the store in this
process (no HTTP); then bench/playout.py's yardstick (the `dominoes` library's random hands a
CPU-second, and Kabès's fastline) measured after the run, each on a line of its own.

Goal: p50 under 50 ms at the server.

Run: .venv/bin/python bench/players.py [--matches 10000] [--days 730] [--variants 3]
                                       [--tournaments 200] [--requests 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx

from kabes.rules import VARIANTS
from kabes.server.store.history import DAY_SECONDS, KEPT_WHOLE, day_of
from kabes.server.store.schema import (
    match_players,
    matches,
    rating_history,
    ratings,
    tournament_players,
    tournaments,
)
from kabes.server.store.store import Store

sys.path.insert(0, str(Path(__file__).parent))
from strangers import Server, percentile

RECORD = json.dumps({"variant": "haitian", "players": 2, "options": {},
                     "hands": [{"moves": ["6-6"] * 120}],
                     "result": {"finished": True, "winners": [0]}})
"""A finished match's record, about 2 KB (the page never reads it; the rows are as large)."""


async def fill(url: str, args: argparse.Namespace) -> int:
    """The player whose page is measured, with their matches and history."""
    store = Store(url)
    await store.open()
    try:
        player = await store.create_guest("Roselène", "bench-token")
        rival = await store.create_guest("Wilner", "bench-rival")
        now = time.time()
        variants = sorted(VARIANTS)[: args.variants]
        async with store.engine.begin() as conn:
            step = 2 * 365 * DAY_SECONDS / args.matches
            rows = [{"code": f"B{n:06d}", "variant": variants[n % len(variants)], "players": 2,
                     "rated": True, "started_at": now - (args.matches - n) * step,
                     "finished_at": now - (args.matches - n) * step + 600, "finished": True,
                     "record": RECORD, "public": n % 2 == 0, "abandoned": n % 17 == 0,
                     "scores": json.dumps([100 + n % 50, n % 100]),
                     "seats": json.dumps([[player, "Roselène"], [rival, "Wilner"]])}
                    for n in range(args.matches)]
            await conn.execute(matches.insert(), rows)
            await conn.execute(match_players.insert(), [
                {"code": r["code"], "seat": seat, "player": who, "won": seat == n % 2,
                 "started_at": r["started_at"]}
                for n, r in enumerate(rows) for seat, who in ((0, player), (1, rival))])
            if args.tournaments:
                await conn.execute(tournaments.insert(), [
                    {"id": f"T{n:07d}", "host": rival, "public": n % 2 == 0, "status": "over",
                     "created_at": now - n * DAY_SECONDS, "updated_at": now - n * DAY_SECONDS,
                     "variant": variants[n % len(variants)], "host_name": "Wilner"}
                    for n in range(args.tournaments)])
                await conn.execute(tournament_players.insert(), [
                    {"tournament": f"T{n:07d}", "player": player, "place": 1 + n % 8,
                     "entrants": 8} for n in range(args.tournaments)])
            for variant in variants:
                await conn.execute(ratings.insert().values(
                    player=player, variant=variant, mu=30.0, sigma=2.0, hands=20_000,
                    hands_won=10_000, matches=args.matches, matches_won=args.matches // 2))
                times = [now - (args.days - d) * DAY_SECONDS for d in range(args.days)]
                times += [now - 3600 + 30 * n for n in range(KEPT_WHOLE)]
                await conn.execute(rating_history.insert(), [
                    {"player": player, "variant": variant, "at": at, "day": day_of(at),
                     "rating": 20.0 + (n % 50) / 10} for n, at in enumerate(times)])
        return player
    finally:
        await store.close()


async def in_process(url: str, player: int, requests: int) -> list[float]:
    """The page as the store reads it, in this process."""
    store = Store(url)
    await store.open()
    try:
        seconds = []
        for _ in range(requests):
            start = time.perf_counter()
            await store.player(player)
            seconds.append(time.perf_counter() - start)
        return seconds
    finally:
        await store.close()


def main() -> None:
    """Fill, serve, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--variants", type=int, default=3)
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--yardstick-seconds", type=float, default=3.0)
    args = parser.parse_args()
    server_args = argparse.Namespace(kabes="", computer_delay=0.1, workers=1, expert_budget=1.0)
    with tempfile.TemporaryDirectory(prefix="kabes-players-") as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'strangers.sqlite3'}"
        player = asyncio.run(fill(url, args))
        server = Server(server_args, Path(folder))
        try:
            server.wait_ready()
            seconds, size, points = [], 0, 0
            with httpx.Client(base_url=server.url, timeout=30) as client:
                for n in range(args.requests + 10):
                    start = time.perf_counter()
                    answer = client.get(f"/api/players/{player}")
                    took = time.perf_counter() - start
                    answer.raise_for_status()
                    if n >= 10:  # the first few warm the server's caches and pool
                        seconds.append(took)
                    size = len(answer.content)
                    points = sum(len(v) for v in answer.json()["history"].values())
        finally:
            server.kill()
        local = asyncio.run(in_process(url, player, args.requests))
    print(f"GET /api/players/{{id}}, {args.matches} matches (200 shown), {args.tournaments} "
          f"tournaments (50 shown), {args.variants} "
          f"variants x {args.days} days of history ({points} points), {size} bytes: "
          f"p50 {percentile(seconds, 0.5) * 1000:.1f} ms p99 "
          f"{percentile(seconds, 0.99) * 1000:.1f} ms over HTTP on 127.0.0.1 (goal < 50 ms)")
    print(f"  the store's read alone, in process: p50 {percentile(local, 0.5) * 1000:.1f} ms "
          f"p99 {percentile(local, 0.99) * 1000:.1f} ms")
    from playout import dominoes_hands, kabes_hands

    print("  playout yardstick (bench/playout.py), random hands a CPU-second, this run: "
          f"dominoes 6.1.0 {dominoes_hands(args.yardstick_seconds):.0f}, "
          f"kabes fastline {kabes_hands(args.yardstick_seconds):.0f}")


if __name__ == "__main__":
    main()

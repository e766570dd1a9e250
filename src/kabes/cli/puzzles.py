"""``kabes puzzles make`` and ``kabes puzzle``: find puzzles and keep them in the server's
store, and solve one in the terminal.

``make`` reads records (the computer's own matches, ``kabes.puzzles.matches``, and with
``--public`` the finished public matches the store keeps), finds the puzzles in each with
their proofs (``kabes.puzzles.find``) and stores them (kabes.server.store.puzzles; a puzzle
found twice is kept once). It reports, per variant, the records read, the puzzles found and
how many were new to the store, and the time taken.

``export`` finds puzzles the same way in the computer's matches, a fixed number for each
line variant at each seat count, and writes them to a gzip JSON file instead of a store: that
is how the starter set a new server loads is made (kabes.puzzles.starter).

``puzzle`` shows the daily puzzle (or, with ``--next``, one near the player's puzzle rating
not yet tried) from a store on this machine, asks for a move and says whether it solves the
puzzle, with the proof's numbers. The tries are kept in that store as a local player's
(``--player``, the login name by default), so streaks and ratings grow as on the server.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kabes.cli.words import say, variant_name
from kabes.errors import KabesError
from kabes.puzzles.find import find_puzzles
from kabes.puzzles.matches import computer_record, computer_records
from kabes.puzzles.model import MoveProof, Puzzle, move_class
from kabes.puzzles.prove import LINE_VARIANTS
from kabes.puzzles.starter import seatings, write
from kabes.rules import VARIANTS, get_rules
from kabes.server.http.puzzles_api import is_legal, local_today
from kabes.server.store.schema import matches
from kabes.server.store.store import Store, database_url

PUBLIC_AT_ONCE = 100
"""Public matches' records read from the store at a time."""


@dataclass
class Made:
    """What ``make`` did for one variant."""

    variant: str
    records: int = 0
    found: int = 0
    new: int = 0
    seconds: float = 0.0
    unreadable: int = 0


def line_variants(asked: Sequence[str] | None) -> list[str]:
    """The variants to look in: those asked for (each checked), else every line variant;
    ValueError naming one that is not a line variant."""
    if not asked:
        return [v for v in VARIANTS if v in LINE_VARIANTS]
    chosen: list[str] = []
    for part in asked:
        for name in (p.strip() for p in part.split(",")):
            if not name:
                continue
            if name not in LINE_VARIANTS:
                raise ValueError(f"{name!r} is not a line variant with puzzles: one of "
                                 + ", ".join(sorted(LINE_VARIANTS)))
            if name not in chosen:
                chosen.append(name)
    return chosen


async def _public_records(store: Store, variant: str) -> Iterator[dict[str, Any]]:
    """Every finished public match of ``variant`` the store keeps, read a hundred at a time
    (by code, so a large store is not held in memory)."""
    last = ""
    found: list[dict[str, Any]] = []
    async with store.engine.connect() as conn:
        while True:
            rows = (await conn.execute(
                sa.select(matches.c.code, matches.c.record)
                .where(matches.c.variant == variant, matches.c.public.is_(True),
                       matches.c.finished.is_(True), matches.c.abandoned.is_(False),
                       matches.c.record.is_not(None), matches.c.code > last)
                .order_by(matches.c.code).limit(PUBLIC_AT_ONCE))).all()
            if not rows:
                break
            last = str(rows[-1][0])
            found.extend({"code": str(c), **json.loads(r)} for c, r in rows)
    return iter(found)


def _puzzles_of(records: Iterable[tuple[str, dict[str, Any]]], made: Made) -> list[Puzzle]:
    """The puzzles of ``records``; a record that does not replay (a store's record written
    by an older server, say) is counted in ``made.unreadable`` and skipped."""
    found: list[Puzzle] = []
    for source, record in records:
        made.records += 1
        try:
            found.extend(find_puzzles({k: v for k, v in record.items() if k != "code"},
                                      source=source))
        except KabesError:
            made.unreadable += 1
    made.found += len(found)
    return found


async def make(db: str | None, records: int, variants: Sequence[str], seed: int,
               public: bool, tell: Callable[[Made], None]) -> list[Made]:
    """Find and store puzzles in ``records`` computer matches of each variant from
    ``seed`` (and, with ``public``, in the store's finished public matches); ``tell`` each
    variant's counts as it is done."""
    store = Store(database_url(db, Path.cwd()))
    await store.open()
    done: list[Made] = []
    try:
        for variant in variants:
            made = Made(variant)
            started = time.perf_counter()
            players = get_rules(variant).default_players
            computed = ((f"computer:{variant}:{seed + n}", record) for n, record in
                        enumerate(computer_records(variant, players, records, seed)))
            found = _puzzles_of(computed, made)
            if public:
                stored = await _public_records(store, variant)
                found += _puzzles_of(((f"match:{r['code']}", r) for r in stored), made)
            made.new = await store.puzzles.add(found)
            made.seconds = time.perf_counter() - started
            tell(made)
            done.append(made)
    finally:
        await store.close()
    return done


EXPORT_RECORDS = 2000
"""Most computer matches ``export`` reads for one seating before it gives up on finding
as many puzzles as asked (plaza's two seats give about one puzzle in four matches)."""


def export(path: Path, per_seating: int, variants: Sequence[str], seed: int,
           tell: Callable[[Made], None]) -> list[Made]:
    """Write to ``path`` the first ``per_seating`` puzzles found in the computer's matches
    from ``seed`` on (match ``i`` from seed ``seed + i``, as ``make``) for each line variant
    of ``variants`` at each seat count; ``tell`` each seating's counts as it is done. The
    same arguments always write the same file."""
    everything: list[Puzzle] = []
    done: list[Made] = []
    for variant, players in seatings():
        if variant not in variants:
            continue
        made = Made(f"{variant} {players}")
        started = time.perf_counter()
        kept: dict[str, Puzzle] = {}
        while len(kept) < per_seating and made.records < EXPORT_RECORDS:
            number = seed + made.records
            made.records += 1
            for puzzle in find_puzzles(computer_record(variant, players, number),
                                       source=f"computer:{variant}:{number}"):
                made.found += 1
                if len(kept) < per_seating:
                    kept.setdefault(puzzle.key, puzzle)
        made.new = len(kept)
        made.seconds = time.perf_counter() - started
        everything.extend(kept.values())
        tell(made)
        done.append(made)
    write(path, everything)
    return done


def made_table(done: Iterable[Made]) -> Table:
    """The counts of a ``make``: records read, puzzles found and new, per thousand, time."""
    table = Table("variant", "records", "puzzles", "new", "per 1,000", "seconds")
    for m in done:
        rate = 1000 * m.found / m.records if m.records else 0.0
        table.add_row(m.variant, str(m.records), str(m.found), str(m.new), f"{rate:.0f}",
                      f"{m.seconds:.1f}")
    return table


# Solving one in the terminal -----------------------------------------------------------


def explanation(puzzle: Puzzle, tried: str) -> str:
    """The answer in words with the proof's numbers, in the catalog's words that the web page
    uses too: "Whatever they hold, 5-5@L is best: in all 1,680 deals it scores at least as
    well. 6-5@R loses up to 20 in 560 of them." """
    best = puzzle.solution[0]
    deals = puzzle.proof.deals
    text = (say("puzzle.why_one", move=best) if deals == 1
            else say("puzzle.why", move=best, deals=f"{deals:,}"))
    judged = proof_of(puzzle, tried)
    if judged is not None and judged.behind and not puzzle.solves(tried):
        key = "puzzle.loses_one" if deals == 1 else "puzzle.loses"
        text += " " + say(key, move=tried, points=judged.most_behind, count=f"{judged.behind:,}")
    return text


def proof_of(puzzle: Puzzle, move: str) -> MoveProof | None:
    """The proof's numbers of ``move``, however it is written (``6-3@L`` is ``3-6@L``)."""
    ends = puzzle.view.get("ends")
    wanted = move_class(move, ends)
    return next((m for m in puzzle.proof.moves if move_class(m.move, ends) == wanted), None)


def position_text(puzzle: Puzzle) -> Text:
    """The position as the seat sees it: the line and its ends, the others' tiles, the
    passes, the seat's hand and its legal moves numbered."""
    seen = puzzle.view
    lines = [f"{variant_name(puzzle.variant)} · seat {puzzle.seat} to move"]
    line = " ".join(f"[{t.replace('-', '|')}]" for t in seen.get("line") or [])
    lines.append(f"Line: {line or '(empty)'}")
    ends = seen.get("ends")
    if ends:
        lines.append(f"Ends: {ends[0]} and {ends[1]}")
    counts = seen.get("counts") or []
    lines.append("Tiles held: " + ", ".join(
        ("you" if s == puzzle.seat else f"seat {s}") + f" {n}" for s, n in enumerate(counts)))
    for seat, numbers in seen.get("passes") or []:
        lines.append(f"Seat {seat} passed on {', '.join(str(n) for n in numbers)}")
    lines.append("Your hand: " + " ".join(f"[{t.replace('-', '|')}]"
                                          for t in seen.get("hand") or []))
    for n, move in enumerate(seen.get("legal") or [], start=1):
        lines.append(f"  {n}. {move}")
    return Text("\n".join(lines))


def chosen_move(puzzle: Puzzle, answer: str) -> str | None:
    """The move an answer names: a number of the list, or a move written out."""
    legal = [str(m) for m in puzzle.view.get("legal") or []]
    text = answer.strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    return text if text and is_legal(puzzle, text) else None


async def solve(db: str | None, player_name: str, variant: str | None, following: bool,
                console: Console, ask: Callable[[str], str]) -> int:
    """Show a puzzle, ask a move until a legal one is given, judge it and explain. The exit
    status: 0 solved, 1 not solved, 2 no puzzle to show."""
    store = Store(database_url(db, Path.cwd()))
    await store.open()
    try:
        token = f"terminal:{player_name}"
        found = await store.player_by_token(token)
        player = found[0] if found else await store.create_guest(player_name, token)
        got = (await store.puzzles.next_for(player, variant) if following
               else await store.puzzles.daily(local_today(), variant))
        if got is None:
            console.print("[red]No puzzle to show: make some with 'kabes puzzles make'.[/red]")
            return 2
        key, data = got
        puzzle = Puzzle.from_dict(data)
        console.print(Text("Your move.", style="bold"))
        console.print(position_text(puzzle))
        move = None
        while move is None:
            move = chosen_move(puzzle, ask("Your move (number or move): "))
            if move is None:
                console.print("[yellow]That is not one of the legal moves.[/yellow]")
        correct = puzzle.solves(move)
        tried = await store.puzzles.attempt(player, key, move, correct)
        console.print(Text("Correct!" if correct else "Not the best move.",
                           style="bold green" if correct else "bold red"))
        console.print(explanation(puzzle, move))
        for m in puzzle.proof.moves:
            console.print(f"  {m.move}: worst {m.worst}, best {m.best}, mean {m.mean:.1f}")
        card = tried.card
        console.print(f"Puzzle rating {card['rating']:.2f} · streak {card['streak']}"
                      + ("" if tried.first else " (tried before: this try is not counted)"))
        return 0 if correct else 1
    finally:
        await store.close()


def run(coro: Any) -> Any:
    """Run a command's work on a fresh event loop."""
    return asyncio.run(coro)

"""``kabes puzzles make`` and ``kabes puzzle`` (issue 28): make finds puzzles in the
computer's matches (and with ``--public`` in the store's finished public matches), keeps each
once and prints per variant the records read and puzzles found; ``puzzle`` shows the daily
puzzle from the store, takes a move, says whether it solves the puzzle with the proof's
numbers, and counts only the first try. Few records of the quick two-seat variants, so that
the proofs take a second."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from kabes.cli.app import app
from kabes.puzzles.matches import computer_record
from kabes.puzzles.model import Puzzle
from kabes.server.store.schema import matches, puzzles
from kabes.server.store.store import Store

runner = CliRunner()
VARIANTS = "haitian,plaza"


def db_of(folder: Path) -> str:
    return f"sqlite:///{folder / 'puzzles.sqlite3'}"


def stored(folder: Path) -> list[Puzzle]:
    engine = sa.create_engine(db_of(folder))
    with engine.connect() as conn:
        rows = conn.execute(sa.select(puzzles.c.data)).scalars().all()
    engine.dispose()
    return [Puzzle.from_dict(json.loads(r)) for r in rows]


def counts(output: str) -> dict[str, tuple[int, int, int]]:
    """variant -> (records read, found, new) from make's lines."""
    return {m[0]: (int(m[1]), int(m[2]), int(m[3])) for m in re.findall(
        r"^(\S+): (\d+) records read, (\d+) puzzles found, (\d+) new", output, re.M)}


@pytest.fixture(name="made", scope="module")
def made_fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("puzzles")
    result = runner.invoke(app, ["puzzles", "make", "--records", "3", "--variants", VARIANTS,
                                 "--seed", "5", "--db", db_of(folder)])
    assert result.exit_code == 0, result.output
    return folder, result.output


def test_make_reports_records_read_and_puzzles_found_per_variant_and_stores_them(
        made: tuple[Path, str]) -> None:
    folder, output = made
    found = counts(output)
    assert set(found) == {"haitian", "plaza"}
    assert all(read == 3 for read, _, _ in found.values())
    kept = stored(folder)
    assert len(kept) == sum(new for _, _, new in found.values()) > 0
    assert {p.variant for p in kept} <= {"haitian", "plaza"}
    assert all(p.solution and p.proof.deals >= 1 for p in kept)


def test_make_again_keeps_each_puzzle_once(made: tuple[Path, str]) -> None:
    folder, _ = made
    before = len(stored(folder))
    again = runner.invoke(app, ["puzzles", "make", "--records", "3", "--variants", VARIANTS,
                                "--seed", "5", "--db", db_of(folder)])
    assert again.exit_code == 0, again.output
    assert all(new == 0 for _, _, new in counts(again.output).values())
    assert len(stored(folder)) == before


def test_make_refuses_a_variant_without_puzzles_and_stores_nothing(tmp_path: Path) -> None:
    result = runner.invoke(app, ["puzzles", "make", "--records", "1", "--variants",
                                 "mexican-train", "--db", db_of(tmp_path)])
    assert result.exit_code == 2
    assert "mexican-train" in result.output and "line variant" in result.output
    assert not (tmp_path / "puzzles.sqlite3").exists()


def test_make_public_reads_the_finished_public_matches_of_the_store_and_skips_a_broken_one(
        tmp_path: Path) -> None:
    record = computer_record("haitian", 2, 1)  # a match with a puzzle in it

    async def keep() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'puzzles.sqlite3'}")
        await store.open()
        async with store.engine.begin() as conn:
            broken = {**record, "hands": [{**record["hands"][0], "moves": ["9-9@L"]}]}
            for code, public, kept in (("PUB1", True, record), ("PRIV", False, record),
                                       ("PUB2", True, broken)):
                await conn.execute(matches.insert().values(
                    code=code, variant="haitian", players=2, rated=False,
                    started_at=time.time(), finished_at=time.time(), finished=True,
                    record=json.dumps(kept), public=public))
        await store.close()

    asyncio.run(keep())
    result = runner.invoke(app, ["puzzles", "make", "--records", "0", "--variants", "haitian",
                                 "--public", "--db", db_of(tmp_path)])
    assert result.exit_code == 0, result.output
    read, found, _ = counts(result.output)["haitian"]
    assert read == 2
    assert "1 records did not replay and were skipped" in said(result)
    assert found >= 1
    kept = stored(tmp_path)
    assert len(kept) == found
    assert all(p.source.startswith("match:PUB1") for p in kept)


def daily_of(folder: Path, output: str) -> Puzzle:
    legal = re.findall(r"^\s+\d+\. (\S+)$", output, re.M)
    return next(p for p in stored(folder) if p.view["legal"] == legal)


def play(folder: Path, answers: str, player: str = "Roselène") -> Any:
    return runner.invoke(app, ["puzzle", "--db", db_of(folder), "--player", player],
                         input=answers)


def said(result: Any) -> str:
    """The output with Rich's line wrapping undone."""
    return " ".join(str(result.output).split())


def test_puzzle_in_the_terminal_judges_the_move_and_explains_with_the_proof(
        made: tuple[Path, str]) -> None:
    folder, _ = made
    shown = play(folder, "99\n1\n", player="first look")
    puzzle = daily_of(folder, shown.output)
    right = play(folder, f"{puzzle.solution[0]}\n", player="Ana")
    assert right.exit_code == 0, right.output
    assert "Correct" in right.output
    deals = puzzle.proof.deals
    assert (f"in all {deals:,} deals" if deals > 1 else "Every tile is known") in said(right)
    assert "That is not one of the legal moves" in shown.output
    wrong = next((m for m in puzzle.view["legal"] if not puzzle.solves(m)), None)
    if wrong is not None:
        missed = play(folder, f"{wrong}\n", player="Ben")
        assert missed.exit_code == 1 and "Not the best move" in missed.output
        assert f"{wrong} loses" in said(missed)


def test_a_second_try_in_the_terminal_is_not_counted(made: tuple[Path, str]) -> None:
    folder, _ = made
    first = play(folder, "1\n", player="Cléo")
    second = play(folder, "1\n", player="Cléo")
    assert "not counted" not in first.output
    assert "not counted" in second.output
    rating = re.compile(r"Puzzle rating (-?[\d.]+) · streak (\d+)")
    assert rating.findall(first.output) == rating.findall(second.output)


def test_puzzle_without_puzzles_says_so_and_exits_2(tmp_path: Path) -> None:
    result = play(tmp_path, "")
    assert result.exit_code == 2
    assert "kabes puzzles make" in result.output


def test_export_writes_the_asked_puzzles_per_seating_sorted_and_the_same_file_again(
        tmp_path: Path) -> None:
    from kabes.puzzles.starter import read

    files = [tmp_path / "one.json.gz", tmp_path / "two.json.gz"]
    for file in files:
        result = runner.invoke(app, ["puzzles", "export", str(file), "--puzzles", "2",
                                     "--variants", "plaza", "--seed", "1"])
        assert result.exit_code == 0, result.output
    assert "Wrote 2 puzzles" in result.output
    assert files[0].read_bytes() == files[1].read_bytes()
    written = read(files[0])
    assert [p.key for p in written] == sorted(p.key for p in written)
    assert {(p.variant, p.players) for p in written} == {("plaza", 2)}
    assert all(p.source.startswith("computer:plaza:") for p in written)


def test_export_refuses_a_variant_without_puzzles_and_writes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "set.json.gz"
    result = runner.invoke(app, ["puzzles", "export", str(file), "--variants", "mexican-train"])
    assert result.exit_code != 0
    assert "mexican-train" in result.output and "line variant" in result.output
    assert not file.exists()

"""The puzzles page (/puzzles; PROTOCOL.md and UI.md "Puzzles"; issue 28) on a small phone
(360 x 740) in three languages: the daily puzzle is drawn as at the table with its line on
top, the same puzzle for everyone; a tap on a tile plays the move; the answer comes green or
red with the proof's numbers in words; "Next puzzle" (data-action="puzzle-next") loads
another; home leads to it and the player's page shows the puzzle card; nothing scrolls
sideways, no key or overflow shows, axe finds nothing serious.

The puzzles are real: found and proven by kabes.puzzles in the computer's matches (a few
partnership matches and a quick haitian one), stored as ``kabes puzzles make`` stores them,
then the real server opens on that store."""

from __future__ import annotations

import asyncio
import json
import subprocess
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from browsing import register, shot, start_server
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for

from kabes.puzzles.find import find_puzzles
from kabes.puzzles.matches import computer_record
from kabes.puzzles.model import Puzzle
from kabes.server.store.store import Store

SMALL_PHONE = {"width": 360, "height": 740}
I18N = Path(__file__).resolve().parents[2] / "src" / "kabes" / "words" / "catalogs"
PEOPLE = (("en", "en-US", "Roselène"), ("fr", "fr-FR", "Anne-Sophie"), ("ht", "ht-HT", "Bòs"))


def words(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.fixture(name="found", scope="module")
def found_fixture() -> list[Puzzle]:
    """Real puzzles, found once for the module: positions with few unseen tiles, so that
    proving them takes a moment."""
    puzzles: list[Puzzle] = []
    for seed in range(1, 5):
        puzzles += find_puzzles(computer_record("partnership", 4, seed), source=f"test:p{seed}",
                                max_unseen=6)
    puzzles += find_puzzles(computer_record("haitian", 2, 1), source="test:h1")
    unique = list({p.key: p for p in puzzles}.values())
    assert len(unique) >= 2, "too few puzzles found to play the page"
    return unique


def keep(db: Path, puzzles: list[Puzzle]) -> None:
    async def fill() -> None:
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        await store.puzzles.add(puzzles)
        await store.close()

    # In a thread of its own: the browser's tests run inside Playwright's event loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, fill()).result()


def daily_id(base: str) -> str:
    with urllib.request.urlopen(f"{base}/api/puzzles/daily") as reply:
        return str(json.load(reply)["id"])


def tap_first_move(page: Any, puzzle: Puzzle) -> str:
    """Tap the tile of the first legal move, and its end when it fits two; the move made."""
    move: str = puzzle.view["legal"][0]
    tile, _, place = move.partition("@")
    low, high = sorted(int(n) for n in tile.split("-"))
    page.click(f'[data-tile="{low}-{high}"]')
    if page.locator("[data-place]").count():
        page.click(f'[data-place="{place}"]')
    return move


def number(page: Any, n: int, lang: str) -> str:
    """``n`` as the page writes it in ``lang`` (Intl's digits and grouping)."""
    return str(page.evaluate("([n, l]) => new Intl.NumberFormat(l).format(n)", [n, lang]))


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def check_screen(page: Any, name: str) -> None:
    page.wait_for_timeout(150)
    shot(page, name)
    problems = layout_problems(page)
    assert not problems, f"{name}: " + "; ".join(problems)
    assert not shown_keys(page), f"{name} shows translation keys: {shown_keys(page)}"
    assert no_sideways_scroll(page), f"{name} scrolls sideways"
    bad = axe_violations(page)
    assert not bad, f"{name}: " + "; ".join(bad)


def test_the_daily_puzzle_is_played_by_a_tap_answered_with_its_proof_and_followed_by_another(
        tmp_path: Path, new_page: Any, js_errors: list[str], found: list[Puzzle]) -> None:
    keep(tmp_path / "web.db", found)
    proc, base = start_server(tmp_path)
    by_key = {p.key: p for p in found}
    missing: list[str] = []
    try:
        daily = daily_id(base)
        for lang, locale, name in PEOPLE:
            say = words(lang)
            page = new_page(viewport=SMALL_PHONE, locale=locale)
            page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
            register(page, base, name, "/puzzles")
            page.wait_for_selector(f'main[data-puzzle="{daily}"]')
            puzzle = by_key[daily]
            line = page.locator("#puzzle-line").inner_text()
            assert line.startswith(say["puzzle.line_plain"].split("{")[0].strip()), line
            assert "{" not in line
            page.wait_for_selector(".status.mine")
            check_screen(page, f"puzzle-{lang}")

            move = tap_first_move(page, puzzle)
            verdict = ".feedback.right" if puzzle.solves(move) else ".feedback.wrong"
            page.wait_for_selector(verdict)
            said = page.locator(".feedback").inner_text()
            assert say["puzzle.right" if puzzle.solves(move) else "puzzle.wrong"] in said
            if puzzle.proof.deals > 1:
                assert number(page, puzzle.proof.deals, lang) in said, said
            for other in puzzle.proof.moves:
                if other.behind:
                    # How far it falls behind, always; in how many deals, when there are
                    # several (a one-deal proof says "loses 34", not "in 1 of 1 deals").
                    shown = [other.most_behind] + ([other.behind] if puzzle.proof.deals > 1 else [])
                    for n in shown:
                        assert number(page, n, lang) in said, said
            check_screen(page, f"puzzle-answer-{lang}")

            page.click("[data-action=puzzle-next]")
            wait_for(page, "(d) => { const m = document.querySelector('main[data-puzzle]');"
                     " return m && m.dataset.puzzle !== d; }", arg=daily)
            assert page.locator(".feedback.right, .feedback.wrong").count() == 0
            page.wait_for_selector(".status.mine")
            check_screen(page, f"puzzle-next-{lang}")

            # Home leads here, and the player's page now shows the puzzle card: one tried,
            # solved or not as the answer said.
            page.goto(base + "/")
            page.click("[data-action=puzzles]")
            page.wait_for_selector(f'main[data-puzzle="{daily}"]')
            page.goto(base + "/")
            page.click("[data-action=my-page]")
            card = page.locator(".player-puzzles [data-tried]")
            card.wait_for()
            assert card.get_attribute("data-tried") == "1"
            assert card.get_attribute("data-solved") == ("1" if puzzle.solves(move) else "0")
            assert "null" not in page.locator("main").inner_text().split()
            check_screen(page, f"puzzle-player-{lang}")
        # Home asks for the offline pack, which a source tree without npm's pieces lacks.
        assert all("/offline/" in url for url in missing), missing
        assert not [e for e in js_errors if "404 (Not Found)" not in e], js_errors
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

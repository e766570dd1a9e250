"""A player's page (/p/ID; PROTOCOL.md "Players, replays and rankings", UI.md "A place that
remembers"): the rating of each variant with a chart of its history (data-chart="rating", a
point for each point of GET /api/players/{id}'s history), the matches played and won, the
recent matches saying won, lost or abandoned in words; one's own page adds each match's replay
link and the phone settings. The store is filled as the server itself fills it (Store.append
with the effects a table makes), then the real server opens on it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from browsing import register, shot, start_server

from kabes.server.store.store import Store
from kabes.table.effects import HandRated, MatchFinished, MatchStarted
from kabes.table.entries import Entry

HANDS = 10  # rated hands of haitian between Anne-Sophie and Bòs: both ranked


async def fill(db: Path) -> tuple[int, int]:
    """Two guests; a haitian match of HANDS rated hands Anne-Sophie wins, one she loses, one
    left unfinished."""
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.open()
    try:
        anne = await store.create_guest("Anne-Sophie Jean-Baptiste", "token-anne")
        bos = await store.create_guest("Bòs", "token-bos")
        seq = 0

        def entry() -> Entry:
            nonlocal seq
            seq += 1
            return Entry(seq, "move", {"seq": seq}, 1_700_000_000.0 + seq, 0, f"a{seq}")

        for code, winner in (("WONMTCH", anne), ("LOSTMCH", bos), ("LEFTMCH", None)):
            seq = 0
            await store.append(code, entry(), [
                MatchStarted(code, "haitian", 2, [(0, anne), (1, bos)], True)])
            hands = HANDS if code == "WONMTCH" else 0
            for hand in range(hands):
                won = anne if hand % 3 else bos
                await store.append(code, entry(), [HandRated(
                    "haitian", [[anne], [bos]], [1, 2] if won == anne else [2, 1], [won])])
            if winner is not None:
                await store.append(code, entry(), [MatchFinished(
                    code, "haitian", [winner], {"code": code}, True, [anne, bos])])
        return anne, bos
    finally:
        await store.close()


def api_player(base: str, player: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/api/players/{player}", timeout=5) as answer:
        found: dict[str, Any] = json.load(answer)
    return found


def test_a_players_page_charts_the_history_and_says_each_matchs_outcome(
    tmp_path: Path, new_page: Any, js_errors: list[str]
) -> None:
    with ThreadPoolExecutor(1) as aside:  # Playwright's loop holds this thread
        anne, _ = aside.submit(asyncio.run, fill(tmp_path / "web.db")).result()
    proc, base = start_server(tmp_path)
    try:
        found = api_player(base, anne)
        points = found["history"]["haitian"]
        assert len(points) == HANDS

        stranger = new_page()
        register(stranger, base, "Mireille", f"/p/{anne}")  # a visitor names themself first
        stranger.wait_for_selector("[data-chart=rating]")
        assert stranger.locator("h1.player-name").inner_text() == "Anne-Sophie Jean-Baptiste"
        chart = stranger.locator("[data-variant=haitian] [data-chart=rating]")
        assert chart.get_attribute("data-points") == str(HANDS)
        drawn = chart.locator("polyline").get_attribute("points") or ""
        assert len(drawn.split()) == HANDS, "a point drawn for each point of the history"
        rating = stranger.locator("[data-variant=haitian] .player-rating").inner_text()
        assert rating == str(round(found["ratings"]["haitian"]))
        counts = stranger.locator("[data-variant=haitian] .player-counts")
        assert (counts.get_attribute("data-matches"), counts.get_attribute("data-won")) == (
            "3", "1")
        assert counts.inner_text() == "1 won of 3 matches"
        words = stranger.locator(".match-outcome").all_inner_texts()
        assert sorted(words) == ["Abandoned", "Lost", "Won"]
        assert stranger.locator("[data-replay]").count() == 0, "codes are the player's own"
        assert stranger.locator("[data-action=logout-everywhere]").count() == 0

        stranger.goto(base + "/")  # the rankings card's names open the players' pages
        stranger.select_option("#rank-variant", "haitian")
        stranger.click(f".rank-table a[data-player='{anne}']")
        stranger.wait_for_url(f"{base}/p/{anne}")
        stranger.wait_for_selector("[data-chart=rating]")

        own = new_page()
        own.goto(base + "/")
        own.evaluate(
            "(who) => localStorage.setItem('kabes.identity', JSON.stringify(who))",
            {"player": anne, "name": "Anne-Sophie Jean-Baptiste", "token": "token-anne"})
        own.goto(base + "/")  # home links to one's own page
        own.click("[data-action=my-page]")
        own.wait_for_selector("[data-action=logout-everywhere]")
        replays = own.locator("[data-replay]")
        hrefs = replays.evaluate_all("(rows) => rows.map((r) => r.getAttribute('href'))")
        assert sorted(hrefs) == ["/r/LEFTMCH", "/r/LOSTMCH", "/r/WONMTCH"]
        shot(own, "player-page-own")
        own.click("[data-action=link-device]")
        own.wait_for_selector(".link-code")
        own.click("[data-action=close]")
        name = own.locator("h1.player-name")
        box = name.bounding_box()
        assert box is not None and box["height"] < 60, "the name on one line, never broken"
        assert own.locator("[data-action=logout-everywhere]").bounding_box()["height"] >= 44
        own.on("dialog", lambda dialog: dialog.accept())
        own.click("[data-action=logout-everywhere]")
        own.wait_for_url(base + "/")
        request = urllib.request.Request(
            f"{base}/api/me", headers={"Authorization": "Bearer token-anne"})
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("the token still works after logging out everywhere")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401
        assert js_errors == []
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

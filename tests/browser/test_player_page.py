"""A player's page (/p/ID; PROTOCOL.md "Players, replays and rankings", UI.md "A place that
remembers"): the rating of each variant with a chart of its history (data-chart="rating", a
point for each point of GET /api/players/{id}'s history), the hands and matches played and
won, the recent matches each a row (variant, opponents, score, and won, lost, abandoned or in
play in words) opening its replay where its code is known (a public match's for anyone), the
tournaments entered with their places, each opening its page; one's own page adds the private
matches' replay links and the phone settings. axe finds nothing serious on either. The store
is filled as the server itself fills it (Store.append with the effects a table makes), then
the real server opens on it."""

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
from checks import axe_violations, layout_problems, shown_keys

from kabes.server.store.store import Store
from kabes.server.tournaments.store import TournamentStore
from kabes.table.effects import HandRated, MatchFinished, MatchStarted
from kabes.table.entries import Entry

HANDS = 10  # rated hands of haitian between Anne-Sophie and Bòs: both ranked


async def fill(db: Path) -> tuple[int, int]:
    """Two guests; haitian matches: a public one of HANDS rated hands Anne-Sophie wins, one
    she loses, one abandoned, one in play; a public tournament she came second of 4 in, and a
    private one running."""
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.open()
    try:
        anne = await store.create_guest("Anne-Sophie Jean-Baptiste", "token-anne")
        bos = await store.create_guest("Bòs", "token-bos")
        seats: list[tuple[int | None, str | None]] = [
            (anne, "Anne-Sophie Jean-Baptiste"), (bos, "Bòs")]
        seq = 0

        def entry() -> Entry:
            nonlocal seq
            seq += 1
            return Entry(seq, "move", {"seq": seq}, 1_700_000_000.0 + seq, 0, f"a{seq}")

        for code, winner in (("WONMTCH", anne), ("LOSTMCH", bos), ("GONEMCH", None),
                             ("LEFTMCH", None)):
            seq = 0
            await store.append(code, entry(), [MatchStarted(
                code, "haitian", 2, [(0, anne), (1, bos)], True, code == "WONMTCH", seats)])
            hands = HANDS if code == "WONMTCH" else 0
            for hand in range(hands):
                won = anne if hand % 3 else bos
                await store.append(code, entry(), [HandRated(
                    "haitian", [[anne], [bos]], [1, 2] if won == anne else [2, 1], [won])])
            result: dict[str, Any] = {"finished": True, "winners": [0], "scores": [100, 40],
                                      "kochon": False}
            if winner == bos:
                result.update(winners=[1], scores=[35, 100])
            if code == "GONEMCH":
                result.update(finished=False, winners=[], scores=[12, 20], abandoned=True)
            if code != "LEFTMCH":
                await store.append(code, entry(), [MatchFinished(
                    code, "haitian", [] if winner is None else [winner], {"result": result},
                    winner is not None, [anne, bos])])
        tours = TournamentStore(store)
        for tid, public in (("TOURPUB1", True), ("TOURPRIV", False)):
            await tours.create(tid, bos, public, {
                "variant": "haitian", "players": 2, "options": {}, "format": "swiss",
                "rounds": 1, "public": public, "host": bos, "name": "Bòs"})
            await tours.append(tid, 1, [
                ("entered", {"player": anne, "name": "Anne-Sophie", "partner": None})], "open")
        await tours.append("TOURPUB1", 2, [("started", {})], "running", entrants={anne})
        await tours.append("TOURPUB1", 3, [("over", {})], "over", entrants={anne},
                           places={anne: 2}, of=4)
        await tours.append("TOURPRIV", 2, [("started", {})], "running", entrants={anne})
        return anne, bos
    finally:
        await store.close()


def hrefs(page: Any, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(
        "(rows) => rows.map((r) => r.getAttribute('href')).sort()")
    return found


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
        stranger.goto(f"{base}/p/{anne}")  # a link opened before giving a name (pages.js: open)
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
            "2", "1"), "rated matches: the abandoned and the one in play count in none"
        assert counts.inner_text() == "1 won of 2 matches"
        hands = stranger.locator("[data-variant=haitian] .player-hands")
        assert hands.inner_text() == "6 hands won of 10"
        words = stranger.locator(".match-outcome").all_inner_texts()
        assert sorted(words) == ["Abandoned", "In play", "Lost", "Won"]
        won = stranger.locator(".match-row:has([data-outcome=won])")
        assert won.locator(".match-who").inner_text() == "vs Bòs"
        assert won.locator(".match-score").inner_text() == "100 \u2013 40"
        lost = stranger.locator(".match-row:has([data-outcome=lost])")
        assert lost.locator(".match-score").inner_text() == "35 \u2013 100", "one's own score first"
        assert hrefs(stranger, "[data-replay]") == ["/r/WONMTCH"], (
            "a public match opens its replay for anyone; a private one's code is the player's")
        assert won.get_attribute("href") == "/r/WONMTCH"
        tours = stranger.locator(".player-tournaments li")
        assert tours.count() == 2
        assert hrefs(stranger, "[data-tournament]") == ["/c/TOURPUB1"]
        placed = stranger.locator("[data-tournament=TOURPUB1] .tour-place")
        assert (placed.get_attribute("data-place"), placed.inner_text()) == ("2", "Place 2 of 4")
        assert "In play" in tours.all_inner_texts()[0] + tours.all_inner_texts()[1]
        assert stranger.locator("[data-action=logout-everywhere]").count() == 0
        assert not layout_problems(stranger) and not shown_keys(stranger)
        assert not axe_violations(stranger), "a player's page seen by a stranger"
        shot(stranger, "player-page-stranger")
        stranger.click("[data-tournament=TOURPUB1]")
        stranger.wait_for_url(f"{base}/c/TOURPUB1")

        register(stranger, base, "Mireille")  # home asks a name; its rankings card's names
        # open the players' pages
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
        assert hrefs(own, "[data-replay]") == [
            "/r/GONEMCH", "/r/LEFTMCH", "/r/LOSTMCH", "/r/WONMTCH"]
        assert hrefs(own, "[data-tournament]") == ["/c/TOURPRIV", "/c/TOURPUB1"]
        assert not axe_violations(own), "one's own page"
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


def test_the_rankings_card_shows_the_variant_picked_last_whatever_order_the_answers_come_in(
    tmp_path: Path, new_page: Any, js_errors: list[str]
) -> None:
    # The card asks for its first variant as it opens; a player who picks another at once
    # can get the second answer first. The first, answered late, must not fill the table.
    with ThreadPoolExecutor(1) as aside:  # Playwright's loop holds this thread
        anne, _ = aside.submit(asyncio.run, fill(tmp_path / "web.db")).result()
    proc, base = start_server(tmp_path)
    try:
        page = new_page()
        held: list[Any] = []

        def hold_the_first(route: Any) -> None:
            if held:
                route.continue_()
            else:
                held.append(route)  # answered below, after the pick's answer is shown

        page.route("**/api/rankings/**", hold_the_first)
        register(page, base, "Mireille")
        page.wait_for_function("() => document.querySelector('#rank-variant') !== null")
        # The card may be drawn before its request reaches the route: Playwright hands the
        # route over on its own loop, which turns while this thread waits on the page.
        for _ in range(250):
            if held:
                break
            page.wait_for_timeout(20)
        assert held and "/api/rankings/haitian" not in held[0].request.url
        page.select_option("#rank-variant", "haitian")
        page.wait_for_selector(f".rank-table a[data-player='{anne}']")
        with page.expect_response(lambda reply: reply.url == held[0].request.url):
            held[0].continue_()
        page.wait_for_timeout(500)  # the late answer read and, before the fix, shown
        assert page.locator(f".rank-table a[data-player='{anne}']").count() == 1, (
            "the table shows the variant picked last")
        assert js_errors == []
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

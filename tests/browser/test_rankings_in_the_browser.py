"""The rankings page (/rankings/VARIANT, issue 27) on a phone (360 x 740), against a real
`kabes serve` whose SQLite store holds 61 ranked players (rated hands written through the
store, as the tables write them): 50 rows a page, the next page, the caller's place
highlighted and reached in one tap from page 1, the rule stated, a long name cut with an
ellipsis on one line; and the home card's rankings link opens the page."""

from __future__ import annotations

import asyncio
import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from browsing import register, shot, start_server
from checks import axe_violations, layout_problems, shown_keys

from kabes.server.common.metrics import Metrics
from kabes.server.store.store import Store
from kabes.table.effects import HandRated
from kabes.table.entries import Entry
from kabes.table.rankings import RANKED_AFTER_HANDS

SMALL = {"width": 360, "height": 740}
OTHERS = 60
MY_RANK = 55
"""Where the caller's hands place them among the 61 (page 2)."""
LONG_NAME = "Wolfeschlegelsteinhausen"


async def rank_field(db: Path, me: int) -> None:
    """60 other players and ``me``, every one in ``RANKED_AFTER_HANDS`` hands together, the
    caller finishing 55th each time."""
    store = Store(f"sqlite+aiosqlite:///{db}", Metrics(), server_id="rankings-test")
    await store.open()
    try:
        others = [await store.create_guest(LONG_NAME if n == 0 else f"Player {n}", f"tok-{n}")
                  for n in range(OTHERS)]
        field = [*others[:MY_RANK - 1], me, *others[MY_RANK - 1:]]
        for seq in range(1, RANKED_AFTER_HANDS + 1):
            await store.append("RANKWEB", Entry(seq, "move", {"seq": seq}, 1.7e9 + seq, 0,
                                                f"w{seq}"),
                               [HandRated("haitian", [[p] for p in field],
                                          list(range(1, len(field) + 1)), [field[0]])])
    finally:
        await store.close()


def test_rankings_pages_and_my_place(tmp_path: Path, new_page: Any,
                                     js_errors: list[str]) -> None:
    proc, base = start_server(tmp_path)
    try:
        page = new_page(viewport=SMALL, locale="en-US", reduced_motion="reduce")
        register(page, base, "Me Myself")
        page.wait_for_selector("[data-action=all-rankings]")
        me = json.loads(page.evaluate("localStorage.getItem('kabes.identity')"))["player"]
        with ThreadPoolExecutor(1) as aside:  # Playwright's loop holds this thread
            aside.submit(asyncio.run, rank_field(tmp_path / "web.db", me)).result()

        # The home card links to the variant's whole list.
        page.reload()
        page.wait_for_selector(".rank-table :is(table, p)")
        assert not axe_violations(page), "home with its rankings link"
        page.select_option("#rank-variant", "haitian")
        page.click("[data-action=all-rankings]")
        page.wait_for_url("**/rankings/haitian")
        page.wait_for_selector(".rank-page tbody tr")
        rows = page.locator(".rank-page tbody tr")
        assert rows.count() == 50
        assert rows.first.get_attribute("data-place") == "1"
        assert page.locator("tr.mine").count() == 0, "my place is on page 2"
        rule = page.locator("[data-rule=ranked]").inner_text()
        assert f"after {RANKED_AFTER_HANDS} rated hands" in rule
        assert page.locator("[data-action=rank-prev]").is_disabled()

        # A long name stays on one line, cut with an ellipsis.
        cell = page.locator(".rank-page tbody tr").first.locator(".rank-name")
        assert LONG_NAME in cell.inner_text()
        cut = cell.evaluate("e => [getComputedStyle(e).textOverflow, getComputedStyle(e)"
                            ".whiteSpace, e.getBoundingClientRect().height]")
        assert cut[:2] == ["ellipsis", "nowrap"] and 44 <= cut[2] < 60, cut
        assert not layout_problems(page) and not shown_keys(page)
        assert not axe_violations(page), "the rankings page"
        shot(page, "rankings-page1-en-360")

        # Next: the 11 left, places 51 to 61, then nothing further.
        page.click("[data-action=rank-next]")
        page.wait_for_selector('.rank-page tbody tr[data-place="51"]')
        assert page.locator(".rank-page tbody tr").count() == OTHERS + 1 - 50
        assert page.url.endswith("?page=2")
        assert page.locator("[data-action=rank-next]").is_disabled()
        page.click("[data-action=rank-prev]")
        page.wait_for_selector('.rank-page tbody tr[data-place="1"]')

        # One tap on "My place" from page 1: my row, highlighted, in view and focused.
        button = page.locator("[data-action=rank-me]")
        assert button.get_attribute("data-place") == str(MY_RANK)
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44
        button.click()
        mine = page.locator("tr.mine")
        mine.wait_for()
        assert mine.get_attribute("data-place") == str(MY_RANK)
        assert mine.get_attribute("aria-current") == "true"
        assert mine.get_attribute("data-player") == str(me)
        assert page.evaluate("document.activeElement.classList.contains('mine')")
        assert mine.is_visible() and mine.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= innerHeight; }")
        shot(page, "rankings-mine-en-360")

        # The address keeps the page: a link to page 2 opens it, in Kreyòl as well.
        page.evaluate("localStorage.setItem('kabes.lang', JSON.stringify('ht'))")
        page.goto(base + "/rankings/haitian?page=2")
        page.wait_for_selector('.rank-page tbody tr[data-place="51"]')
        assert page.locator("tr.mine").get_attribute("data-place") == str(MY_RANK)
        assert not shown_keys(page) and not layout_problems(page)
        assert not axe_violations(page), "the rankings page in Kreyòl, my row highlighted"
        shot(page, "rankings-page2-ht-360")
        assert not js_errors, js_errors
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

"""Three people, each on their own phone, play Mexican Train (with the public train) at one
table opened for friends: they play on another player's marked train and satisfy open
doubles, by tapping a tile and then the lit train, until a round has ended with both seen."""

from __future__ import annotations

import time
from typing import Any

from browsing import register, shot
from helpers import wait_for
from play import PLAYABLE, my_turn

NAMES = ["Roselène", "Mireille", "Jean"]

TRAINS_JS = """
() => [...document.querySelectorAll('.train[data-train]')].map((row) => ({
  place: row.dataset.train,
  end: Number(row.dataset.end),
  marked: row.dataset.marked === 'true',
  open: row.classList.contains('open'),
  mine: row.classList.contains('mine'),
  tiles: Number(row.dataset.length),  // folded or not: the train's tiles
}))
"""


def trains(page: Any) -> dict[str, dict[str, Any]]:
    return {t["place"]: t for t in page.evaluate(TRAINS_JS)}


def choose(page: Any) -> tuple[str, str | None, str]:
    """(tile, place or None, why): a marked train of another player first, then a double."""
    tiles = page.locator(PLAYABLE).evaluate_all("els => els.map(e => e.dataset.tile)")
    rows = trains(page)
    opened = [p for p, t in rows.items() if t["open"]]
    if opened:
        return tiles[0], opened[0], "satisfy"
    for tile in tiles:
        a, b = (int(x) for x in tile.split("-"))
        for place, t in rows.items():
            if t["marked"] and not t["mine"] and place != "M" and t["end"] in (a, b):
                return tile, place, "marked"
    doubles = [t for t in tiles if t.split("-")[0] == t.split("-")[1]]
    return (doubles or tiles)[0], None, "double" if doubles else "plain"


def play(page: Any, tile: str, place: str | None) -> str | None:
    """Tap the tile, then the lit train `place` (or the first lit one): the place played, or
    None when the tile fitted one place only and went there at the tap."""
    page.click(f'[data-tile="{tile}"]')
    wait_for(
        page, "t => document.querySelector('[data-place]') || !document.querySelector("
        "`[data-tile=\"${t}\"]`) || document.querySelector('.results')",
        arg=tile,
    )
    lit = page.locator("[data-place]")
    if lit.count():
        target = page.locator(f'[data-place="{place}"]') if place else lit.first
        if not target.count():
            target = lit.first
        where: str | None = target.get_attribute("data-place")
        target.click()
        return where
    return None


def test_three_people_play_mexican_train(server: str, new_page: Any, js_errors: list[str]) -> None:
    host = new_page()
    register(host, server, NAMES[0])
    host.select_option("#variant", "mexican-train")
    host.locator("label.seg", has_text="3").click()
    if host.locator("#opt-mexican_train").count() and not host.is_checked("#opt-mexican_train"):
        host.check("#opt-mexican_train")
    host.click("[data-action=open-table]")
    host.wait_for_selector(".big-code")
    link = host.locator(".link-text a").get_attribute("href")
    pages = [host]
    for name in NAMES[1:]:
        page = new_page()
        register(page, server, name, link)
        page.wait_for_selector(".big-code")
        pages.append(page)
    host.wait_for_selector("[data-action=start]:not([disabled])")
    host.click("[data-action=start]")
    for page in pages:
        page.wait_for_selector("[data-tile]")
    hands = [
        set(p.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)"))
        for p in pages
    ]
    assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
    assert trains(host).get("M") is not None, "the public train is on the table"
    shot(host, "mexican-3-start")

    seen = {"marked": 0, "satisfy": 0, "double": 0}
    rounds = 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, f"not seen in time: {seen}"
        if host.locator(".results").count():
            rounds += 1
            host.wait_for_timeout(450)  # the panel rises in 220 ms
            shot(host, f"mexican-3-round-{rounds}")
            assert host.locator(".hands-up .hand-up").count() == 3
            if (seen["marked"] and seen["satisfy"]) or rounds == 3:
                break
            host.click("[data-action=next-hand]")
            host.wait_for_selector(".results", state="detached")
            continue
        mover = next((p for p in pages if my_turn(p)), None)
        if mover is None:
            host.wait_for_timeout(60)
            continue
        tile, place, why = choose(mover)
        before = trains(mover)
        if why == "marked" and not seen["marked"]:
            shot(mover, "mexican-3-marked")
        if why == "satisfy" and not seen["satisfy"]:
            shot(mover, "mexican-3-open-double")
        where = play(mover, tile, place)
        wait_for(
            mover, 't => !document.querySelector(`[data-tile="${t}"]`)'
            " || document.querySelector('.results')",
            arg=tile,
        )
        if mover.locator(".results").count():
            continue
        after = trains(mover)
        if where is None:  # it fitted one train only: played at the tap
            where = next(p for p in after if after[p]["tiles"] > before[p]["tiles"])
        assert after[where]["tiles"] == before[where]["tiles"] + 1, f"{tile} went on {where}"
        if why == "marked" and where == place and before[where]["marked"]:
            seen["marked"] += 1
        elif why == "satisfy" and where == place and not after[where]["open"]:
            seen["satisfy"] += 1
        elif why == "double" and after[where]["open"]:
            seen["double"] += 1
    print(f"mexican train: {rounds} round(s), {seen}")
    assert seen["marked"] >= 1, f"nobody played on a marked train in {rounds} rounds: {seen}"
    assert seen["satisfy"] >= 1, f"no open double was satisfied in {rounds} rounds: {seen}"
    assert not js_errors

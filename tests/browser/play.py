"""How the tests play a tile, the way people do: tapping it (and then a lit place when it
fits more than one), or dragging it onto a lit place (or anywhere on the table when it fits
only one)."""

from __future__ import annotations

from typing import Any

PLAYABLE = '[data-tile][aria-disabled="false"]'


def my_turn(page: Any) -> bool:
    return page.locator(".status.mine").count() > 0 and page.locator(PLAYABLE).count() > 0


def tap_play(page: Any) -> str:
    tile = page.locator(PLAYABLE).first
    key = tile.get_attribute("data-tile")
    tile.click()
    places = page.locator("[data-place]")
    if places.count():
        places.first.click()
    return key


def drag_play(page: Any) -> str:
    tile = page.locator(PLAYABLE).first
    key = tile.get_attribute("data-tile")
    box = tile.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 30, steps=4)
    places = page.locator("[data-place]")
    where = places.last if places.count() else page.locator(".board")
    target = where.bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=6)
    page.mouse.up()
    return key


def wait_played(page: Any, before: int, key: str | None = None) -> None:
    """Wait until the tile `key` has left the hand (else: until the hand holds fewer than
    `before` tiles), or the hand has ended. In draw games the count can come back up, when
    the table draws for this seat before the page looks."""
    try:
        page.wait_for_function(
            '([n, key]) => (key ? !document.querySelector(`[data-tile="${key}"]`)'
            " : document.querySelectorAll('[data-tile]').length < n)"
            " || document.querySelector('.results')",
            arg=[before, key],
        )
    except Exception as e:
        state = page.evaluate(
            "[document.activeElement.outerHTML.slice(0, 160),"
            " document.querySelector('.status')?.textContent,"
            " document.querySelectorAll('[data-place]').length,"
            " document.querySelectorAll('[data-tile]').length]"
        )
        raise AssertionError(f"nothing was played: {state}") from e

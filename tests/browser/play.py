"""How the tests play a tile, the way people do: tapping it (and then a lit place when it
fits more than one), or dragging it onto a lit place (or anywhere on the table when it fits
only one). In a lesson, the move to tap comes from the lesson's data and the engine: as_tap()
for a move the step accepts, wrong_try() for one it does not."""

from __future__ import annotations

from dataclasses import dataclass

from helpers import wait_for
from playwright.sync_api import Page

from kabes.lessons.model import Lesson
from kabes.lessons.position import try_move
from kabes.match import Match
from kabes.moves import Play, parse_move
from kabes.tiles import Tile
from kabes.views import view

PLAYABLE = '[data-tile][aria-disabled="false"]'


def my_turn(page: Page) -> bool:
    return page.locator(".status.mine").count() > 0 and page.locator(PLAYABLE).count() > 0


def tap_play(page: Page) -> str:
    tile = page.locator(PLAYABLE).first
    key = tile.get_attribute("data-tile")
    assert key is not None, "a playable tile without its data-tile"
    tile.click()
    places = page.locator("[data-place]")
    if places.count():
        places.first.click()
    return key


def drag_play(page: Page) -> str:
    tile = page.locator(PLAYABLE).first
    key = tile.get_attribute("data-tile")
    assert key is not None, "a playable tile without its data-tile"
    box = tile.bounding_box()
    assert box is not None, "the tile to drag is not on screen"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 30, steps=4)
    places = page.locator("[data-place]")
    where = places.last if places.count() else page.locator(".board")
    target = where.bounding_box()
    assert target is not None, "the place to drop on is not on screen"
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=6)
    page.mouse.up()
    return key


def wait_played(page: Page, before: int, key: str | None = None) -> None:
    """Wait until the tile `key` has left the hand (else: until the hand holds fewer than
    `before` tiles), or the hand has ended. In draw games the count can come back up, when
    the table draws for this seat before the page looks."""
    try:
        wait_for(
            page, '([n, key]) => (key ? !document.querySelector(`[data-tile="${key}"]`)'
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


def key(tile: Tile) -> str:
    """A tile as the hand names it (data-tile): low half first."""
    return f"{tile.low}-{tile.high}"


@dataclass(frozen=True)
class Tap:
    """A move as a person makes it: tap the tile, then (if it fits several places) the place."""

    move: str
    tile: str
    place: str | None


def as_tap(match: Match, move: str) -> Tap:
    """How a person plays `move` here: the tile, and the lit place to tap when the tile fits
    more than one (a move that leaves its place out goes on the first one lit)."""
    parsed = parse_move(move, match.rules.top)
    assert isinstance(parsed, Play)
    assert match.hand is not None
    places = sorted({str(m.at) for m in match.hand.legal_moves() if m.tile is parsed.tile})
    if len(places) <= 1:
        return Tap(move, key(parsed.tile), None)
    return Tap(move, key(parsed.tile), parsed.at or places[0])


def wrong_try(lesson: Lesson, index: int, match: Match) -> Tap | None:
    """A try a person can make that the step does not accept: a tile of the hand that fits
    nowhere (tapped, it goes to the rules as it is), else a legal move not accepted."""
    seat = lesson.steps[index].seat
    assert match.hand is not None
    legal = match.hand.legal_moves()
    fitting = {m.tile for m in legal}
    for tile in view(match, seat).hand:
        if tile not in fitting:
            return Tap(key(tile), key(tile), None)
    for move in legal:
        if not try_move(lesson, index, str(move), match).correct:
            return as_tap(match, str(move))
    return None


def tap(page: Page, move: Tap) -> None:
    page.click(f'[data-tile="{move.tile}"]')
    if move.place is not None:
        page.click(f'[data-place="{move.place}"]')

"""Mexican Train for two to eight on one phone screen (360 x 740 and 320 x 640, portrait):
every train's row (the Mexican train first) with its owner and open end in sight without
scrolling, nothing drawn over anything else (the seats' strip, the trains, the hand, the
buttons), names cut whole with an ellipsis, never broken inside a word; a train's buttons (a
place for the chosen tile, the fold of a long train) are 44 x 44 px targets, none over
another; a tap on the seats' strip opens the seats' cards. Positions the engine played to
(states.py), in the first round and a late one, shown without a server game; screenshots at
eight in English and Kreyòl."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from browsing import shot
from checks import layout_problems
from helpers import fake_table
from states import play_until, state, summary

from kabes.views import view

SIZES = {"360x740": {"width": 360, "height": 740}, "320x640": {"width": 320, "height": 640}}

# Each data-train row: is the point just inside its left edge, half way down, the row itself,
# and is its open end (the row's last tile, marker or "starts with") inside the screen?
ROWS_JS = """
() => [...document.querySelectorAll('[data-train]')].map((row) => {
  const r = row.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 3, r.top + r.height / 2);
  const tiles = row.querySelector('.train-tiles');
  const last = tiles.lastElementChild.getBoundingClientRect();
  return {
    place: row.dataset.train,
    seen: !!hit && hit.closest('[data-train]') === row,
    end: last.right <= innerWidth && last.bottom <= innerHeight && last.left >= 0 && last.top >= 0,
    box: [r.left, r.top, r.right, r.bottom],
  };
})
"""

# The table's boxes, none over another: the seats' strip, each train, the hand, the buttons.
BOXES_JS = """
() => {
  const els = [document.querySelector('.seat-strip'), ...document.querySelectorAll('[data-train]'),
    document.querySelector('.hand'), ...document.querySelectorAll('.tool, .topbar button')];
  const boxes = els.filter(Boolean)
    .map((el) => [el.className || el.tagName, el.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i += 1)
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 0.5 && h > 0.5) out.push(`${a} / ${b}: ${Math.round(w)}x${Math.round(h)}`);
    }
  return out;
}
"""

# Names: one line each, cut with an ellipsis when long (never a break inside a word).
NAMES_JS = """
() => [...document.querySelectorAll('.train-name, .strip-name, .seat-strip .count')].map((el) => {
  const s = getComputedStyle(el);
  const lines = Math.round(el.getBoundingClientRect().height / parseFloat(s.lineHeight || 18));
  return { text: el.textContent, nowrap: s.whiteSpace === 'nowrap',
    cut: el.scrollWidth > el.clientWidth + 1, ellipsis: s.textOverflow === 'ellipsis', lines };
})
"""

# A train's buttons: how wide and how tall each one's target is, counted in pixels where a tap
# finds it (on a line and a column through its middle; another button over it cuts it short).
TARGETS_JS = """
() => [...document.querySelectorAll('.train-place, .train-fold')].map((button) => {
  const r = button.getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const longest = (points) => {
    let best = 0, run = 0;
    for (const [px, py] of points) {
      run = document.elementFromPoint(px, py)?.closest('button') === button ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best;
  };
  const line = (n, at) => Array.from({ length: Math.ceil(n) + 60 }, (_, i) => at(i - 30 + 0.5));
  const across = line(r.width, (d) => [r.left + d, y]);
  const down = line(r.height, (d) => [x, r.top + d]);
  return { what: button.className, place: button.closest('[data-train]').dataset.train,
    wide: longest(across), tall: longest(down) };
})
"""

BOARD_JS = """
() => { const b = document.querySelector('.board');
  return { scroll: b.scrollHeight - b.clientHeight, top: b.scrollTop,
    page: document.documentElement.scrollHeight - innerHeight }; }
"""


def several(v: Any) -> Any:
    """A tile of the hand that goes on more than one train (a tap on it lights its places)."""
    places = Counter(move.tile for move in v.legal)
    return next((tile for tile, n in places.items() if n > 1), None)


def position(players: int, late: bool) -> Any:
    def first(m: Any, v: Any) -> bool:
        return (bool(v.my_turn) and v.hand_number <= 1
                and sum(len(t.laid) for t in v.trains) >= 2 and several(v) is not None)

    def later(m: Any, v: Any) -> bool:
        return (bool(v.my_turn) and v.hand_number >= 3
                and max(len(t.laid) for t in v.trains) >= 5 and several(v) is not None)

    return play_until(
        "mexican-train", players, later if late else first, seed=3, options={"mexican_train": True}
    )


def open_table(new_page: Any, server: str, players: int, late: bool, size: str, lang: str) -> Any:
    m = position(players, late)
    tile = several(view(m, 0))
    computers = {seat: "casual" for seat in range(1, players)}
    page = new_page(viewport=SIZES[size], reduced_motion="reduce")
    fake_table(page, server, summary("TEST123", m, ["Roselène"], computers), state(m), lang=lang)
    page.wait_for_selector(".train[data-train]")
    page.wait_for_selector("[data-tile]")
    page.wait_for_timeout(100)  # the board is drawn again once the hand has its size
    page.several = f"{tile.low}-{tile.high}"
    return page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("late", [False, True], ids=["first-round", "late-round"])
@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_every_train_in_sight_nothing_over_anything_names_whole(
    server: str, new_page: Any, js_errors: list[str], players: int, late: bool, size: str
) -> None:
    page = open_table(new_page, server, players, late, size, "en")
    rows = page.evaluate(ROWS_JS)
    assert len(rows) == players + 1, rows
    assert rows[0]["place"] == "M", "the Mexican train comes first"
    for row in rows:
        assert row["seen"], f"train {row['place']} is not in sight: {row}"
        assert row["end"], f"train {row['place']}'s open end is off the screen: {row}"
    board = page.evaluate(BOARD_JS)
    assert board["scroll"] <= 1 and board["page"] <= 1, f"something scrolls: {board}"
    assert not page.evaluate(BOXES_JS)
    for name in page.evaluate(NAMES_JS):
        assert name["nowrap"] and name["lines"] <= 1, f"a name on two lines: {name}"
        assert not name["cut"] or name["ellipsis"], f"a name cut without an ellipsis: {name}"
    assert not layout_problems(page)
    # A tile chosen: its places are lit on the trains, and every train button is a 44 px target.
    page.click(f'[data-tile="{page.several}"]')
    page.wait_for_selector(".train-place")
    targets = page.evaluate(TARGETS_JS)
    assert targets and [t for t in targets if min(t["wide"], t["tall"]) < 44] == [], targets
    assert not js_errors


@pytest.mark.parametrize("lang", ["en", "ht"])
def test_eight_at_a_phone_table_screenshots(
    server: str, new_page: Any, js_errors: list[str], lang: str
) -> None:
    page = open_table(new_page, server, 8, True, "360x740", lang)
    shot(page, f"mexican-8-360-{lang}")
    strip = page.locator(".seat-strip")
    assert strip.get_attribute("aria-expanded") == "false"
    assert page.locator(".seat-strip .seat[data-seat]").count() == 7
    strip.click()
    page.wait_for_selector(".seat-strip[aria-expanded=true]")
    assert page.locator(".opponents .seat[data-seat]").count() == 7, "a tap opens the seats"
    shot(page, f"mexican-8-360-{lang}-seats")
    page.click(".seat-strip")
    page.wait_for_selector(".seat-strip[aria-expanded=false]")
    assert not page.locator(".opponents").count()
    assert not js_errors


def test_a_line_game_keeps_its_seats_cards(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    m = play_until("haitian", 4, lambda m, v: bool(v.my_turn), seed=3)
    page = new_page(viewport=SIZES["360x740"], reduced_motion="reduce")
    table = summary("TEST123", m, ["Roselène", "Mireille", "Jean", "Ana"])
    fake_table(page, server, table, state(m))
    page.wait_for_selector("[data-tile]")
    assert page.locator(".opponents .seat[data-seat]").count() == 3
    assert not page.locator(".seat-strip").count()
    assert not page.locator(".trains").count()
    assert not js_errors

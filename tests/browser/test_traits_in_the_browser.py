"""The page shows a variant by what the server says of it, never by its id: a game the page's
words do not name is shown by the title the server gives, and doubles lie crosswise or in
line as the view's traits say."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from browsing import register
from helpers import fake_table
from states import play_until, state, summary

from kabes.match import Match

NAMES = ["Roselène", "Mireille"]
UNNAMED = "muggins-test"
TITLE = "Muggins (test)"


def a_double_in_a_short_line(match: Match) -> bool:
    """A line of 2 to 4 tiles (drawn without a corner) with a double that is not its lead."""
    line = state(match)["line"] or []
    return 2 <= len(line) <= 4 and any(a == b for a, b in (t.split("-") for t in line[1:]))


@pytest.fixture(scope="module")
def short_line() -> tuple[dict[str, Any], dict[str, Any]]:
    """A plaza table where a double lies in a line of a few tiles, as the wire shows it."""
    for seed in range(1, 60):
        match = play_until("plaza", 2, lambda m, _: a_double_in_a_short_line(m), seed=seed)
        if match.hand_in_progress and a_double_in_a_short_line(match):
            return summary("TRAITS1", match, NAMES, {1: "casual"}), state(match)
    raise AssertionError("no seed lays a double in a short line")


def unnamed(table: dict[str, Any], view: dict[str, Any], **traits: Any) -> tuple[Any, Any]:
    """The table and view as a server would send them for a variant the words do not name."""
    return (
        {**table, "variant": UNNAMED},
        {**view, "variant": UNNAMED, "traits": {**view["traits"], "title": TITLE, **traits}},
    )


def upright_tiles(page: Any) -> int:
    """Tiles drawn across the line (upright) in the board's picture of it."""
    page.wait_for_selector("svg.line g")
    transforms = page.eval_on_selector_all(
        "svg.line > g", "gs => gs.map((g) => g.getAttribute('transform'))"
    )
    return sum("rotate" not in t for t in transforms)


def test_a_game_the_words_do_not_name_is_shown_by_its_title(
    server: str, new_page: Any, js_errors: list[str], short_line: Any
) -> None:
    table, view = unnamed(*short_line)
    page = new_page()
    fake_table(page, server, table, view)
    page.wait_for_selector("svg.line g")
    page.click("[data-action=menu]")
    assert f"{TITLE} · " in page.locator("dialog.menu").inner_text()
    assert UNNAMED not in page.locator("body").inner_text()
    assert not js_errors


@pytest.mark.parametrize("crosswise", [True, False])
def test_doubles_lie_crosswise_only_where_the_traits_say(
    server: str, new_page: Any, js_errors: list[str], short_line: Any, crosswise: bool
) -> None:
    table, view = unnamed(*short_line, crosswise_doubles=crosswise)
    page = new_page()
    fake_table(page, server, table, view)
    assert (upright_tiles(page) > 0) is crosswise
    assert not js_errors


def test_the_home_page_offers_a_game_the_words_do_not_name_by_its_title(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    with urllib.request.urlopen(f"{server}/api/variants") as reply:
        catalog = json.load(reply)
    plaza = next(v for v in catalog["variants"] if v["id"] == "plaza")
    traits = {n: {**t, "title": TITLE} for n, t in plaza["traits"].items()}
    catalog["variants"].append({**plaza, "id": UNNAMED, "title": TITLE, "traits": traits})
    page = new_page()
    page.route("**/api/variants", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(catalog)))
    register(page, server, "Ti Jak")
    page.wait_for_selector("[data-action=play-computer]")
    assert page.locator("#variant").input_value() == catalog["default"]
    page.select_option("#variant", UNNAMED)
    assert page.locator("#variant option:checked").inner_text() == TITLE
    assert UNNAMED not in page.locator("main").inner_text()
    assert not js_errors

"""Every screen in every language, at phone size (390 x 844) and desktop size: nothing
off-screen, nothing overlapping, no text overflowing its box, no translation key shown (nor
any reported missing), `<html lang>` right, and axe-core's accessibility rules passing (every
screen in every language on the phone, and in English on the desktop); screenshots are saved
under tests/screenshots/ for a person to look at.

Screens: welcome, home, the lessons' paths, a lesson's step and its answer to a wrong try,
waiting room, a table not found, and, from states the engine plays to (states.py, shown
without a server game): the Haitian table; the same with a tile chosen and its two ends lit,
with a hint and the memory aid, with the menu open; a partnership table; a Mexican Train table;
the end of a hand, and the expert's review of it; the end of a match."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from browsing import DESKTOP, PHONE, shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import fake_table
from play import tap, wrong_try
from states import play_until, state, summary

from kabes.lessons.library import path
from kabes.lessons.position import position
from kabes.words import LANGUAGES

LANGS = list(LANGUAGES)
NAMES = ["Roselène", "Mireille", "Jean-Baptiste", "Ana"]
COMPUTERS = {1: "beginner", 2: "casual", 3: "expert"}


def check(page: Any, lang: str, name: str, axe: bool) -> None:
    page.wait_for_timeout(120)
    assert page.evaluate("document.documentElement.lang") == lang
    where = f"{name} ({lang}, {page.viewport_size['width']}px)"
    shot(page, f"{name}-{lang}-{page.viewport_size['width']}")
    problems = layout_problems(page)
    assert not problems, f"{where}: " + "; ".join(problems)
    keys = shown_keys(page)
    assert not keys, f"{where} shows translation keys: {keys}"
    if axe:
        bad = axe_violations(page)
        assert not bad, f"{where}: " + "; ".join(bad)


def review(table_states: dict[str, Any]) -> dict[str, Any]:
    """A review of two moves at the Haitian table's position, for the look of the dialog: the
    legal moves there stand for the move played and the expert's."""
    view = table_states["review-move"][1]
    legal = view["legal"]
    moves = [
        {"index": 7, "played": legal[0], "better": legal[-1], "reason": "It keeps your doubles.",
         "view": view},
        {"index": 9, "played": legal[-1], "better": legal[0], "reason": "It blocks the 5s.",
         "view": view},
    ]
    return {"hand": 1, "moves": moves}


def two_places(view: Any) -> bool:
    tiles = [str(m).split("@")[0] for m in view.legal]
    return any(tiles.count(t) > 1 for t in tiles)


@pytest.fixture(scope="module")
def table_states() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    out = {}
    m = play_until(
        "haitian",
        4,
        lambda m, v: v.line is not None and len(v.line) >= 7 and v.my_turn and two_places(v),
        seed=4,
    )
    out["table-haitian"] = (summary("TEST123", m, NAMES, COMPUTERS), state(m))
    out["review-move"] = ({}, state(m))
    m = play_until(
        "partnership", 4, lambda m, v: v.line is not None and len(v.line) >= 6 and v.my_turn
    )
    out["table-partnership"] = (summary("TEST123", m, NAMES), state(m))
    m = play_until(
        "mexican-train",
        4,
        lambda m, v: sum(len(t.laid) for t in v.trains) >= 12 and v.my_turn,
        seed=2,
        options={"mexican_train": True},
    )
    out["table-mexican"] = (summary("TEST123", m, NAMES, {1: "expert", 2: "casual"}), state(m))
    m = play_until(
        "haitian",
        4,
        lambda m, v: not m.hand_in_progress and bool(m.log),
        seed=7,
        options={"hands": 5},
    )
    out["end-of-hand"] = (
        summary("TEST123", m, NAMES, COMPUTERS, status="between_hands"),
        state(m),
    )
    m = play_until("haitian", 4, lambda m, v: m.over, seed=3, options={"hands": 2})
    assert m.over
    out["match-over"] = (summary("TEST123", m, NAMES, COMPUTERS, status="over"), state(m))
    return out


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_screens(
    server: str,
    new_page: Any,
    js_errors: list[str],
    table_states: Any,
    lang: str,
    size: dict[str, int],
) -> None:
    axe = size == PHONE or lang == "en"
    locale = {"ht": "ht-HT", "no": "nb-NO"}.get(lang, f"{lang}-XX")
    page = new_page(viewport=size, locale=locale, reduced_motion="reduce")
    page.goto(server + "/")
    page.wait_for_selector("#name")
    check(page, lang, "welcome", axe)
    page.fill("#name", f"Test {lang}")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=play-computer]")
    page.wait_for_selector(".rank-table :is(table, p)")
    check(page, lang, "home", axe)
    page.click("[data-action=learn]")
    page.wait_for_selector(".lesson-item")
    check(page, lang, "learn", axe)
    lesson = path("haitian")[0]
    page.goto(f"{server}/learn/{lesson.id}")
    page.wait_for_selector("[data-tile]")
    check(page, lang, "lesson", axe)
    wrong = wrong_try(lesson, 0, position(lesson, 0))
    assert wrong is not None
    tap(page, wrong)
    page.wait_for_selector(".feedback.wrong")
    check(page, lang, "lesson-wrong", axe)
    page.goto(server + "/")
    page.wait_for_selector("[data-action=play-computer]")
    page.select_option("#variant", "haitian")
    page.click("[data-action=open-table]")
    page.wait_for_selector(".big-code")
    check(page, lang, "waiting", axe)
    page.goto(server + "/t/NOSUCH1")
    page.wait_for_selector(".problem")
    check(page, lang, "not-found", axe)

    for name, (table, view) in table_states.items():
        if name == "review-move":
            continue
        other = new_page(viewport=size, locale=locale, reduced_motion="reduce", ctx=page.context)
        fake_table(other, server, table, view, lang=lang, review=review(table_states))
        other.wait_for_selector(".table-screen")
        other.wait_for_selector("[data-tile], .results")
        check(other, lang, name, axe)
        if name == "end-of-hand":
            # The expert's review (the stand-in server answers with two moves of a hand).
            other.click("[data-action=review]")
            other.wait_for_selector("dialog.review[open] .review-board svg")
            check(other, lang, "review", axe)
            other.click("[data-action=review-next]")
            other.wait_for_selector("dialog.review .review-board svg")
            check(other, lang, "review-2", axe)
        if name != "table-haitian":
            other.close()
            continue
        # A tile that fits both ends: tapping it lights the two ends.
        tiles = [m.split("@")[0] for m in view["legal"]]
        tile = next(t for t in tiles if tiles.count(t) > 1)
        key = "-".join(sorted(tile.split("-"), key=int))
        other.click(f'[data-tile="{key}"]')
        other.wait_for_selector("[data-place=L]")
        assert other.locator("[data-place]").count() == 2
        check(other, lang, "places", axe)
        other.keyboard.press("Escape")
        other.wait_for_selector("[data-place]", state="detached")
        # A hint (the fake server answers with an English reason) and the memory aid.
        other.click("[data-action=hint]")
        other.wait_for_selector(".status.hinted")
        other.click("[data-action=memory]")
        other.wait_for_selector(".memory")
        hinted = other.locator(".status.hinted")
        reason = hinted.locator(".reason")
        assert reason.get_attribute("lang") == "en"
        around = hinted.inner_text().replace(reason.inner_text().strip(), "")
        english = "Hint: play" in around or " end (" in around or "as the lead" in around
        assert lang == "en" or not english, f"untranslated words around the hint: {around}"
        check(other, lang, "hint-memory", axe)
        other.click("[data-action=menu]")
        other.wait_for_selector("dialog.menu[open]")
        check(other, lang, "menu", axe)
        other.close()
    assert not [e for e in js_errors if "404 (Not Found)" not in e]  # the table not found


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

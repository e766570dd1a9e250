"""Every screen in every language, at phone size (390 x 844) and desktop size: nothing
off-screen sideways, no missing translation key, `<html lang>` right, the axe-core
accessibility rules passing; screenshots saved under tests/screenshots/. The table and the
end of a hand are shown from states the engine plays to (states.py), without a server game."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest
from helpers import fake_table
from states import play_until, state, summary

from conftest import DESKTOP, PHONE, ROOT, shot

LANGS = ["ht", "en", "fr", "es", "pt", "no"]
I18N = ROOT / "src" / "kabes" / "web" / "i18n"
KEY = re.compile(
    r"\b(?:action|home|seat|score|table|status|end|match|train|waiting|welcome|error|place|play|menu|memory|option|variant|level|about|num|history|rank|share|board|conn)\.[a-z_.-]+\b"
)
NAMES = ["Roselène", "Mireille", "Jean-Baptiste", "Ana"]


def test_every_language_has_the_same_keys() -> None:
    keys = {lang: set(json.loads((I18N / f"{lang}.json").read_text())) for lang in LANGS}
    for lang in LANGS:
        assert keys[lang] == keys["en"], f"{lang}: {keys[lang] ^ keys['en']}"
        values = json.loads((I18N / f"{lang}.json").read_text())
        assert all(isinstance(v, str) and v for v in values.values())


def check(page: Any, lang: str, name: str) -> None:
    page.wait_for_timeout(250)
    assert page.evaluate("document.documentElement.lang") == lang
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{name} ({lang}) scrolls sideways by {wide}px"
    text = page.locator("body").inner_text()
    assert not KEY.search(text), f"{name} ({lang}) shows a translation key: {KEY.search(text)}"
    shot(page, f"{name}-{lang}-{page.viewport_size['width']}")
    if lang in ("en", "ht"):
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(page)
        bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"{name} ({lang}): " + "; ".join(
            f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:3]]}" for v in bad
        )


@pytest.fixture(scope="module")
def table_states() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    out = {}
    m = play_until(
        "haitian", 4, lambda m, v: v.line is not None and len(v.line) >= 9 and v.my_turn, seed=4
    )
    out["table-haitian"] = (
        summary("TEST123", m, NAMES, {1: "beginner", 2: "casual", 3: "expert"}),
        state(m),
    )
    m = play_until(
        "haitian",
        4,
        lambda m, v: not m.hand_in_progress and bool(m.log),
        seed=7,
        options={"hands": 5},
    )
    out["end-of-hand"] = (
        summary(
            "TEST123", m, NAMES, {1: "beginner", 2: "casual", 3: "expert"}, status="between_hands"
        ),
        state(m),
    )
    m = play_until(
        "mexican-train",
        4,
        lambda m, v: sum(len(t.laid) for t in v.trains) >= 12 and v.my_turn,
        seed=2,
        options={"mexican_train": True},
    )
    out["table-mexican"] = (
        summary("TEST123", m, NAMES, {1: "expert", 2: "casual", 3: "skilled"}),
        state(m),
    )
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
    locale = {"ht": "ht-HT", "no": "nb-NO"}.get(lang, f"{lang}-XX")
    page = new_page(viewport=size, locale=locale, reduced_motion="reduce")
    page.goto(server + "/")
    page.wait_for_selector("#name")
    check(page, lang, "welcome")
    page.fill("#name", f"Test {lang}")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=play-computer]")
    page.wait_for_selector(".rank-table :is(table, p)")
    check(page, lang, "home")
    page.select_option("#variant", "haitian")
    page.click("[data-action=open-table]")
    page.wait_for_selector(".big-code")
    check(page, lang, "waiting")
    for name, (table, view) in table_states.items():
        other = new_page(viewport=size, locale=locale, reduced_motion="reduce")
        fake_table(other, server, table, view, lang=lang)
        other.wait_for_selector(".table-screen")
        other.wait_for_selector("[data-tile], .results")
        check(other, lang, name)
        if name == "table-haitian":
            other.locator('[data-tile][aria-disabled="false"]').first.focus()
            other.keyboard.press("Enter")
            other.wait_for_timeout(100)
            other.close()
    assert not js_errors


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

"""The page words what the engine says: how a hand's points were counted
(view.last_hand.explanation) and why a move was refused (the error's reason and facts), in the
player's language; and every explanation code and refusal reason has its words in every
language (read from docs/rules.md and docs/server.md, so a new code without them fails)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from browsing import ROOT
from helpers import fake_table, wait_for
from states import play_until, state, summary

from kabes.explain import CODES

LANGS = ["ht", "en", "fr", "es", "pt", "no"]
I18N = ROOT / "src" / "kabes" / "words" / "catalogs"
NAMES = ["Roselène", "Mireille", "Jean-Baptiste", "Ana"]
NAMED = ["tonbe", "2-kabes", "blok"]


def words(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def refusal_reasons() -> list[str]:
    """The reasons in docs/rules.md's "Refusals" table, and the server's table_move."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## Refusals", 1)[1].split("\n## ", 1)[0]
    reasons = [
        code
        for line in table.splitlines()
        if line.startswith("| `")
        for code in re.findall(r"`([a-z_]+)`", line.split("|")[1])
    ]
    assert "table_move" in (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    return [*reasons, "table_move"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_explanation_code_has_words_in_every_language(lang: str) -> None:
    keys = words(lang)
    for code in sorted(CODES):
        if code == "named":
            missing = [n for n in NAMED if f"explain.named.{n}" not in keys]
            assert not missing, f"{lang}: no words for the endings {missing}"
        else:
            assert f"explain.{code}" in keys, f"{lang}: no words for explanation code {code!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_reason_has_words_in_every_language(lang: str) -> None:
    keys = words(lang)
    for reason in refusal_reasons():
        assert f"refuse.{reason}" in keys, f"{lang}: no words for refusal reason {reason!r}"


def shown_steps(explanation: list[dict[str, Any]]) -> int:
    """How many sentences an explanation makes: a round's penalties are one sentence."""
    codes = [step["code"] for step in explanation]
    return len(codes) - max(0, Counter(codes)["penalty_pips"] - 1)


END_OF_HAND = {
    "en": ["How the points were counted", "Left in hand:", "Only the highest count pays"],
    "ht": ["Kijan pwen yo konte", "Sa ki rete nan men:", "Se sèl pi gwo kont lan ki peye"],
}


@pytest.fixture(scope="module")
def end_of_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    m = play_until("haitian", 4, lambda m, v: not m.hand_in_progress and bool(m.log), seed=7,
                   options={"hands": 5})
    return summary("TEST123", m, NAMES, {1: "beginner"}, status="between_hands"), state(m)


@pytest.mark.parametrize("lang", ["en", "ht"])
def test_the_end_of_a_hand_shows_how_the_points_were_counted(
    server: str, new_page: Any, js_errors: list[str], end_of_hand: Any, lang: str
) -> None:
    table, view = end_of_hand
    page = new_page(locale={"ht": "ht-HT"}.get(lang, "en-US"))
    fake_table(page, server, table, view, lang=lang)
    page.wait_for_selector(".results .explanation-steps li")
    section = page.locator(".results .explanation")
    text = section.inner_text()
    for part in END_OF_HAND[lang]:
        assert part in text, f"{lang}: {part!r} not in {text!r}"
    explanation = view["last_hand"]["explanation"]
    assert section.locator("li").count() == shown_steps(explanation)
    counts = view["last_hand"]["result"]["counts"]
    assert all(str(c) in text for c in counts)
    assert "{" not in text and "explain." not in text
    assert not js_errors


def single_move_tile(view: dict[str, Any]) -> str | None:
    tiles = [str(m).split("@")[0] for m in view["legal"]]
    once = [t for t in tiles if tiles.count(t) == 1]
    return "-".join(sorted(once[0].split("-"), key=int)) if once else None


REFUSED = {
    ("not_held", "en"): "You don\u2019t have 6-3.",
    ("not_held", "ht"): "Ou pa gen 6-3.",
    ("double_open", "en"): "Satisfy the double on Mireille\u2019s train first.",
    ("double_open", "ht"): "Kouvri doub la sou tren Mireille anvan.",
    ("does_not_fit", "en"): "6-3 fits no end: they show 1 and 2.",
    ("does_not_fit", "fr"): "Le 6-3 ne va à aucun bout : ils montrent 1 et 2.",
    ("no_such_reason", "en"): "That tile cannot go there.",
}


@pytest.fixture(scope="module")
def playing() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    def ready(_m: Any, v: Any) -> bool:
        legal = {"legal": [str(x) for x in v.legal]}
        return bool(v.my_turn) and single_move_tile(legal) is not None

    line = play_until("haitian", 4, ready, seed=4)
    trains = play_until("mexican-train", 4, ready, seed=2)
    return {"line": (summary("TEST123", line, NAMES), state(line)),
            "trains": (summary("TEST123", trains, NAMES), state(trains))}


@pytest.mark.parametrize(("reason", "lang"), list(REFUSED))
def test_a_refused_move_is_worded_from_its_reason_in_the_players_language(
    server: str, new_page: Any, playing: Any, reason: str, lang: str
) -> None:
    facts = {
        "not_held": {"seat": 0, "tile": "6-3"},
        "double_open": {"tile": "6-3", "train": "0", "double_train": "1", "end": 9},
        "does_not_fit": {"tile": "6-3", "ends": [1, 2]},
        "no_such_reason": {},
    }[reason]
    table, view = playing["trains" if reason == "double_open" else "line"]
    error = {"code": "illegal_move", "message": "refused", "reason": reason, "facts": facts}
    page = new_page(locale="en-US")
    fake_table(page, server, table, view, lang=lang, refuse=error)
    tile = single_move_tile(view)
    assert tile is not None
    page.wait_for_selector(f'[data-tile="{tile}"]')
    page.click(f'[data-tile="{tile}"]')
    expected = REFUSED[(reason, lang)]
    wait_for(
        page, "text => document.querySelector('.status').innerText.includes(text)", arg=expected
    )

"""Mexican Train on a phone (360 x 740): a train longer than a line of the board shows its last
few tiles after a button counting those before; a tap opens the whole train and another folds
it again, so a round's many tiles do not fill screens. The position is one the engine played
to (states.py), shown without a server game; axe-core checks the folded and opened board."""

from __future__ import annotations

from typing import Any

from browsing import shot
from checks import axe_violations, layout_problems
from helpers import fake_table
from states import play_until, state, summary

NAMES = ["Roselène", "Mireille", "Jean-Baptiste", "Ana"]
SMALL = {"width": 360, "height": 740}

ROWS_JS = """
() => [...document.querySelectorAll('.train[data-train]')].map((row) => ({
  place: row.dataset.train,
  length: Number(row.dataset.length),
  shown: row.querySelectorAll('.train-tile').length,
  fold: row.querySelector('[data-action=unfold-train]')?.textContent ?? null,
  expanded: row.querySelector('[data-action=unfold-train]')?.getAttribute('aria-expanded') ?? null,
  height: row.getBoundingClientRect().height,
}))
"""


def test_long_trains_fold_to_their_last_tiles(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    m = play_until(
        "mexican-train",
        4,
        lambda m, v: max(len(t.laid) for t in v.trains) >= 9 and v.my_turn,
        seed=2,
        options={"mexican_train": True},
    )
    table, view = summary("TEST123", m, NAMES, {1: "expert", 2: "casual"}), state(m)
    longest = max(len(t["tiles"]) for t in view["trains"])
    assert longest >= 9
    page = new_page(viewport=SMALL, reduced_motion="reduce")
    fake_table(page, server, table, view)
    page.wait_for_selector(".train[data-train]")
    rows = page.evaluate(ROWS_JS)
    folded = [r for r in rows if r["fold"] is not None]
    assert folded, f"no train folded on a phone: {rows}"
    for r in rows:
        if r["fold"] is None:
            assert r["shown"] == r["length"]
        else:
            assert r["shown"] < r["length"] and r["expanded"] == "false"
            assert r["fold"] == f"+{r['length'] - r['shown']}"
            assert r["height"] < 110, f"a folded train takes one line: {r}"
    shot(page, "trains-folded-360")
    assert not layout_problems(page)
    assert not axe_violations(page)

    place = folded[0]["place"]
    page.click(f'[data-train="{place}"] [data-action=unfold-train]')
    page.wait_for_selector(f'[data-train="{place}"] [aria-expanded="true"]')
    row = next(r for r in page.evaluate(ROWS_JS) if r["place"] == place)
    assert row["shown"] == row["length"], "a tap opens the whole train"
    shot(page, "trains-opened-360")
    assert not axe_violations(page)
    page.click(f'[data-train="{place}"] [data-action=unfold-train]')
    page.wait_for_selector(f'[data-train="{place}"] [aria-expanded="false"]')
    row = next(r for r in page.evaluate(ROWS_JS) if r["place"] == place)
    assert row["shown"] < row["length"], "another tap folds it again"
    assert not js_errors

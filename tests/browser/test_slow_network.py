"""Strangers join from phones on 3G (issue 19, "Slow networks"): a first visit, nothing cached,
on Chromium's emulated 3G (300 ms round trip, 400 kbit/s each way), shows home's main action
within 2 s, and a table against the computer is measured too.

The one timed test of the suite. The emulated network is what takes the time, the same on
every run; what varies is the machine, so a visit is tried up to three times and the fastest
counts (on a loaded machine one try may be slowed by others' work; a page that is truly slow
is slow every time). Before the modules were preloaded, home took 3.3 s here and the table
4.1 s (bench/first_paint.py); then 1.5 s and 2.9 s; now, with the table's socket opened while
its modules download and 23 requests instead of 31, about 1.4 s and 2.4 s.

Also, untimed: every module a first visit asks for before its first paint was named in the
page's head (so none waits for the one importing it), none named goes unused, and home
fetches none of the table's; a table's page fetches no other page's module, and the modules of
a hand's end only after its first paint. bench/first_paint.py prints the same measures at 3G
and at 800 ms / 150 kbit/s.
"""

from __future__ import annotations

import json
from typing import Any

from slow_network import (
    HOME_SHOWN,
    TABLE_SHOWN,
    THREE_G,
    WATCH,
    Visit,
    first_visit,
    table_against_computers,
)

TRIES = 3
HOME_MS = 2000
TABLE_MS = 3000
"""The table against the computer (issue 25 asks bench/first_paint.py for under 2.5 s): a bound
that catches a page gone back to opening its socket after its modules (3.15 s) or to loading
them one import at a time (4.1 s), with room for a loaded machine."""


def fastest(visit: Any, bound: float) -> list[Visit]:
    """Up to TRIES visits, stopping at the first within ``bound``."""
    seen: list[Visit] = []
    for _ in range(TRIES):
        seen.append(visit())
        if seen[-1].ms < bound:
            break
    return seen


def test_home_shows_its_main_action_within_2_s_on_3g(server: str, browser: Any) -> None:
    visits = fastest(lambda: first_visit(browser, server + "/", HOME_SHOWN, THREE_G), HOME_MS)
    best = min(visits, key=lambda v: v.ms)
    print(f"home on {THREE_G.label}: {[round(v.ms) for v in visits]} ms, {best.bytes} bytes")
    assert best.ms < HOME_MS, f"home took {best.ms:.0f} ms on 3G ({best.bytes} bytes)"


def test_a_table_against_the_computer_shows_the_hand_quickly_on_3g(
    server: str, browser: Any
) -> None:
    def visit() -> Visit:
        guest, path = table_against_computers(server)
        return first_visit(browser, server + path, TABLE_SHOWN, THREE_G, identity=guest)

    visits = fastest(visit, TABLE_MS)
    best = min(visits, key=lambda v: v.ms)
    print(f"table on {THREE_G.label}: {[round(v.ms) for v in visits]} ms, {best.bytes} bytes")
    assert best.ms < TABLE_MS, f"the table took {best.ms:.0f} ms on 3G ({best.bytes} bytes)"


def scripts_of_a_first_visit(browser: Any, url: str, shown: str,
                             identity: dict[str, Any] | None = None
                             ) -> tuple[set[str], set[str], set[str]]:
    """The modules named in the page's head, the scripts the visit asked for before its first
    paint of ``shown``, and every script it fetched until the network was idle."""
    context = browser.new_context()
    try:
        if identity is not None:
            keep = json.dumps({k: identity[k] for k in ("player", "name", "token")})
            context.add_init_script(f"localStorage.setItem('kabes.identity', '{keep}');")
        context.add_init_script(WATCH % json.dumps(shown))
        page = context.new_page()
        fetched: set[str] = set()
        page.on("request", lambda r: fetched.add(r.url) if r.url.endswith(".js") else None)
        page.goto(url)
        page.wait_for_function("() => typeof window.__shownAt === 'number'")
        page.wait_for_load_state("networkidle")
        named = set(page.eval_on_selector_all(
            "link[rel=modulepreload]", "links => links.map(l => l.href)"))
        before = set(page.evaluate("""() => performance.getEntriesByType("resource")
            .filter((e) => e.name.endsWith(".js") && e.startTime <= window.__shownAt)
            .map((e) => e.name)"""))
        return named, before, {u for u in fetched if not u.endswith("/sw.js")}
    finally:
        context.close()


def test_a_first_visit_names_every_module_it_runs_in_the_page_head(
    server: str, browser: Any
) -> None:
    named, before, fetched = scripts_of_a_first_visit(browser, server + "/", HOME_SHOWN)
    assert named == before, (sorted(named - before), sorted(before - named))
    assert not any(u.endswith(("/table.js", "/lesson.js", "/playarea.js")) for u in fetched)
    guest, path = table_against_computers(server)
    named, before, fetched = scripts_of_a_first_visit(browser, server + path, TABLE_SHOWN, guest)
    assert named == before, (sorted(named - before), sorted(before - named))
    assert any(u.endswith("/table.js") for u in fetched)


NOT_A_TABLES = ("tournament.js", "tournaments.js", "lobby.js", "lesson.js", "learn.js", "home.js",
                "offline.js", "offlinecard.js", "mygames.js")
"""The modules of other pages (tournaments, the lobby, lessons, home and its offline cards): a
table needs none."""
LATER = {"results.js", "explain.js", "phrases.js", "review.js", "watching.js"}
"""What a seat's table shows only later: a hand's end, a refusal, the phrases, the review, a
watcher's band."""


def test_a_tables_page_loads_no_tournament_lobby_or_lesson_module(
    server: str, browser: Any
) -> None:
    guest, path = table_against_computers(server)
    _, before, fetched = scripts_of_a_first_visit(browser, server + path, TABLE_SHOWN, guest)
    names = sorted(u.rsplit("/", 1)[-1] for u in fetched)
    print(f"a table's first visit fetched {len(names)} modules: {names}")
    assert "table.js" in names
    assert [m for m in names if m in NOT_A_TABLES] == []
    assert "review.js" not in names, "the review is loaded when first asked for"
    first = {u.rsplit("/", 1)[-1] for u in before}
    assert first & LATER == set(), "what a table shows later comes after its first paint"

"""Tournament moments looked at without playing up to them, on a small phone: a tournament
table's top bar naming the tournament and the round, its match over with "Back to the
tournament" (which opens the tournament's page), and a tournament over with its winner and
final standings, in English and Kreyòl. The table is fake_table() (states.py plays the engine
to the moment); the tournament's document is the server's format, answered for its id."""

from __future__ import annotations

import json
from typing import Any

from browsing import SHOTS, register, shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import fake_table
from states import play_until, state, summary

SMALL_PHONE = {"width": 360, "height": 740}
NAMES = ["Roselène", "Mireille"]


def standing(entrant: int, points: int, buchholz: int, won: int, diff: int) -> dict[str, Any]:
    return {"entrant": entrant, "points": points, "buchholz": buchholz, "hands_won": won,
            "difference": diff, "played": 2}


def over_tournament(tid: str) -> dict[str, Any]:
    """A Swiss plaza of four entrants, two rounds, over; entrant 1 (player 1) won."""
    names = ["Roselène", "Mireille", "Jean-Baptiste Desrosiers", "Ana"]
    entrants = [{"entrant": i + 1, "players": [i + 1], "names": [n]} for i, n in enumerate(names)]

    def match(code: str, a: int, b: int, winner: int) -> dict[str, Any]:
        return {"table": code, "entrants": [a, b], "status": "over", "winner": winner}

    return {
        "id": tid, "variant": "plaza", "players": 2, "options": {"target": 50}, "format": "swiss",
        "rounds": 2, "public": True, "status": "over", "host": 1, "entrants": entrants,
        "waiting": [], "round": 2,
        "pairings": [[match("AAAAAA1", 1, 2, 1), match("AAAAAA2", 3, 4, 4)],
                     [match("AAAAAA3", 1, 4, 1), match("AAAAAA4", 2, 3, 3)]],
        "standings": [
            standing(1, 2, 1, 5, 96), standing(3, 1, 2, 3, -4),
            standing(4, 1, 2, 3, -30), standing(2, 0, 3, 1, -62),
        ],
        "winner": 1,
    }


def answer(page: Any, pattern: str, body: dict[str, Any]) -> None:
    page.route(
        pattern,
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(body)
        ),
    )


def answer_tournament(page: Any, doc: dict[str, Any]) -> None:
    answer(page, f"**/api/tournaments/{doc['id']}", doc)
    record = {"variant": "plaza", "players": 2, "options": {}, "hands": [],
              "result": {"finished": True, "winners": [0], "scores": [52, 17], "kochon": False}}
    answer(page, "**/api/tables/AAAAAA*/record", record)


def checked(page: Any, name: str) -> None:
    shot(page, name)
    page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)
    assert layout_problems(page) == [], name
    assert shown_keys(page) == [], name
    assert axe_violations(page) == [], name


def test_a_tournament_table_names_its_tournament_and_leads_back(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    playing = play_until("plaza", 2, lambda m, v: len(v.line or []) >= 4, options={"target": 50})
    table = {**summary("TOUR001", playing, NAMES), "tournament": "CUPTEST001", "round": 2}
    page = new_page(SMALL_PHONE)
    fake_table(page, server, table, state(playing))
    page.wait_for_selector("[data-tile]")
    assert page.locator(".tour-tag").inner_text().strip() == "Tournament · round 2"
    checked(page, "tournament-table-top")

    over = play_until("plaza", 2, lambda m, v: False, options={"target": 50})
    assert over.over
    table = {
        **summary("TOUR002", over, NAMES, status="over"), "tournament": "CUPTEST001", "round": 2
    }
    done = new_page(SMALL_PHONE)
    answer_tournament(done, over_tournament("CUPTEST001"))
    fake_table(done, server, table, state(over))
    done.wait_for_selector(".match-over")
    done.wait_for_timeout(600)  # the panel's entrance
    assert done.locator("[data-action=play-again]").count() == 0
    checked(done, "tournament-table-over")
    done.click("[data-action=back-tournament]")
    done.wait_for_selector(".tour-winner")
    assert done.url.endswith("/c/CUPTEST001")
    assert not js_errors


def test_a_tournament_over_shows_its_winner_and_final_standings(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    for lang in ("en", "ht"):
        page = new_page(SMALL_PHONE, locale="en-US")
        doc = over_tournament("CUPTEST002")
        answer_tournament(page, doc)
        who = {"player": 1, "name": "Roselène", "token": "x"}
        page.add_init_script(
            f"localStorage.setItem('kabes.identity', {json.dumps(json.dumps(who))});"
            f"localStorage.setItem('kabes.lang', {json.dumps(json.dumps(lang))});"
        )
        page.goto(f"{server}/c/CUPTEST002")
        page.wait_for_selector(".tour-winner")
        assert "Roselène" in page.locator(".winner-name").inner_text()
        assert page.locator(".tour-standings tr.mine").count() == 1
        assert page.locator("[data-action=go-table]").count() == 0
        page.wait_for_selector(".pair-score")
        checked(page, f"tournament-over-{lang}")
    assert not js_errors


def test_a_pair_enters_a_partnership_tournament_by_naming_each_other(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page(SMALL_PHONE)
    register(host, server, "Roselène", "/c")
    host.wait_for_selector("[data-action=create-tournament]")
    host.select_option("#tour-variant", "haitian")
    host.check("#tour-players-3")
    # three sides a table: only a Swiss, said why
    assert host.locator("input[name=tour-format]").count() == 1
    assert host.locator("#tour-format-swiss").is_checked()
    host.select_option("#tour-variant", "partnership")
    assert host.locator("input[name=tour-format]").count() == 3
    host.check("#tour-format-round_robin")
    assert host.locator("#tour-rounds").count() == 0, "rounds are for a Swiss"
    host.click("[data-action=create-tournament]")
    host.wait_for_selector("[data-action=enter]")
    path = host.locator("[data-link=tournament]").get_attribute("href")
    host.click("[data-action=enter]")  # no partner yet
    host.wait_for_selector(".tour-waiting li")

    other = new_page(SMALL_PHONE)
    register(other, server, "Mireille", path)
    other.wait_for_selector("#tour-partner")
    other.select_option("#tour-partner", label="Roselène")
    other.click("[data-action=enter]")
    other.wait_for_selector(".tour-waiting li >> nth=1")
    shot(other, "tournament-pair-waiting")
    host.wait_for_selector("#tour-partner option >> text=Mireille", state="attached")
    host.select_option("#tour-partner", label="Mireille")
    host.click("[data-action=enter]")
    host.wait_for_selector(".tour-entrants li.mine")
    pair = host.locator(".tour-entrants li").inner_text()
    assert "Roselène" in pair and "Mireille" in pair and " & " in pair
    checked(host, "tournament-pair-entered")
    other.wait_for_selector(".tour-entrants li.mine")
    assert not js_errors

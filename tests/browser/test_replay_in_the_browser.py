"""A match's replay (/r/CODE; PROTOCOL.md "Players, replays and rankings", UI.md "A place that
remembers"): a match is played through the protocol at a real server (a person's socket, the
computer at the other seats), then its replay opened in Chromium and stepped to the end with
replay-next; at every step the board shows the line (data-line) or the trains (data-trains)
that the engine gives replaying the table's record. The address opens a moment
(?hand=&move=), the arrow keys, Home and End step, first and last go to the ends, and
replay-next is disabled at the match's last move. The page passes axe, and is photographed at
360 px in Kreyòl, English and French."""

from __future__ import annotations

from typing import Any

from browsing import shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for
from played import api, play_match

from kabes.match import Match
from kabes.records import replay
from kabes.views import view as seat_view

NARROW = {"width": 360, "height": 740}


def engine_boards(record: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(hand, move, board) at every step of the record replayed by the engine: the line's
    tiles left to right ("6-6 6-3"), or the trains as data-trains writes them."""
    held: list[Match] = []
    out: list[tuple[int, int, str]] = []
    hand = 0
    move = 0

    def step(events: list[Any]) -> None:
        nonlocal hand, move
        if any(e.kind == "hand_started" for e in events):
            hand, move = hand + 1, 0
        elif move >= len(record["hands"][hand - 1]["moves"]):
            return  # the match finished after the last move: no new position
        else:
            move += 1
        v = seat_view(held[0], 0)
        if v.trains:
            board = "; ".join(
                f"{'M' if t.owner is None else t.owner}:{' '.join(f'{a}-{b}' for a, b in t.laid)}"
                for t in v.trains)
        else:
            board = " ".join(f"{a}-{b}" for a, b in v.line or ())
        out.append((hand, move, board))

    replay(record, step, held.append)
    return out


def shown(page: Any, trains: bool) -> tuple[int, int, str]:
    position = page.locator(".replay-position")
    board = page.locator(".replay-position .board")
    hand, move = position.get_attribute("data-hand"), position.get_attribute("data-move")
    return (int(hand or 0), int(move or 0),
            board.get_attribute("data-trains" if trains else "data-line") or "")


AT = ("([h, m]) => { const p = document.querySelector('.replay-position');"
      " return p.dataset.hand === String(h) && p.dataset.move === String(m); }")


def wait_at(page: Any, hand: int, move: int) -> None:
    """Wait until the page shows hand ``hand``, move ``move``."""
    wait_for(page, AT, arg=[hand, move])


def open_as(new_page: Any, base: str, guest: dict[str, Any], path: str, lang: str = "en",
            viewport: dict[str, int] | None = None) -> Any:
    locale = {"ht": "ht-HT", "no": "nb-NO"}.get(lang, f"{lang}-XX")
    sized = {"viewport": viewport} if viewport else {}
    page = new_page(locale=locale, reduced_motion="reduce", **sized)
    page.goto(base + "/")
    page.evaluate("([who, lang]) => { localStorage.setItem('kabes.identity', JSON.stringify(who));"
                  " localStorage.setItem('kabes.lang', JSON.stringify(lang)); }", [guest, lang])
    page.goto(base + path)
    page.wait_for_selector(".replay-position[data-move]")
    return page


def step_to_the_end(page: Any, record: dict[str, Any], trains: bool) -> None:
    """replay-next from the first move to the last; every step as the engine gives it."""
    expected = engine_boards(record)
    assert shown(page, trains) == expected[0]
    for want in expected[1:]:
        page.click("[data-action=replay-next]")
        wait_at(page, want[0], want[1])
        assert shown(page, trains) == want
    assert page.locator("[data-action=replay-next]").is_disabled()
    assert page.locator("[data-action=replay-last]").is_disabled()


def test_a_line_match_replays_move_by_move_as_the_engine_gives_it(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    code, guest = play_match(server, {"variant": "haitian", "players": 3, "options": {"hands": 2},
                                      "computers": {"1": "beginner", "2": "beginner"}})
    record = api(server, f"/api/tables/{code}/record")
    assert len(record["hands"]) == 2 and record["result"]["finished"]
    page = open_as(new_page, server, guest, f"/r/{code}")
    assert page.locator(".replay-where").inner_text() == "hand 1 of 2 · move 0"
    assert page.locator("[data-action=replay-prev]").is_disabled()
    step_to_the_end(page, record, trains=False)
    # The end of the match: its last hand's counts explained, as at the table.
    page.wait_for_selector(".replay-end .results .explanation-steps li")
    assert page.locator(".replay-end .match-banner").count() == 1

    expected = {(h, m): board for h, m, board in engine_boards(record)}
    page.click("[data-action=replay-first]")
    wait_at(page, 1, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_at(page, 1, 2)
    assert shown(page, False) == (1, 2, expected[(1, 2)])
    page.keyboard.press("ArrowLeft")
    wait_at(page, 1, 1)
    assert page.url.endswith(f"/r/{code}?hand=1&move=1"), "the address follows the moment"
    page.keyboard.press("End")
    last = max(expected)
    wait_at(page, *last)
    assert page.locator("[data-action=replay-next]").is_disabled()
    page.keyboard.press("Home")
    wait_at(page, 1, 0)

    # Played at a chosen speed, then paused.
    page.select_option("#replay-speed", "4")
    page.click("[data-action=replay-play]")
    assert page.locator("[data-action=replay-play]").get_attribute("aria-pressed") == "true"
    wait_at(page, 1, 2)
    page.click("[data-action=replay-play]")
    assert page.locator("[data-action=replay-play]").get_attribute("aria-pressed") == "false"
    paused = shown(page, False)
    page.wait_for_timeout(800)
    assert shown(page, False) == paused

    # An address opens its moment; a swipe left steps forward.
    moment = open_as(new_page, server, guest, f"/r/{code}?hand=2&move=3")
    assert shown(moment, False) == (2, 3, expected[(2, 3)])
    board = moment.locator(".replay-position .board").bounding_box()
    y = board["y"] + board["height"] / 2
    moment.mouse.move(board["x"] + board["width"] * 0.8, y)
    moment.mouse.down()
    moment.mouse.move(board["x"] + board["width"] * 0.2, y, steps=5)
    moment.mouse.up()
    wait_at(moment, 2, 4)
    moment.click("[data-action=replay-last]")
    wait_at(moment, *last)
    assert moment.locator("[data-action=replay-next]").is_disabled()
    assert axe_violations(moment) == []
    assert js_errors == []


def test_a_mexican_train_round_replays_as_the_engine_gives_it_while_the_match_goes_on(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    code, guest = play_match(server, {"variant": "mexican-train", "players": 2,
                                      "computers": {"1": "beginner"}}, hands=1)
    record = api(server, f"/api/tables/{code}/record")
    assert len(record["hands"]) == 1, "the round in progress is not in the record"
    page = open_as(new_page, server, guest, f"/r/{code}")
    assert page.locator(".replay-position .board").get_attribute("data-engine") == "12-12"
    step_to_the_end(page, record, trains=True)
    shot(page, "replay-mexican-train-end")
    assert page.locator(".replay-where").inner_text().startswith("round 1 of 1 so far · move ")
    assert axe_violations(page) == []
    assert js_errors == []


def test_replay_screens_at_360_px(server: str, new_page: Any, js_errors: list[str]) -> None:
    code, guest = play_match(server, {"variant": "haitian", "players": 3, "options": {"hands": 1},
                                      "computers": {"1": "beginner", "2": "beginner"}})
    for lang in ("ht", "en", "fr"):
        page = open_as(new_page, server, guest, f"/r/{code}?hand=1&move=4", lang, NARROW)
        page.wait_for_timeout(150)
        assert shown_keys(page) == []
        assert layout_problems(page) == [], lang
        shot(page, f"replay-{lang}-360")
        page.click("[data-action=replay-last]")
        page.wait_for_selector(".replay-end .results")
        assert shown_keys(page) == []
        shot(page, f"replay-end-{lang}-360")
        assert axe_violations(page) == [], lang
    assert js_errors == []


def test_a_matchs_end_shares_its_replay_and_opens_it(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    code, guest = play_match(server, {"variant": "haitian", "players": 3, "options": {"hands": 1},
                                      "computers": {"1": "beginner", "2": "beginner"}})
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(server + "/")
    page.evaluate("(who) => localStorage.setItem('kabes.identity', JSON.stringify(who))", guest)
    page.goto(f"{server}/t/{code}")  # the match is over: its end is shown
    page.wait_for_selector(".results.match-over [data-action=watch-replay]")
    assert page.evaluate("typeof navigator.share") == "undefined", "a share sheet: nothing to copy"
    page.click(".results [data-action=share]")
    page.get_by_text("Link copied: send it to your friends.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/r/{code}"
    page.click("[data-action=watch-replay]")
    page.wait_for_selector(".replay-position[data-move]")
    assert page.url == f"{server}/r/{code}?hand=1&move=0"
    page.click("[data-action=replay-next]")
    wait_at(page, 1, 1)
    page.click(".replay-screen [data-action=share]")
    page.get_by_text("Link copied: send it to your friends.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/r/{code}?hand=1&move=1"
    # One's own hand, reviewed by the expert as after a game against the computer.
    page.click("[data-action=replay-last]")
    page.click(".replay-end [data-action=review]")
    page.wait_for_selector("dialog.review .review-count, dialog.review .review-empty")
    assert page.locator("dialog.review .error").count() == 0
    page.click("[data-action=close-review]")
    assert js_errors == []


def test_a_link_sent_to_a_stranger_opens_without_asking_a_name(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    """A replay, a player's page and the rankings are what a link in WhatsApp leads to: a
    visitor who has never given a name reads them at once (pages.js: "open"); any other page
    still asks the name first."""
    code, guest = play_match(server, {"variant": "haitian", "players": 3, "options": {"hands": 1},
                                      "computers": {"1": "beginner", "2": "beginner"}})
    page = new_page(reduced_motion="reduce")
    page.goto(f"{server}/r/{code}?hand=1&move=2")
    page.wait_for_selector(".replay-position[data-move='2']")
    assert page.locator("#name").count() == 0, "a replay's link asks no name"
    assert page.locator("[data-action=replay-next]").is_enabled()
    assert page.evaluate("() => localStorage.getItem('kabes.identity')") is None
    page.goto(f"{server}/p/{guest['player']}")
    page.wait_for_selector("[data-chart=rating], .player-matches, h1")
    assert page.locator("#name").count() == 0, "a player's page asks no name"
    page.goto(f"{server}/rankings/haitian")
    page.wait_for_selector("[data-rule=ranked]")
    assert page.locator("#name").count() == 0, "the rankings ask no name"
    page.goto(f"{server}/lobby")
    page.wait_for_selector("#name")
    assert js_errors == []

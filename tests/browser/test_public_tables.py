"""Strangers meet at a public table, each on their own phone (360 x 740): four new people each
tap "Play with people" for partnership and find themselves at one table, which starts by
itself when the fourth sits down. A fifth and a sixth person open the lobby, see the table
waiting and then in play, and watch it: the board and the seats' counts, no hand. One player
says a phrase: every other phone shows it by that player's seat in its own language (Kreyòl,
French, English). They play a hand by tapping; the watchers see every hand face up at its end.
Screenshots of the lobby, a watched table and a phrase in two languages; axe on each."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from browsing import register, shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for
from play import my_turn, tap_play, wait_played

SMALL = {"width": 360, "height": 740}
PEOPLE = [("Roselène", "ht"), ("Amélie", "fr"), ("Jean", "en"), ("Lucía", "es")]
LOCALES = {"ht": "ht-HT", "fr": "fr-FR", "en": "en-US", "es": "es-ES"}


def person(new_page: Any, server: str, name: str, lang: str, path: str = "/") -> Any:
    page = new_page(viewport=SMALL, locale=LOCALES[lang], reduced_motion="reduce")
    register(page, server, name, path)
    return page


def looked_at(page: Any, name: str) -> None:
    page.wait_for_timeout(150)
    shot(page, name)
    assert not layout_problems(page), name
    assert not shown_keys(page), name
    assert not axe_violations(page), name


def quick_seat(page: Any) -> str:
    page.wait_for_selector("[data-action=quick-seat]")
    page.select_option("#variant", "partnership")
    page.click("[data-action=quick-seat]")
    page.wait_for_url("**/t/*")
    return str(page.url.rsplit("/", 1)[-1])


def test_strangers_meet_watch_and_talk(server: str, new_page: Any, js_errors: list[str]) -> None:
    with urllib.request.urlopen(server + "/api/phrases") as r:
        phrases = json.load(r)["phrases"]
    assert len(phrases) >= 12

    players = []
    codes = []
    for name, lang in PEOPLE[:2]:
        page = person(new_page, server, name, lang)
        codes.append(quick_seat(page))
        page.wait_for_selector(".big-code")
        players.append(page)

    # The lobby lists the table waiting, with who sits there and the free chairs.
    watchers = [person(new_page, server, "Ti Jak", "en"), person(new_page, server, "Manno", "ht")]
    for w, lang in zip(watchers, ["en", "ht"], strict=True):
        w.wait_for_selector("[data-action=lobby]")
        w.click("[data-action=lobby]")
        w.wait_for_url("**/lobby")
        w.wait_for_selector(f'.lobby-table[data-code="{codes[0]}"] [data-action=join]')
        card = w.locator(f'.lobby-table[data-code="{codes[0]}"]')
        assert "Roselène" in card.inner_text() and "Amélie" in card.inner_text()
        assert card.locator(".chair:not(.taken)").count() == 2
        looked_at(w, f"lobby-waiting-{lang}-360")

    for name, lang in PEOPLE[2:]:
        page = person(new_page, server, name, lang)
        codes.append(quick_seat(page))
        players.append(page)
    assert len(set(codes)) == 1, f"four quick seats, one table: {codes}"
    code = codes[0]
    for page in players:  # it started by itself when the fourth sat down
        page.wait_for_selector("[data-tile]")
    hands = [
        set(p.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)"))
        for p in players
    ]
    assert len(set().union(*hands)) == 28

    # The watchers find it among the matches in play and watch it: no hand, the seats' counts.
    for w, lang in zip(watchers, ["en", "ht"], strict=True):
        w.wait_for_selector(f'.lobby-table.playing[data-code="{code}"] [data-action=watch]')
        looked_at(w, f"lobby-playing-{lang}-360")
        w.click(f'.lobby-table.playing[data-code="{code}"] [data-action=watch]')
        w.wait_for_selector(".watch-mark")
        assert w.locator("[data-tile]").count() == 0, "a watcher sees no hand"
        assert w.locator(".seat[data-seat]").count() == 4, "every seat, with its tiles"
    wait_for(watchers[0], "() => document.querySelector('.watch-mark .watchers')")
    looked_at(watchers[0], "watched-en-360")
    looked_at(watchers[1], "watched-ht-360")

    # A phrase from Roselène, read by each phone in its own language.
    sayer = players[0]
    phrase = phrases[0]
    sayer.click("[data-action=say]")
    sayer.wait_for_selector(f'[data-phrase="{phrase["id"]}"]')
    looked_at(sayer, "phrases-ht-360")
    sayer.click(f'[data-phrase="{phrase["id"]}"]')
    readers = [(players[1], "fr"), (players[2], "en"), (watchers[1], "ht"), (sayer, "ht")]
    for page, lang in readers:
        bubble = page.locator(f'.said-bubble[data-said="{phrase["id"]}"]')
        bubble.wait_for()
        assert bubble.inner_text().strip() == phrase["text"][lang], lang
    shot(players[1], "phrase-fr-360")
    shot(players[2], "phrase-en-360")
    assert not axe_violations(players[2])
    # Mutes the others' phrases: Jean then sees none of Amélie's.
    players[2].click("[data-action=say]")
    players[2].check("[data-action=mute-phrases]")
    players[2].click("dialog.phrases [data-action=close]")
    players[2].wait_for_timeout(3600)  # the first bubble has gone
    players[1].click("[data-action=say]")
    players[1].click(f'[data-phrase="{phrases[1]["id"]}"]')
    players[0].wait_for_selector(f'.said-bubble[data-said="{phrases[1]["id"]}"]')
    players[2].wait_for_timeout(300)
    assert players[2].locator(".said-bubble").count() == 0, "muted"

    # A hand played by tapping; the watchers see the hands face up at its end.
    deadline = time.monotonic() + 240
    while not players[0].locator(".results").count():
        assert time.monotonic() < deadline, "the hand did not end"
        mover = next((p for p in players if my_turn(p)), None)
        if mover is None:
            players[0].wait_for_timeout(60)
            continue
        before = mover.locator("[data-tile]").count()
        wait_played(mover, before, tap_play(mover))
    for w in watchers:
        w.wait_for_selector(".results .hands-up")
        assert w.locator(".results .hand-up").count() == 4
        assert w.locator("[data-action=next-hand]").count() == 0
        # Every person's name at the hand's end opens their page, in a new tab.
        links = w.locator(".results .hand-up .seat-name a.player-link")
        assert links.count() == 4
        assert all(href.startswith("/p/") for href in links.evaluate_all(
            "(els) => els.map((e) => e.getAttribute('href'))"))
        assert links.first.get_attribute("target") == "_blank"
        seated = w.locator(".seat .seat-name a.player-link").evaluate_all(
            "(els) => els.map((e) => e.getAttribute('href'))")
        assert len(set(seated)) == 4, "a watcher's seats name their people with links"
    looked_at(watchers[0], "watched-end-en-360")
    # The watchers' count reaches the seats with the table's next update (a watcher coming
    # sends the seats nothing).
    assert "2" in players[0].locator(".tools .info").inner_text(), "the seats see the watchers"
    assert not js_errors

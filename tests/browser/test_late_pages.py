"""A page that comes late never draws over the page the player went to since.

On a slow network a player taps a way out (Tournaments, a tournament's link) and then Back
before the page has come: its module, or the first answer it waits for, arrives once home is on
screen again. The late page must then draw nothing: home stays, at "/". Each test holds the
late request (Playwright's page.route) until home is back, then lets it through and checks
that the page the late request belonged to has run its course. Service workers are blocked in
these contexts: page.route does not see the requests a service worker makes."""

from __future__ import annotations

from typing import Any

from browsing import register
from helpers import held, until_held, wait_for


def back_home_then_answered(page: Any, waiting: list[Any]) -> None:
    """The player goes Back to home, and once home is drawn the held request goes through."""
    page.go_back()
    page.wait_for_selector("main.home [data-action=tournaments]")
    waiting[0].continue_()


def home_is_shown(page: Any, server: str) -> None:
    """Home is on screen, and only home: at "/", its Tournaments card there, no page of
    tournaments beside it."""
    assert page.url == server + "/"
    assert page.locator("[data-action=tournaments]").is_visible()
    assert page.locator("main").count() == 1
    assert page.locator("main.home").count() == 1


def test_a_page_whose_module_comes_late_after_back_draws_nothing(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(service_workers="block")
    waiting = held(page, "**/static/tournaments.js")
    register(page, server, "Nadège")
    page.click("[data-action=tournaments]")
    until_held(page, waiting)
    assert page.url == server + "/c"
    back_home_then_answered(page, waiting)
    # The module has come and been run once the page can import it too; the late route's
    # turn came before this one's (the same module, asked for first).
    page.evaluate(
        "() => import('/static/tournaments.js').then(() => new Promise(requestAnimationFrame))"
    )
    page.wait_for_timeout(200)
    home_is_shown(page, server)
    assert js_errors == []


def test_a_page_whose_first_answer_comes_late_after_back_draws_nothing(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(service_workers="block")
    waiting = held(page, "**/api/tournaments/NOSUCH")
    register(page, server, "Wilner")
    page.wait_for_selector("main.home [data-action=tournaments]")
    # In-page navigation to a tournament's page (as its link in the list does): it draws
    # "loading", then waits for the tournament (held here), then draws what it got.
    page.evaluate(
        "() => { history.pushState(null, '', '/c/NOSUCH');"
        " dispatchEvent(new PopStateEvent('popstate')); }"
    )
    until_held(page, waiting)
    page.wait_for_selector("main.home", state="detached")
    back_home_then_answered(page, waiting)
    # The answer (not found) has been read once the page's own fetch of it has ended.
    wait_for(
        page,
        "() => performance.getEntriesByType('resource').some("
        "(e) => e.name.endsWith('/api/tournaments/NOSUCH') && e.responseEnd > 0)",
    )
    page.wait_for_timeout(300)
    home_is_shown(page, server)
    assert [e for e in js_errors if "404" not in e] == []

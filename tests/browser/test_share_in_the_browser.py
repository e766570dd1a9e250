"""The Share button passes a link on: the phone's share sheet where there is one, else the
link copied to the clipboard and the page saying so, or, where the clipboard refuses, the
page showing the link to copy by hand. The waiting room shares the table's link, a
tournament's page its own. (Chromium on Linux has no share sheet: the copy is what is seen.)"""

from __future__ import annotations

from typing import Any

from browsing import register

COPIED = "Link copied: send it to your friends."


def share_copies(page: Any, link: str) -> None:
    """Share puts ``link`` on the clipboard and says so."""
    assert page.evaluate("typeof navigator.share") == "undefined", "a share sheet: nothing to copy"
    page.click("[data-action=share]")
    page.get_by_text(COPIED).wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_the_waiting_room_copies_the_tables_link_else_shows_it(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page(permissions=["clipboard-read", "clipboard-write"])
    register(host, server, "Roselène")
    host.select_option("#variant", "haitian")
    host.click("[data-action=open-table]")
    host.wait_for_selector(".big-code")
    link = server + host.locator(".link-text a").get_attribute("href")
    share_copies(host, link)

    refused = new_page()  # its clipboard refuses the copy
    register(refused, server, "Mireille", link.removeprefix(server))
    refused.wait_for_selector(".big-code")
    refused.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error()); }")
    refused.click("[data-action=share]")
    refused.get_by_text(f"Copy this link: {link}").wait_for()
    assert js_errors == []


def test_a_tournaments_page_copies_its_link(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page(permissions=["clipboard-read", "clipboard-write"])
    register(host, server, "Jean")
    host.click("[data-action=tournaments]")
    host.wait_for_selector("[data-action=create-tournament]")
    host.select_option("#tour-variant", "plaza")
    host.click("[data-action=create-tournament]")
    host.wait_for_selector("[data-action=enter]")
    link = server + host.locator("[data-link=tournament]").get_attribute("href")
    share_copies(host, link)
    assert js_errors == []

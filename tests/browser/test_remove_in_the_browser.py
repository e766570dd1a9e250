"""Before the start, the host removes a player from the waiting room (the Remove button
beside each other person seated); the removed player's phone says so, and the table's link
does not seat them again."""

from __future__ import annotations

from typing import Any

from browsing import register, shot


def test_the_host_removes_a_player_who_sees_they_were_removed(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page()
    register(host, server, "Roselène")
    host.select_option("#variant", "haitian")
    host.click("[data-action=open-table]")
    host.wait_for_selector(".big-code")
    link = host.locator(".link-text a").get_attribute("href")
    assert host.locator("[data-action=remove]").count() == 0, "nobody else is seated yet"

    friend = new_page()
    register(friend, server, "Mireille", link)
    friend.wait_for_selector(".big-code")
    assert friend.locator("[data-action=remove]").count() == 0, "only the host removes"

    remove = host.get_by_role("button", name="Remove Mireille from this table")
    remove.wait_for()
    assert host.locator("[data-action=remove]").count() == 1, "never the host's own seat"
    shot(host, "waiting-remove")
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    host.on("dialog", accept)
    remove.click()
    friend.wait_for_selector(".problem")
    assert "The host removed you from this table." in friend.locator(".problem").inner_text()
    assert asked and "Mireille" in asked[0]
    shot(friend, "removed")
    host.wait_for_selector("[data-action=remove]", state="detached")
    assert host.locator(".seat-row.taken").count() == 1

    friend.goto(server + link)  # the link no longer seats them
    friend.wait_for_selector(".problem")
    assert "The host removed you from this table." in friend.locator(".problem").inner_text()
    # The browser logs the join's 403 (removed) itself; nothing else may have gone wrong.
    assert [e for e in js_errors if "status of 403" not in e] == []

"""The language picker (topbar.js, i18n.js): two quick picks whose words load out of order
leave the page in the language picked last."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from browsing import start_server


def test_two_quick_picks_leave_the_page_in_the_language_picked_last(
    tmp_path: Path, new_page: Any, js_errors: list[str]
) -> None:
    proc, base = start_server(tmp_path)
    try:
        # Blocked service workers: every fetch of the words goes through the route below.
        page = new_page(service_workers="block")
        held: list[Any] = []

        def hold_french(route: Any) -> None:
            held.append(route)  # answered below, after the later pick's words are in place

        page.route("**/static/i18n/fr.json", hold_french)
        page.goto(base + "/")
        page.wait_for_selector(".lang-field select")
        page.select_option(".lang-field select", "fr")
        page.select_option(".lang-field select", "ht")
        page.wait_for_function("() => document.documentElement.lang === 'ht'")
        assert held, "the French words were asked for"
        with page.expect_response(lambda reply: reply.url.endswith("/static/i18n/fr.json")):
            held[0].continue_()
        page.wait_for_timeout(500)  # the late words read and, before the fix, put in place
        assert page.evaluate("document.documentElement.lang") == "ht"
        assert js_errors == []
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

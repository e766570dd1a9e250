"""The web client runs under the server's Content-Security-Policy (issue 18): the policy is
in force (a style attribute set by a script is refused, and the browser says so on the
console, which every browser test collects as an error), and the pages a first visit goes
through break none of it. The other browser tests play whole games under the same policy."""

from __future__ import annotations

from typing import Any

from browsing import register
from helpers import wait_for

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def test_the_web_client_runs_under_its_content_security_policy(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    page.add_init_script(WATCH)
    response = page.goto(server + "/learn")
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    register(page, server, "Roselène")
    page.wait_for_selector("[data-action]")
    page.goto(server + "/learn")
    page.wait_for_selector("a, button")
    assert page.evaluate("window.__csp") == [], "the client's own pages break no rule"
    assert not js_errors, js_errors
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    violations = wait_for(page, "window.__csp.length && window.__csp")
    assert violations[0].startswith("style-src"), violations
    wait_for(page, "true")  # the console message arrives meanwhile
    page.wait_for_timeout(200)
    assert any("Content Security Policy" in text for text in js_errors), js_errors
    js_errors.clear()

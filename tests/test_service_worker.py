"""The service worker caches every module of the web client, so that every screen opens
offline from a phone's home screen (sw.js keeps its list by hand: this test keeps it whole)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "src" / "kabes" / "web"


def test_the_service_worker_caches_every_module_of_the_client() -> None:
    listed = set(re.findall(r'"/static/([A-Za-z0-9_]+\.js)"', (WEB / "sw.js").read_text()))
    modules = {path.name for path in WEB.glob("*.js")} - {"sw.js"}
    assert modules - listed == set(), "add these modules to sw.js's SHELL (and bump CACHE)"
    assert listed - modules == set(), "sw.js names modules that no longer exist"

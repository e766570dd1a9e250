"""The one list of the client's pages (web/pages.js) is what app.js routes by, what the server
serves and preloads (server/pages.py), and where the service worker starts to cache every
module of the client, so that every screen opens offline from a phone's home screen: a page
or a module is added with no line in sw.js (this test keeps the list whole and sw.js free of
names)."""

from __future__ import annotations

import re
from pathlib import Path

from kabes.server.http.pages import Pages, page_entry, reachable, read_pages

WEB = Path(__file__).resolve().parent.parent / "src" / "kabes" / "web"
CATALOGS = WEB.parent / "words" / "catalogs"


def test_the_service_worker_reaches_every_module_from_the_list_of_pages() -> None:
    modules = {path.name for path in WEB.glob("*.js")} - {"sw.js"}
    reached = set(reachable(WEB))
    assert modules - reached == set(), "no page reaches these modules: list their page in pages.js"
    worker = (WEB / "sw.js").read_text()
    assert re.findall(r'"/static/([A-Za-z0-9_]+\.js)"', worker) == [], \
        "sw.js finds the modules from pages.js: it names none"
    assert "pages.js" in worker


def test_every_page_of_the_list_is_a_module_exporting_its_page() -> None:
    listed = read_pages(WEB)
    assert listed[0].path == "/" and len({p.path for p in listed}) == len(listed)
    text = (WEB / "pages.js").read_text()
    for page, entry in zip(listed, re.findall(r'"page": "(\w+)"', text), strict=True):
        assert re.search(rf"export (async )?function {entry}\(", (WEB / page.module).read_text())


def test_the_server_serves_and_preloads_each_page_of_the_list() -> None:
    pages = Pages(WEB, CATALOGS)
    assert pages.paths == [p.path for p in read_pages(WEB)]
    examples = {"/": "home.js", "/t/AB12CD": "table.js", "/t/AB12CD/": "table.js",
                "/lobby": "lobby.js", "/learn": "learn.js", "/learn/dominoes.1": "lesson.js",
                "/c": "tournaments.js", "/c/x1": "tournament.js", "/nowhere": "home.js"}
    for path, module in examples.items():
        assert page_entry(pages.pages, path) == module, path
        assert f'href="/static/{module}"' in pages.html(path, "").decode()

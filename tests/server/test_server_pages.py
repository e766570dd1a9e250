"""The web client's page and files as a slow phone gets them (issue 19, "Slow networks"):
the page names every module and catalog its first visit needs, in the order it needs them, and
writes the list of languages in itself (a request fewer); and the files come
compressed (brotli when the browser takes it), byte for byte the files on disk once
decompressed, revalidated by ETag. The timing itself is tests/browser/test_slow_network.py's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from harness import Server

from kabes.server.http.pages import dynamic, imports

WEB = Path(__file__).resolve().parents[2] / "src" / "kabes" / "web"


def preloaded(html: str) -> tuple[list[str], list[str]]:
    """The modules and the fetches a page names in its head."""
    modules = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', html)
    fetches = re.findall(r'<link rel="preload" href="([^"]+)" as="fetch"', html)
    return modules, fetches


async def test_home_names_app_js_and_everything_it_imports_but_not_the_table(
    server: Server,
) -> None:
    page = await server.http.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert page.headers["cache-control"] == "no-cache"
    modules, fetches = preloaded(page.text)
    assert modules[0] == "app.js"
    welcome = {m for first in dynamic(WEB, "app.js") for m in imports(WEB, first)}
    assert set(modules) == set(imports(WEB, "app.js")) | welcome | set(imports(WEB, "home.js"))
    assert {"home.js", "welcome.js", "i18n.js"} <= set(modules)
    assert "table.js" not in modules and "lesson.js" not in modules
    assert fetches == ["/static/i18n/en.json"]
    assert page.text.index("modulepreload") < page.text.index('<script type="module"')


async def test_the_page_holds_the_list_of_languages_as_languages_json_has_it(
    server: Server,
) -> None:
    page = (await server.http.get("/")).text
    written = re.search(r'<meta name="kabes-languages" content=\'([^\']*)\'>', page)
    assert written is not None
    on_disk = (WEB.parent / "words" / "catalogs" / "languages.json").read_text(encoding="utf-8")
    assert list(json.loads(written.group(1)).items()) == list(json.loads(on_disk).items())


async def test_a_link_to_a_table_names_the_tables_modules_and_its_summary(
    server: Server,
) -> None:
    page = (await server.http.get("/t/AB12CD")).text
    modules, fetches = preloaded(page)
    assert set(imports(WEB, "table.js")) <= set(modules)
    assert "/api/tables/AB12CD" in fetches
    # The socket's module and the summary come first: the socket opens while the rest downloads.
    assert page.index("/api/tables/AB12CD") < page.index("/static/i18n/en.json")
    assert modules.index("socket.js") < modules.index("welcome.js") < modules.index("table.js")
    assert "results.js" not in modules and "review.js" not in modules


async def test_a_table_on_the_phone_is_the_table_page_with_no_summary_from_the_server(
    server: Server,
) -> None:
    """Its code starts with L (issue 26): the phone's worker has its summary, not the server."""
    page = (await server.http.get("/t/L2345678")).text
    modules, fetches = preloaded(page)
    assert set(imports(WEB, "table.js")) <= set(modules)
    assert not [f for f in fetches if f.startswith("/api/tables/")]


async def test_a_page_with_a_stylesheet_of_its_own_names_it_and_a_table_names_none(
    server: Server,
) -> None:
    for path, style in [("/learn", "learn.css"), ("/learn/dominoes.1", "learn.css"),
                        ("/c", "tournaments.css"), ("/c/x1", "tournaments.css")]:
        page = (await server.http.get(path)).text
        assert f'<link rel="stylesheet" href="/static/{style}">' in page, path
        assert page.index("/static/app.css") < page.index(f"/static/{style}")
    table = (await server.http.get("/t/AB12CD")).text
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', table) == ["/static/app.css"]


async def test_a_path_that_is_no_table_code_is_never_written_into_the_page(
    server: Server,
) -> None:
    page = (await server.http.get("/t/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E")).text
    assert "alert" not in page and "/api/tables/" not in page


@pytest.mark.parametrize(("accept", "catalog"), [
    ("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("nb-NO,nb;q=0.9", "no"), ("da, pt;q=0.5", "pt"),
    ("en;q=0.2, ht;q=0.8", "ht"), ("zh-CN", None), ("", None),
])
async def test_the_catalog_of_the_browsers_language_comes_with_english(
    server: Server, accept: str, catalog: str | None,
) -> None:
    _, fetches = preloaded((await server.http.get("/", headers={"Accept-Language": accept})).text)
    words = [f for f in fetches if f.startswith("/static/i18n/")]
    expected = ["en.json"] + ([f"{catalog}.json"] if catalog else [])
    assert words == [f"/static/i18n/{w}" for w in expected]


@pytest.mark.parametrize("path", ["/static/table.js", "/static/app.css",
                                  "/static/topbar.js", "/static/i18n/fr.json"])
async def test_static_files_come_compressed_and_decompress_to_the_file(
    server: Server, path: str,
) -> None:
    name = path.removeprefix("/static/")
    on_disk = (WEB / name if not name.startswith("i18n/") else
               WEB.parent / "words" / "catalogs" / name.removeprefix("i18n/")).read_bytes()
    tags = set()
    for accept, encoding in [
        ("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("gzip, br;q=0", "gzip"),
    ]:
        reply = await server.http.get(path, headers={"Accept-Encoding": accept})
        assert reply.status_code == 200
        assert reply.headers["content-encoding"] == encoding
        assert "Accept-Encoding" in reply.headers["vary"]
        assert reply.headers["content-security-policy"].startswith("default-src 'self'")
        assert reply.content == on_disk  # httpx decodes what content-encoding says
        assert int(reply.headers["content-length"]) < len(on_disk)
        again = await server.http.get(path, headers={
            "Accept-Encoding": accept, "If-None-Match": reply.headers["etag"]})
        assert again.status_code == 304
        tags.add(reply.headers["etag"])
    assert len(tags) == 2, "a cache must never mix one encoding's bytes with another's"
    plain = await server.http.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == on_disk

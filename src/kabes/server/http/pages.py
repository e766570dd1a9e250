"""The one page of the web client, served with its first visit's needs named in its head.

The client is plain ES modules with no build step, so a browser learns what a page needs
one import at a time: app.js, then the modules it imports, then theirs, and only when they
have all run, the words (``languages.json``, then a catalog). On a phone on 3G each of those
steps is a round trip of 300 ms or more. The server knows the whole graph, so the page it
serves names it: a ``<link rel="modulepreload">`` for every module the page's entry imports,
directly or not, and a ``<link rel="preload" as="fetch">`` for the catalogs the page will
load (English, always loaded as the fallback, and the first language of the browser's
``Accept-Language`` that Kabès speaks, as i18n.js's ``preferredLang`` picks it), and for a
link to a table, the table's summary. Everything then comes at once, right after the HTML.
The list of languages itself is written in the head (``<meta name="kabes-languages">``, read
by i18n.js), a request fewer: over HTTP/1.1 a browser asks at most six at a time, so on 3G
every request, however small, costs about a sixth of a round trip.

The graph is read from the modules themselves (their static ``import ... from "./x.js"``),
so it never goes stale: a module added to the client is preloaded without a line here.
Every page is loaded by app.js with ``import()`` when first opened, so a first visit to home
does not pay for the table's modules: the page at a path (pages.js, the client's one list of
pages, read here as it is there) also preloads that page's graph. A module a page imports
with ``import()`` only when it needs it (a table's results, its review) is not preloaded. A
page with a stylesheet of its own (pages.js: ``style``, the lessons' and the tournaments') has
it in its head after app.css.

The head names them in the order they are needed, since on a slow network they arrive about
in that order: app.js's graph; the graph of the page's ``starts`` module (pages.js: what
app.js runs before the page's own modules arrive) and, for a table, its summary, so that its
socket opens while the rest downloads; the catalogs; the welcome (app.js's own ``import()``:
the first screen of a visitor not yet named, on any path); then the page's graph.

A shared link's page (``/r/CODE``, ``/p/ID``) also carries, right after its title, the Open
Graph tags of its preview (kabes.server.http.previews), given to :meth:`Pages.html`.

The graph and each page are computed once per process (the files do not change while it
runs; a developer editing a module restarts the server to preload the new graph, and the page
works meanwhile, only a little slower).
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STATIC = "/static/"
WORDS = "/static/i18n/"
IMPORT = re.compile(
    r'^\s*(?:import|export)\b[^;"]*?\bfrom\s*"\./([\w.-]+\.js)"|^\s*import\s*"\./([\w.-]+\.js)"',
    re.MULTILINE)
"""A static import (or re-export) of a module of the same folder."""
PAGES = "pages.js"
"""The one list of the client's pages (path, module, title): app.js routes by it, the server
serves its paths and preloads each page's modules, sw.js caches what it reaches."""
PAGES_JSON = re.compile(r"\bPAGES\s*=\s*(\[.*?\n\]);", re.DOTALL)
DYNAMIC = re.compile(r'\bimport\(\s*"\./([\w.-]+\.js)"\s*\)')
"""A dynamic import of a module of the same folder, named in full."""
ENTRY = "app.js"
LANGUAGES_META = "kabes-languages"
"""The name of the head's ``<meta>`` holding languages.json (code to name, in order)."""
TABLE_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,32})/?")
"""A link to a table, as app.js reads it: its page starts by asking for the table's summary
(``GET /api/tables/CODE``), which the page's head asks for at once."""
LOCAL_PREFIX = "L"
"""A table whose code starts with it is played on the phone (kabes.local.tables.PREFIX):
its page asks the phone's worker, never the server, for its summary."""


def imports(folder: Path, module: str) -> list[str]:
    """The modules ``module`` needs, itself first, then each import's graph in order, each
    once."""
    seen: list[str] = []

    def visit(name: str) -> None:
        if name in seen or not (folder / name).is_file():
            return
        seen.append(name)
        for found in IMPORT.finditer((folder / name).read_text(encoding="utf-8")):
            visit(found.group(1) or found.group(2))

    visit(module)
    return seen


@dataclass(frozen=True)
class Page:
    """One page of the client, as pages.js lists it."""

    path: str
    """Its path, with ``{name}`` for a part the page is given (as FastAPI writes routes)."""
    module: str
    pattern: re.Pattern[str]
    """What a path of this page is, as app.js's ``pageAt`` matches it."""
    starts: str | None = None
    """The module app.js runs before the page's own modules arrive (a table's socket.js)."""
    style: str | None = None
    """The page's own stylesheet besides app.css (the lessons', the tournaments')."""


def read_pages(folder: Path) -> list[Page]:
    """The pages listed in ``folder``'s pages.js, in its order (the first that matches wins)."""
    found = PAGES_JSON.search((folder / PAGES).read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{folder / PAGES} has no PAGES = [...] list")
    pages = []
    for entry in json.loads(found.group(1)):
        part = f"[{entry.get('part', 'A-Za-z0-9_-')}]+"
        source = re.sub(r"\\\{\w+\\\}", part.replace("\\", r"\\"), re.escape(entry["path"]))
        pattern = re.compile("/" if source == "/" else f"{source}/?")
        pages.append(Page(entry["path"], entry["module"], pattern, entry.get("starts"),
                          entry.get("style")))
    return pages


def page_at(pages: list[Page], path: str) -> Page:
    """The page at ``path`` (home, the first page, for any path no page has)."""
    return next((p for p in pages if p.pattern.fullmatch(path)), pages[0])


def page_entry(pages: list[Page], path: str) -> str:
    """The module app.js loads with ``import()`` for the page at ``path``."""
    return page_at(pages, path).module


def dynamic(folder: Path, module: str) -> list[str]:
    """The modules ``module`` loads with ``import("./x.js")`` written in full."""
    return [m.group(1) for m in DYNAMIC.finditer((folder / module).read_text(encoding="utf-8"))]


def reachable(folder: Path) -> list[str]:
    """Every module the client may run: app.js's graph and every page's, following dynamic
    imports too (what sw.js caches, found the same way)."""
    seen: list[str] = []
    todo = [ENTRY, PAGES] + [m for p in read_pages(folder) for m in (p.starts, p.module) if m]
    while todo:
        name = todo.pop(0)
        if name in seen or not (folder / name).is_file():
            continue
        seen.append(name)
        text = (folder / name).read_text(encoding="utf-8")
        todo += [m.group(1) or m.group(2) for m in IMPORT.finditer(text)]
        todo += [m.group(1) for m in DYNAMIC.finditer(text)]
    return seen


def head_modules(folder: Path, page: Page) -> tuple[list[str], list[str], list[str], list[str]]:
    """The modules a first visit to ``page`` needs, each once, in the head's four groups:
    app.js's graph, the graph of the page's ``starts``, the welcome's (app.js's own
    ``import()``), the page's."""
    groups: list[list[str]] = []
    seen: set[str] = set()
    for graph in (imports(folder, ENTRY),
                  imports(folder, page.starts) if page.starts else [],
                  [m for first in dynamic(folder, ENTRY) for m in imports(folder, first)],
                  imports(folder, page.module)):
        groups.append([m for m in dict.fromkeys(graph) if m not in seen])
        seen.update(graph)
    return groups[0], groups[1], groups[2], groups[3]


def language(accept: str, languages: list[str]) -> str:
    """The first language of an ``Accept-Language`` header (by weight, then order) that
    Kabès speaks, as i18n.js's ``preferredLang`` reads ``navigator.languages``; else
    English."""
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        ranked.append((-weight, order, tag.strip().lower().split("-")[0]))
    for _, _, base in sorted(ranked):
        base = "no" if base in ("nb", "nn") else base
        if base in languages:
            return base
    return "en"


class Pages:
    """The page for each path and language, built from ``index.html`` in ``web`` and the
    catalogs in ``catalogs``."""

    def __init__(self, web: Path, catalogs: Path) -> None:
        self.web = web
        self.template = (web / "index.html").read_text(encoding="utf-8")
        names = json.loads((catalogs / "languages.json").read_text(encoding="utf-8"))
        self.languages = list(names)
        listed = html.escape(json.dumps(names, ensure_ascii=False), quote=False)
        listed = listed.replace("'", "&#39;")
        self.meta = f"<meta name=\"{LANGUAGES_META}\" content='{listed}'>\n  "
        """The list of languages, written in the head (i18n.js reads it there)."""
        self.pages = read_pages(web)
        self.paths = [page.path for page in self.pages]
        """The paths the server answers with the page (FastAPI's syntax, as pages.js)."""

    def html(self, path: str, accept_language: str, tags: str = "") -> bytes:
        """The page at ``path`` for a browser that sends ``accept_language``; ``tags``
        (a link's preview: kabes.server.http.previews) go right after its title, early in
        the head, where every app that reads a link's page looks for them."""
        before, after = self._html(page_at(self.pages, path),
                                   language(accept_language, self.languages))
        if tags:
            before = before.replace(b"</title>\n  ", b"</title>\n  " + tags.encode(), 1)
        table = TABLE_PATH.fullmatch(path)
        if table is None or table.group(1).startswith(LOCAL_PREFIX):
            return before + after  # a table on the phone (issue 26) has no summary here
        return before + _fetch(f"/api/tables/{table.group(1)}").encode() + after

    @cache  # noqa: B019 (one Pages per app, kept as long as the app)
    def _html(self, page: Page, lang: str) -> tuple[bytes, bytes]:
        """The page up to where a table's summary is named, and the rest."""
        app, starts, welcome, own = head_modules(self.web, page)
        words = ["en.json"] + ([f"{lang}.json"] if lang != "en" else [])
        sheet = [f'<link rel="stylesheet" href="{STATIC}{page.style}">\n  '] if page.style else []
        before = sheet + [self.meta] + [_module(m) for m in app + starts]
        after = ([_fetch(f"{WORDS}{w}") for w in words]
                 + [_module(m) for m in welcome + own])
        at = self.template.find('<script type="module"')
        if at < 0:
            at = self.template.find("</head>")
        return ((self.template[:at] + "".join(before)).encode(),
                ("".join(after) + self.template[at:]).encode())


def _module(name: str) -> str:
    return f'<link rel="modulepreload" href="{STATIC}{name}">\n  '


def _fetch(href: str) -> str:
    return f'<link rel="preload" href="{href}" as="fetch" crossorigin="anonymous">\n  '

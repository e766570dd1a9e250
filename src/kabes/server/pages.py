"""The one page of the web client, served with its first visit's needs named in its head.

The client is plain ES modules with no build step, so a browser learns what a page needs
one import at a time: app.js, then the modules it imports, then theirs, and only when they
have all run, the words (``languages.json``, then a catalog). On a phone on 3G each of those
steps is a round trip of 300 ms or more. The server knows the whole graph, so the page it
serves names it: a ``<link rel="modulepreload">`` for every module the page's entry imports,
directly or not, and a ``<link rel="preload" as="fetch">`` for the list of languages and the
catalogs the page will load (English, always loaded as the fallback, and the first language
of the browser's ``Accept-Language`` that Kabès speaks, as i18n.js's ``preferredLang``
picks it), and for a link to a table, the table's summary. Everything then comes at once,
right after the HTML.

The graph is read from the modules themselves (their static ``import ... from "./x.js"``),
so it never goes stale: a module added to the client is preloaded without a line here.
Pages other than home are loaded by app.js with ``import()`` when first opened, so a first
visit to home does not pay for the table's modules; a path of such a page (a link to a
table, a lesson) also preloads that page's graph: :data:`PAGE_ENTRIES`.

The graph and each page are computed once per process (the files do not change while it
runs; a developer editing a module restarts the server to preload the new graph, and the page
works meanwhile, only a little slower).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

STATIC = "/static/"
WORDS = "/static/i18n/"
IMPORT = re.compile(
    r'^\s*(?:import|export)\b[^;"]*?\bfrom\s*"\./([\w.-]+\.js)"|^\s*import\s*"\./([\w.-]+\.js)"',
    re.MULTILINE)
"""A static import (or re-export) of a module of the same folder."""
PAGE_ENTRIES: tuple[tuple[str, str], ...] = (
    ("/t/", "table.js"),
    ("/learn/", "lesson.js"),
    ("/learn", "learn.js"),
    ("/lobby", "lobby.js"),
    ("/c/", "tournament.js"),
    ("/c", "tournaments.js"),
)
"""Paths (by prefix, the first that matches) whose page app.js loads with ``import()``."""
ENTRY = "app.js"
TABLE_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,32})/?")
"""A link to a table, as app.js reads it: its page starts by asking for the table's summary
(``GET /api/tables/CODE``), which the page's head asks for at once."""


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


def page_entry(path: str) -> str | None:
    """The module app.js loads with ``import()`` for the page at ``path``, if any."""
    return next((entry for prefix, entry in PAGE_ENTRIES if path.startswith(prefix)), None)


def page_modules(folder: Path, path: str) -> list[str]:
    """Every module the page at ``path`` runs on its first paint: app.js's graph, and the
    graph of the page's own entry when app.js loads it with ``import()``."""
    return _modules(folder, page_entry(path))


def _modules(folder: Path, entry: str | None) -> list[str]:
    modules = imports(folder, ENTRY)
    if entry is not None:
        modules += [m for m in imports(folder, entry) if m not in modules]
    return modules


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
        self.languages = list(json.loads(
            (catalogs / "languages.json").read_text(encoding="utf-8")))

    def html(self, path: str, accept_language: str) -> bytes:
        """The page at ``path`` for a browser that sends ``accept_language``."""
        page = self._html(page_entry(path), language(accept_language, self.languages))
        table = TABLE_PATH.fullmatch(path)
        if table is None:
            return page
        link = (f'<link rel="preload" href="/api/tables/{table.group(1)}" as="fetch" '
                'crossorigin="anonymous">\n  ').encode()
        at = page.find(b'<script type="module"')
        return page[:at] + link + page[at:]

    @cache  # noqa: B019 (one Pages per app, kept as long as the app)
    def _html(self, entry: str | None, lang: str) -> bytes:
        modules = _modules(self.web, entry)
        links = [f'<link rel="modulepreload" href="{STATIC}{m}">' for m in modules]
        words = ["languages.json", "en.json"] + ([f"{lang}.json"] if lang != "en" else [])
        links += [f'<link rel="preload" href="{WORDS}{w}" as="fetch" crossorigin="anonymous">'
                  for w in words]
        at = self.template.find('<script type="module"')
        if at < 0:
            at = self.template.find("</head>")
        head = "\n  ".join(links) + "\n  "
        return (self.template[:at] + head + self.template[at:]).encode()

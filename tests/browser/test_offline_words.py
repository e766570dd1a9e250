"""The service worker keeps the words for offline use: once installed, its cache holds the
list of languages and every catalog that list names, at the URLs the server serves them
(sw.js names no language: a language added to languages.json is cached with no line there)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from kabes.server.http.pages import reachable
from kabes.words import LANGUAGES

WEB = Path(__file__).resolve().parents[2] / "src" / "kabes" / "web"

CACHED_URLS = """async () => {
  await navigator.serviceWorker.ready;
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}"""


def test_the_service_worker_caches_every_catalog_the_language_list_names(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    with urllib.request.urlopen(f"{server}/static/i18n/languages.json") as response:
        served = list(json.load(response))
    assert served == list(LANGUAGES)
    page = new_page()
    page.goto(server + "/")
    cached = set(page.evaluate(CACHED_URLS))
    words = {f"/static/i18n/{lang}.json" for lang in ["languages", *LANGUAGES]}
    assert words <= cached, words - cached
    assert {"/", "/static/names.js", "/static/i18n.js"} <= cached
    modules = {f"/static/{name}" for name in reachable(WEB)}
    assert modules <= cached, modules - cached  # found from pages.js, named nowhere in sw.js
    assert not js_errors

"""Play with no network, the page's side (issue 26, UI.md "With no network"): home offers the
offline pack with the size the browser will receive, downloads it with a progress bar into a
cache of its own and marks the page ready (``<html data-offline="ready">``); offline, home
opens from the service worker, says once that there is no network, greys what needs the
server, lists the games kept on the phone and downloads a finished one's record, and the
local table's worker loads the pack from the cache; no request meanwhile goes past the
service worker. Where the server has no pack, home offers none.

Skipped where the server has no pack (npm was missing at setup); under CI that is a failure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browsing import register, shot, start_server
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for

from kabes.words import LANGUAGES

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
PACK_CACHE = "kabes-offline-v1"
SMALL_PHONE = {"width": 360, "height": 740}

CONTROLLED = "() => !!navigator.serviceWorker.controller"

WATCH_PROGRESS = """() => {
  window.__progress = [];
  new MutationObserver(() => {
    const bar = document.querySelector(".offline-card progress");
    if (bar && !bar.hidden) window.__progress.push(Number(bar.value));
  }).observe(document.body, {subtree: true, attributes: true, childList: true});
}"""

SAVE_GAMES = """async (games) => {
  const { saveGame } = await import("/static/games.js");
  for (const game of games) await saveGame(game);
}"""

PING = """async () => {
  const worker = new Worker("/static/offline/worker.js", {type: "module"});
  const pong = await new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message || "the worker failed"));
    worker.postMessage({type: "ping", id: "p1"});
  });
  worker.terminate();
  return pong;
}"""

USE_LOCAL = '() => import("/static/offline.js").then((m) => m.useLocalTable())'

OLDER_ENGINE = """async (archive) => {
  const cache = await caches.open("kabes-offline-v1");
  const manifest = await (await cache.match("/offline/manifest.json")).json();
  const old = "kabes-0000000000000000.zip";
  manifest.files[old] = manifest.files[archive];
  delete manifest.files[archive];
  manifest.kabes = old;
  await cache.put("/offline/manifest.json", new Response(JSON.stringify(manifest)));
  await cache.put("/offline/" + old, await cache.match("/offline/" + archive));
  await cache.delete("/offline/" + archive);
}"""
"""The kept pack as a server with an older engine left it: the same Pyodide, another archive."""

KEPT = """async (name) => {
  if (!(await caches.has(name))) return [];
  return (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
}"""


def games() -> list[dict[str, Any]]:
    """Two games as the local table keeps them (games.js): one over with its record, one in
    play."""
    record = json.loads((RECORDS / "plaza-2.json").read_text(encoding="utf-8"))
    over = {"code": "LOVER1", "variant": "plaza", "players": 2, "seats": [], "started": 1,
            "status": "over", "entries": [], "record": record,
            "result": {"scores": record["result"]["scores"],
                       "winners": record["result"]["winners"]}}
    playing = {"code": "LPLAY2", "variant": "haitian", "players": 3, "seats": [], "started": 2,
               "status": "playing", "entries": [], "record": None, "result": None}
    return [over, playing]


def test_the_pack_downloads_once_and_home_plays_on_the_phone_with_no_network(
    server: str, new_page: Any, js_errors: list[str], pack: dict[str, Any]
) -> None:
    page = new_page(viewport=SMALL_PHONE)
    register(page, server, "Solène")
    page.wait_for_selector("[data-action=play-computer]")
    wait_for(page, CONTROLLED)
    offer = page.wait_for_selector("[data-action=offline-pack]")
    # Over http the browser takes gzip (brotli only over HTTPS): the size it will receive.
    assert f"{pack['gzip'] / 1e6:.1f} MB" in offer.inner_text()
    assert "null" not in page.inner_text(".offline-card")
    assert page.get_attribute("html", "data-offline") is None
    offer.scroll_into_view_if_needed()
    shot(page, "offline-offer")
    page.evaluate(WATCH_PROGRESS)
    offer.click()
    page.wait_for_selector("html[data-offline=ready]", timeout=60000)
    seen = page.evaluate("window.__progress")
    assert len(seen) > 2 and seen == sorted(seen) and seen[-1] == 1, seen
    kept = set(page.evaluate(KEPT, PACK_CACHE))
    assert {f"/offline/{p}" for p in pack["files"]} | {"/offline/manifest.json"} <= kept
    assert "/api/variants" in kept  # home's form, with no network
    card = page.locator(".offline-card")
    assert "Ready on this phone" in card.inner_text()
    frees = card.locator("[data-action=offline-remove]").inner_text()
    assert f"{pack['bytes'] / 1e6:.1f} MB" in frees
    card.scroll_into_view_if_needed()
    shot(page, "offline-ready")

    # The player's choice: the computer on the server when online (the default), or the phone.
    assert page.evaluate(USE_LOCAL) is False
    page.click("label[for=computer-phone]")
    assert page.evaluate(USE_LOCAL) is True
    page.click("label[for=computer-server]")
    assert page.evaluate(USE_LOCAL) is False

    # A new engine on the server costs the phone its archive, not Pyodide again.
    page.evaluate(OLDER_ENGINE, pack["kabes"])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/offline/")[1])
            if "/offline/" in r.url else None)
    page.evaluate(SAVE_GAMES, games())
    page.reload()
    page.wait_for_selector("html[data-offline=ready]")  # found again in the cache at start
    wait_for(page, f"""async () => {{
      const kept = await ({KEPT})("{PACK_CACHE}");
      return kept.includes("/offline/{pack["kabes"]}") && !kept.some((p) => p.includes("0000"));
    }}""")
    assert sorted(asked) == sorted(["manifest.json", pack["kabes"]]), asked
    page.wait_for_load_state("networkidle")

    reached: list[str] = []
    failed: list[str] = []

    def finished(request: Any) -> None:
        response = request.response()
        if request.url.startswith("http") and not (response and response.from_service_worker):
            reached.append(request.url)

    page.on("requestfinished", finished)
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-action=play-computer]")
    note = page.wait_for_selector("[data-offline-note]:not([hidden])")
    assert note.inner_text() == "No network: playing on this phone"
    assert page.locator("text=/^No network/").count() == 1, "said once"
    assert page.locator(".error, .loading").count() == 0, "no error, no spinner"
    assert page.is_enabled("[data-action=play-computer]")
    for action in ("quick-seat", "open-table", "link-device"):
        assert page.is_disabled(f"[data-action={action}]"), action
    for action in ("lobby", "tournaments", "join"):
        item = page.locator(f"[data-action={action}]")
        assert item.get_attribute("aria-disabled") == "true" or item.is_disabled(), action
    assert page.locator(".needs-network .needs-line").count() >= 5

    codes = page.eval_on_selector_all(".my-games li", "rows => rows.map((r) => r.dataset.code)")
    assert codes == ["LPLAY2", "LOVER1"], codes  # the last played first
    played = page.locator(".my-games li[data-code=LPLAY2]")
    assert "In progress" in played.inner_text()
    assert played.locator("[data-action=resume-game]").get_attribute("href") == "/t/LPLAY2"
    assert played.locator("[data-action=download-record]").count() == 0
    done = page.locator(".my-games li[data-code=LOVER1]")
    record = games()[0]["record"]
    scores = " \N{EN DASH} ".join(str(s) for s in record["result"]["scores"])
    assert scores in done.inner_text()
    shot(page, "offline-home")
    done.scroll_into_view_if_needed()
    shot(page, "offline-my-games")
    with page.expect_download() as download:
        done.locator("[data-action=download-record]").click()
    assert download.value.suggested_filename == "kabes-LOVER1.json"
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8")) == record

    pong = page.evaluate(PING)  # the local table's worker loads the pack from the cache
    assert pong["type"] == "pong" and pong["pyodide"] == pack["pyodide"]["version"], pong

    done.locator("[data-action=remove-game]").click()
    done.locator("[data-action=remove-game]").click()  # the second tap removes it
    wait_for(page, "() => document.querySelectorAll('.my-games li').length === 1")
    assert not failed, failed
    assert not reached, reached

    page.context.set_offline(False)
    page.wait_for_selector("[data-offline-note]", state="hidden")
    # Online, but the server does not answer: the same, from the first call that fails.
    page.route("**/api/**", lambda route: route.abort("connectionrefused"))
    page.reload()
    note = page.wait_for_selector("[data-offline-note]:not([hidden])")
    assert note.inner_text() == "No network: playing on this phone"
    assert page.is_enabled("[data-action=play-computer]")
    assert page.is_disabled("[data-action=quick-seat]")
    assert page.locator(".error").count() == 0
    page.unroute("**/api/**")
    refused = [e for e in js_errors if "ERR_CONNECTION_REFUSED" in e]
    # Home's calls go out at once (the catalog of variants, the lobby's count, the rankings card,
    # one's matches): how many were refused before the first refusal turned home to the phone
    # depends on timing, but never more than those, and nothing is asked again.
    assert 1 <= len(refused) <= 4, js_errors
    js_errors[:] = [e for e in js_errors if e not in refused]
    page.reload()
    page.wait_for_selector("[data-action=offline-remove]")
    assert page.locator("[data-offline-note]").is_hidden()
    page.click("[data-action=offline-remove]")
    page.wait_for_selector("[data-action=offline-pack]")
    assert page.get_attribute("html", "data-offline") is None
    assert page.evaluate(KEPT, PACK_CACHE) == []
    assert not js_errors, js_errors


def test_without_a_pack_on_the_server_home_offers_none(
    browser: Any, tmp_path: Path, js_errors: list[str]
) -> None:
    empty = tmp_path / "no-pack"
    empty.mkdir()
    proc, base = start_server(tmp_path, "--offline-pack", str(empty))
    try:
        context = browser.new_context(viewport=SMALL_PHONE)
        page = context.new_page()
        page.on("pageerror", lambda e: js_errors.append(str(e)))
        register(page, base, "Wilner")
        page.wait_for_selector("[data-action=play-computer]")
        manifest = page.request.get(base + "/offline/manifest.json")
        assert manifest.status == 404
        page.wait_for_load_state("networkidle")
        assert page.locator("[data-action=offline-pack]").count() == 0
        assert page.locator(".offline-card").is_hidden()
        assert page.get_attribute("html", "data-offline") is None
        context.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert not js_errors, js_errors


def looks_right(page: Any, name: str) -> None:
    """UI.md's rules for every screen: nothing off-screen, overlapping or overflowing, no key
    shown, axe's serious and critical rules passing."""
    lang = page.evaluate("document.documentElement.lang")
    shot(page, f"{name}-{lang}")
    where = f"{name} ({lang})"
    problems = layout_problems(page)
    assert not problems, f"{where}: " + "; ".join(problems)
    assert not shown_keys(page), f"{where} shows keys: {shown_keys(page)}"
    bad = axe_violations(page)
    assert not bad, f"{where}: " + "; ".join(bad)


def test_the_offline_screens_in_every_language(
    server: str, new_page: Any, js_errors: list[str], pack: dict[str, Any]
) -> None:
    page = new_page(viewport=SMALL_PHONE, reduced_motion="reduce")
    register(page, server, "Jean-Baptiste")
    page.wait_for_selector("[data-action=play-computer]")
    wait_for(page, CONTROLLED)
    page.wait_for_selector(".offline-card:not([hidden])")
    looks_right(page, "offline-offer")
    page.click("[data-action=offline-pack]")
    page.wait_for_selector("html[data-offline=ready]", timeout=60000)
    page.evaluate(SAVE_GAMES, games())
    for lang in LANGUAGES:
        page.context.set_offline(False)
        page.evaluate(f"localStorage.setItem('kabes.lang', '\"{lang}\"')")
        page.reload()
        page.wait_for_selector("[data-action=offline-remove]")
        page.wait_for_load_state("networkidle")
        looks_right(page, "offline-ready")
        page.context.set_offline(True)
        page.reload()
        page.wait_for_selector("[data-offline-note]:not([hidden])")
        page.wait_for_selector(".my-games li[data-code=LOVER1] [data-action=download-record]")
        looks_right(page, "offline-home")
    assert not js_errors, js_errors

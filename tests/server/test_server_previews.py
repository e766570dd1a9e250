"""Links that show a picture (PROTOCOL.md, "Players, replays and rankings"): ``/r/CODE`` and
``/p/ID`` carry Open Graph tags, every value escaped, naming a PNG of at most 1200 x 630 and
100 KB; a private match's head and image show nothing of its game (the Kabès card), and asking
for a code that names nothing writes nothing. Matches are played over the table socket of an
in-process server on a real SQLite file; the pictures are read back with Pillow."""

from __future__ import annotations

import asyncio
import hashlib
import html
import io
import re
import secrets
import sqlite3
import time
from pathlib import Path
from random import Random
from typing import Any

import asyncpg
import httpx
import pytest
from harness import Server, Socket, running, sqlite_url
from PIL import Image
from stores import Backend, backend_fixture, db_url_fixture  # noqa: F401
from wsclient import ServerProcess

import kabes.server.http.previews as previews_module
from kabes.match import Match
from kabes.server.common.config import Edge
from kabes.server.common.limits import SlowDown
from kabes.server.http.preview_facts import match_facts
from kabes.server.http.preview_images import match_image
from kabes.server.http.previews import CARD, WAITING, Previews
from kabes.server.hub.hub import CODE_ALPHABET, CODE_LENGTH
from kabes.table.entries import Entry
from kabes.views import view

EVIL = '<b>"Evil\' & co</b>'
"""A name a stranger may choose: markup, both quotes and an ampersand."""
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def meta(page: str) -> dict[str, str]:
    """The head's Open Graph and Twitter tags, their values unescaped."""
    found = re.findall(r'<meta (?:property|name)="((?:og|twitter):[\w:]+)" content="([^"]*)">',
                       page)
    return {key: html.unescape(value) for key, value in found}


def assert_small_png(body: bytes) -> None:
    """A PNG of at most 1200 x 630 and 100 KB."""
    assert body.startswith(SIGNATURE)
    assert len(body) <= 100_000
    picture = Image.open(io.BytesIO(body))
    assert picture.format == "PNG"
    assert picture.size[0] <= 1200 and picture.size[1] <= 630


async def play_to(sock: Socket, stop: str) -> None:
    """Play seat 0's turns (first legal move) until the table's status is ``stop``."""
    sock.send({"type": "start", "id": "start"})
    moves = 0
    while True:
        message = await sock.until("update")
        if message["table"]["status"] == stop:
            return
        if message["view"]["turn"] == 0 and message["view"]["legal"]:
            sock.send({"type": "play", "id": f"m{moves}", "move": message["view"]["legal"][0]})
            moves += 1


async def finished(server: Server, name: str, public: bool, hands: int = 1,
                   stop: str = "over") -> str:
    """A Haitian match of ``name`` against two computers, played to ``stop``; its code."""
    _, token = await server.guest(name)
    code: str = (await server.open_table(
        token, variant="haitian", players=3, options={"hands": hands}, public=public,
        computers={"1": "casual", "2": "beginner"}))["code"]
    sock, _ = await server.connect(code, token)
    await play_to(sock, stop)
    return code


async def image_of(server: Server, url: str) -> bytes:
    """The image an ``og:image`` names, fetched from the server."""
    assert url.startswith("http://test/"), url
    reply = await server.http.get(url.removeprefix("http://test"))
    assert reply.status_code == 200 and reply.headers["content-type"] == "image/png"
    assert "max-age=" in reply.headers["cache-control"]
    return reply.content


async def test_a_public_match_links_to_a_png_of_its_last_hand_with_escaped_tags(
    server: Server,
) -> None:
    code = await finished(server, EVIL, public=True)
    page = (await server.http.get(f"/r/{code}")).text
    tags = meta(page)
    assert EVIL not in page, "a name is never written raw"
    assert html.escape(EVIL, quote=True) in page
    assert EVIL in tags["og:title"] and "Domino ayisyen" in tags["og:title"], "Kreyòl"
    assert tags["og:description"].startswith("Pati a fini")
    assert tags["og:url"] == f"http://test/r/{code}"
    assert tags["og:type"] == "website"
    assert tags["twitter:card"] == "summary_large_image"
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert tags["og:image"].startswith(f"http://test/api/previews/tables/{code}.png")
    assert page.index('property="og:title"') < page.index('rel="modulepreload"'), "early"
    kept = server.app.state.previews.kept[f"m:{code}"]
    assert kept.image is None, "a page's head does not wait for the picture to be drawn"
    body = await image_of(server, tags["og:image"])
    assert_small_png(body)
    assert body != await image_of(server, f"http://test{CARD}")
    head = await server.http.head(tags["og:image"].removeprefix("http://test"))
    assert head.status_code == 200 and head.headers["content-type"] == "image/png"


async def test_a_private_match_shows_the_card_and_nothing_of_its_game(server: Server) -> None:
    code = await finished(server, "Wilner Sekrè", public=False)
    page = (await server.http.get(f"/r/{code}")).text
    tags = meta(page)
    assert "Wilner" not in page
    assert tags["og:title"] == "Kabès"
    assert tags["og:image"] == f"http://test{CARD}"
    card = await image_of(server, tags["og:image"])
    assert_small_png(card)
    asked = await image_of(server, f"http://test/api/previews/tables/{code}.png")
    assert asked == card, "its image URL answers the card's bytes"


async def test_a_player_links_to_a_card_of_their_name_and_ratings(server: Server) -> None:
    player, _ = await server.guest(EVIL)
    page = (await server.http.get(f"/p/{player}")).text
    tags = meta(page)
    assert EVIL not in page and html.escape(EVIL, quote=True) in page
    assert tags["og:title"] == f"{EVIL} sou Kabès"
    assert tags["og:type"] == "profile"
    assert tags["og:url"] == f"http://test/p/{player}"
    assert tags["og:image"] == f"http://test/api/previews/players/{player}.png"
    body = await image_of(server, tags["og:image"])
    assert_small_png(body)
    nobody = (await server.http.get("/p/987654321")).text
    assert meta(nobody)["og:image"] == f"http://test{CARD}"


async def test_a_match_in_play_shows_its_last_finished_hand_not_the_one_in_play(
    server: Server,
) -> None:
    code = await finished(server, "Manouchka", public=True, hands=3, stop="between_hands")
    tags = meta((await server.http.get(f"/r/{code}")).text)
    assert tags["og:image"].endswith("?h=1") and "manch 1" in tags["og:description"]
    between = await image_of(server, tags["og:image"])
    server.app.state.previews.kept.clear()  # made again, not kept from before
    await server.advance(31)  # the pause between hands runs out: hand 2 is dealt
    assert (await server.http.get(f"/api/tables/{code}")).json()["status"] == "playing"
    again = meta((await server.http.get(f"/r/{code}")).text)
    assert again["og:image"].endswith("?h=1")
    assert await image_of(server, again["og:image"]) == between, "the same position"


async def counts(backend: Backend) -> dict[str, Any]:
    """Every table's rows and, for SQLite, each file's digest and modification time."""
    if not backend.url.startswith("sqlite"):
        pg = await asyncpg.connect(backend.url.replace("postgresql+asyncpg://",
                                                       "postgresql://"))
        try:
            names = [r[0] for r in await pg.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            return {n: int(await pg.fetchval(f'SELECT count(*) FROM "{n}"')) for n in names}
        finally:
            await pg.close()
    db = Path(backend.url.split("///", 1)[1])
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {n: conn.execute(f"SELECT count(*) FROM {n}").fetchone()[0] for n in names}
    finally:
        conn.close()
    files = {f.name: (hashlib.sha256(f.read_bytes()).hexdigest(), f.stat().st_mtime_ns)
             for f in sorted(db.parent.glob(db.name + "*"))}
    return {"rows": rows, "files": files}


async def test_unknown_codes_and_ids_get_the_card_and_write_nothing(
    db_url: str, backend: Backend,
) -> None:
    async with running(db_url) as server:
        card = await image_of(server, f"http://test{CARD}")
        before = await counts(backend)
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        for path in (f"/r/{code}", f"/r/{code.lower()}", "/r/not-a-code-at-all",
                     "/p/123456", "/p/x"):
            tags = meta((await server.http.get(path)).text)
            assert tags["og:image"] == f"http://test{CARD}", path
        for path in (f"/api/previews/tables/{code}.png", "/api/previews/players/123456.png"):
            assert await image_of(server, f"http://test{path}") == card
        assert (await server.http.get("/api/previews/players/x.png")).status_code == 404
        assert server.app.state.previews.kept == {}, "nothing kept in memory"
        assert server.app.state.services.hub.tables == {}, "no table loaded"
        assert await counts(backend) == before


async def test_links_are_written_with_the_public_url_and_never_with_a_forged_host(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        forged = (await server.http.get("/p/1", headers={"Host": 'evil"><script>'})).text
        assert meta(forged) == {} and "evil" not in forged
        started = time.monotonic()
        long = (await server.http.get("/p/1", headers={"Host": "a-" * 5000 + "!"})).text
        assert meta(long) == {} and time.monotonic() - started < 2
    edge = Edge(rate_limits=False, seats_held=None, public_url="https://kabes.example.org",
                language="en")
    async with running(sqlite_url(tmp_path), edge=edge) as server:
        tags = meta((await server.http.get("/r/ZZZZZZ", headers={"Host": "evil.com"})).text)
        assert tags["og:image"] == f"https://kabes.example.org{CARD}"
        assert tags["og:url"] == "https://kabes.example.org/r/ZZZZZZ"
        assert tags["og:description"] == "Dominoes the way we play them."


def trains_log(seed: int) -> list[Entry]:
    """The log of a public Mexican Train table of four, played to its end by first moves."""
    rng = Random(seed)
    match = Match("mexican-train", 4, {}, rng)
    names = ["Roselène", EVIL, "Wilner", "Jean-Baptiste Dessalines Lagrandeur"]
    entries = [Entry(1, "created", {"variant": "mexican-train", "players": 4, "options": {},
                                    "computers": {}, "player": 1, "name": names[0],
                                    "public": True, "watch": True}, 1.0)]
    entries += [Entry(n + 1, "joined", {"seat": n, "player": n + 1, "name": names[n]}, 1.0)
                for n in range(1, 4)]
    while not match.over:
        deal, stock = match.rules.deal(rng, 4)
        match.start_hand(deal, stock)
        entries.append(Entry(len(entries) + 1, "started" if len(match.log) == 1 else "dealt",
                             {"deal": [[str(t) for t in h] for h in deal],
                              "stock": [str(t) for t in stock]}, 1.0))
        while match.hand_in_progress:
            seat = match.turn
            assert seat is not None
            move = view(match, seat).legal[0]
            match.apply(seat, move)
            entries.append(Entry(len(entries) + 1, "move", {"seat": seat, "move": str(move)},
                                 1.0))
    return entries


def test_mexican_trains_are_drawn_from_the_engines_replay_in_a_small_png() -> None:
    entries = trains_log(seed=4)
    facts = match_facts("TRAINS", entries, "fr")
    assert facts is not None and facts.over and facts.hands == 13
    assert facts.trains and not facts.line
    assert facts.names[1] == EVIL and len(facts.sides) == 4
    assert_small_png(match_image(facts))
    private = [Entry(1, "created", {**entries[0].data, "public": False}, 1.0), *entries[1:]]
    assert match_facts("TRAINS", private, "fr") is None


class Shelf:
    """A store of public tables' logs and of players' pages whose reads wait for ``gate``."""

    def __init__(self, logs: dict[str, list[Entry]]) -> None:
        self.logs = logs
        self.gate = asyncio.Event()
        self.gate.set()

    async def first_entries(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        await self.gate.wait()
        return {c: self.logs[c][0].data for c in codes if c in self.logs}

    async def load(self, code: str) -> list[Entry]:
        return self.logs.get(code, [])

    async def player(self, player: int, own: bool = False) -> dict[str, Any] | None:
        await self.gate.wait()
        return {"player": player, "name": f"Player {player}", "ratings": {"plaza": 20.5},
                "history": {}, "matches": []}


async def test_a_preview_asked_by_many_at_once_is_made_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []

    def counted(code: str, entries: list[Entry], lang: str) -> Any:
        made.append(code)
        return match_facts(code, entries, lang)

    monkeypatch.setattr(previews_module, "match_facts", counted)
    code = CODE_ALPHABET[:CODE_LENGTH]
    shelf = Shelf({code: trains_log(seed=2)})
    previews = Previews(shelf, "ht")  # type: ignore[arg-type]
    shelf.gate.clear()
    asked = [asyncio.ensure_future(previews.match(code)) for _ in range(50)]
    await asyncio.sleep(0.01)
    shelf.gate.set()
    answers = await asyncio.gather(*asked)
    assert made == [code]
    assert len({id(a) for a in answers}) == 1
    assert await previews.match(code) is answers[0], "kept"


async def test_previews_past_those_waiting_are_refused_and_a_head_shows_the_card() -> None:
    shelf = Shelf({})
    previews = Previews(shelf, "en")  # type: ignore[arg-type]
    shelf.gate.clear()
    waiting = [asyncio.ensure_future(previews.player(n)) for n in range(WAITING)]
    await asyncio.sleep(0.01)
    with pytest.raises(SlowDown):
        await previews.player(WAITING + 1)
    head = meta(await previews.head(f"/p/{WAITING + 1}", "https://kabes.example.org"))
    assert head["og:image"] == f"https://kabes.example.org{CARD}"
    shelf.gate.set()
    assert all(p is not None for p in await asyncio.gather(*waiting))
    assert previews.making == {}


async def test_the_cache_keeps_at_most_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(previews_module, "KEPT", 3)
    previews = Previews(Shelf({}), "en")  # type: ignore[arg-type]
    for player in range(6):
        assert await previews.player_image(player) is not None
    assert list(previews.kept) == ["p:3", "p:4", "p:5"]
    assert previews.kept_bytes == sum(len(p.image or b"") for p in previews.kept.values())
    monkeypatch.setattr(previews_module, "KEPT_BYTES", previews.kept_bytes - 1)
    await previews.player_image(6)
    assert len(previews.kept) <= 2 and previews.kept_bytes <= previews_module.KEPT_BYTES
    assert previews.kept_bytes == sum(len(p.image or b"") for p in previews.kept.values())


async def test_kabes_serve_writes_previews_in_its_language_at_its_public_url(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, "--workers", "1", "--log-level", "warning",
                           "--language", "fr", "--public-url", "https://Kabes.Example.org/")
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            player = (await http.post("/api/guests", json={"name": EVIL})).json()["player"]
            page = (await http.get(f"/p/{player}")).text
            tags = meta(page)
            assert tags["og:title"] == f"{EVIL} sur Kabès"
            assert tags["og:description"] == "Pas encore de manche classée."
            image = f"https://kabes.example.org/api/previews/players/{player}.png"
            assert tags["og:image"] == image
            reply = await http.get(image.removeprefix("https://kabes.example.org"))
            assert reply.headers["cache-control"] == "public, max-age=300"
            assert_small_png(reply.content)
    finally:
        server.kill()


async def test_a_public_table_not_yet_started_shows_its_players_and_no_tiles(
    server: Server,
) -> None:
    _, token = await server.guest("Roselène")
    code = (await server.open_table(token, variant="mexican-train", players=4, public=True,
                                    computers={"1": "expert"}))["code"]
    tags = meta((await server.http.get(f"/r/{code}")).text)
    assert tags["og:description"] == "Yon pati Tren meksiken sou Kabès."
    assert "Roselène" in tags["og:title"] and tags["og:image"].endswith("?h=0")
    assert_small_png(await image_of(server, tags["og:image"]))

"""Links that show a picture: the Open Graph tags in the head of ``/r/CODE`` and ``/p/ID``, and
the PNGs they name (PROTOCOL.md, "Players, replays and rankings"; docs/protocol.md, "Links
that show a picture").

In Haiti a link goes to WhatsApp, which fetches the page, reads ``og:title``,
``og:description`` and ``og:image`` from its head and shows them with the link. So the one
page of the client (kabes.server.http.pages) gets, on those two paths, tags written here in the
server's default language (``--language``), and the images are served under
``/api/previews/``. A public match shows its last finished hand and its score, a player their
name and ratings; a private match, and a code or id that names nothing, shows the Kabès card
and nothing else: its head says "Kabès" and names the card, and its image URL answers the
card's bytes, so that nobody can tell a private match from no match by its preview.

What a stranger can cost is bounded: the engine's rebuild and the drawing run in threads, at
most :data:`AT_ONCE` at a time, and at most :data:`WAITING` things are made or wait, beyond
which an image is 429 ``slow_down`` and a head shows the card; what many ask at once is made
once; previews are kept (:data:`KEPT` entries, :data:`KEPT_BYTES` bytes, least recently used
out) and sent with ``Cache-Control``. Nothing is kept for a code or id that names no public
match or player ("Asking costs nothing").

The tags themselves, and the origin they are written with, are
:mod:`kabes.server.http.preview_tags`'s.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import FastAPI
from fastapi.responses import Response

from kabes.server.common.limits import Limit, SlowDown
from kabes.server.http.preview_facts import (
    MatchFacts,
    PlayerFacts,
    match_facts,
    player_facts,
    read_match,
    read_player,
)
from kabes.server.http.preview_images import (
    card_image,
    match_image,
    player_image,
)
from kabes.server.http.preview_tags import tags
from kabes.server.services import STORE_DOWN
from kabes.server.store.store import Store
from kabes.words import word

Handler = Callable[..., Awaitable[Response]]
"""A route's function."""

log = logging.getLogger("kabes.previews")

CARD = "/api/previews/kabes.png"
MATCH_IMAGE = "/api/previews/tables/{code}.png"
PLAYER_IMAGE = "/api/previews/players/{player}.png"
PAGES = ("/r/{code}", "/p/{id}")
"""The client's pages whose head carries the tags (a match's replay, a player)."""
REPLAY = re.compile(r"/r/([A-Za-z0-9_-]{1,32})/?")
PLAYER = re.compile(r"/p/([A-Za-z0-9_-]{1,32})/?")
AT_ONCE = 2
"""Previews made at once (threads): the server has other work."""
WAITING = 16
"""Previews waiting or being made, beyond which one more is refused (the card for a head)."""
KEPT = 256
KEPT_BYTES = 16_000_000
"""The cache's bounds: entries, and the bytes of their images (each at most 100 KB)."""
OVER_SECONDS = 86_400
"""How long the preview of a match that is over is kept (it does not change)."""
PLAYING_SECONDS = 30
"""How long the preview of a match in play is kept (it changes at each hand's end)."""
PLAYER_SECONDS = 300
CARD_SECONDS = 86_400

T = TypeVar("T")
Make = Callable[[], Awaitable[T]]
"""What makes one thing (a preview, a picture)."""


@dataclass(slots=True)
class Preview:
    """A made preview: what its head says, until when it is fresh, and its picture once
    drawn (a page's head needs only the words: a person opening the link does not wait for
    the drawing, only the app that fetches the image)."""

    facts: MatchFacts | PlayerFacts
    seconds: int
    """How long it stays fresh (here, and in ``Cache-Control``)."""
    made: float
    image: bytes | None = None


class Previews:
    """The previews of one server: made on demand, bounded, kept for a while."""

    def __init__(self, store: Store, language: str) -> None:
        self.store = store
        self.language = language
        self.kept: OrderedDict[str, Preview] = OrderedDict()
        self.kept_bytes = 0
        self.making: dict[str, asyncio.Future[Any]] = {}
        self.slots = asyncio.Semaphore(AT_ONCE)
        self.card: bytes | None = None

    async def match(self, code: str) -> Preview | None:
        """The preview of table ``code`` if it is public, else None."""
        return await self._get(f"m:{code}", lambda: self._make_match(code))

    async def player(self, player: int) -> Preview | None:
        """The preview of player ``player`` if there is one, else None."""
        return await self._get(f"p:{player}", lambda: self._make_player(player))

    async def match_image(self, code: str) -> Preview | None:
        """:meth:`match` with its picture drawn."""
        found = await self.match(code)
        return None if found is None else await self._drawn(f"m:{code}", found)

    async def player_image(self, player: int) -> Preview | None:
        """:meth:`player` with its picture drawn."""
        found = await self.player(player)
        return None if found is None else await self._drawn(f"p:{player}", found)

    async def card_image(self) -> bytes:
        """The Kabès card, drawn once."""
        if self.card is None:
            async with self.slots:
                tagline = word("welcome.tagline", self.language)
                self.card = await asyncio.to_thread(card_image, tagline)
        return self.card

    async def head(self, path: str, origin: str | None) -> str:
        """The Open Graph tags of the page at ``path`` (nothing for other pages, or when
        no absolute address can be written)."""
        replay, player = REPLAY.fullmatch(path), PLAYER.fullmatch(path)
        if origin is None or (replay is None and player is None):
            return ""
        preview = None
        try:
            if replay is not None:
                canonical = f"/r/{replay.group(1).upper()}"
                preview = await self.match(replay.group(1).upper())
            else:
                assert player is not None
                canonical = f"/p/{player.group(1)}"
                if player.group(1).isdigit() and len(player.group(1)) <= 18:
                    preview = await self.player(int(player.group(1)))
        except (SlowDown, *STORE_DOWN):
            preview = None  # busy, or the store is away: the card, and the page still loads
        except Exception:  # a bug in a preview must not keep the page from loading
            log.exception("no preview for %s", path)
            preview = None
        if preview is None:
            return tags("Kabès", word("welcome.tagline", self.language), origin + CARD,
                        "website", origin + canonical)
        facts = preview.facts
        if isinstance(facts, MatchFacts):
            image = origin + MATCH_IMAGE.format(code=facts.code) + f"?h={facts.hands}"
            return tags(facts.heading, facts.description, image, "website", origin + canonical)
        return tags(facts.heading, facts.description,
                    origin + PLAYER_IMAGE.format(player=facts.player), "profile",
                    origin + canonical)

    async def _get(self, key: str, make: Make[Preview | None]) -> Preview | None:
        """The preview under ``key``: kept and fresh, or made now (once however many ask)."""
        kept = self.kept.get(key)
        if kept is not None and time.monotonic() - kept.made < kept.seconds:
            self.kept.move_to_end(key)
            return kept
        made: Preview | None = await self._once(key, make)
        if made is not None and self.kept.get(key) is not made:
            self._keep(key, made)
        return made

    async def _drawn(self, key: str, preview: Preview) -> Preview:
        """``preview`` with its picture, drawn now (once) if it has none yet."""
        if preview.image is None:
            image: bytes = await self._once(f"draw:{key}", lambda: self._draw(preview.facts))
            if preview.image is None:
                preview.image = image
                if self.kept.get(key) is preview:
                    self.kept_bytes += len(image)
                    self._bound()
        return preview

    async def _once(self, key: str, make: Make[T]) -> T:
        """What ``make`` makes, made once for everyone asking for ``key`` meanwhile; 429
        ``slow_down`` when :data:`WAITING` things are being made already."""
        pending = self.making.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        if len(self.making) >= WAITING:
            raise SlowDown(Limit("previews", WAITING, 1.0, "pictures being drawn"), 1.0)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.making[key] = future
        try:
            made = await make()
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else may be waiting for it
            raise
        finally:
            del self.making[key]
        future.set_result(made)
        return made

    def _keep(self, key: str, preview: Preview) -> None:
        old = self.kept.pop(key, None)
        if old is not None:
            self.kept_bytes -= len(old.image or b"")
        self.kept[key] = preview
        self.kept_bytes += len(preview.image or b"")
        self._bound()

    def _bound(self) -> None:
        while len(self.kept) > KEPT or self.kept_bytes > KEPT_BYTES:
            _, dropped = self.kept.popitem(last=False)
            self.kept_bytes -= len(dropped.image or b"")

    async def _make_match(self, code: str) -> Preview | None:
        entries = await read_match(self.store, code)
        if entries is None:
            return None
        async with self.slots:
            facts = await asyncio.to_thread(match_facts, code, entries, self.language)
        if facts is None:
            return None
        return Preview(facts, OVER_SECONDS if facts.over else PLAYING_SECONDS,
                       time.monotonic())

    async def _make_player(self, player: int) -> Preview | None:
        page = await read_player(self.store, player)
        if page is None:
            return None
        return Preview(player_facts(page, self.language), PLAYER_SECONDS, time.monotonic())

    async def _draw(self, facts: MatchFacts | PlayerFacts) -> bytes:
        async with self.slots:
            return await asyncio.to_thread(draw, facts)


def draw(facts: MatchFacts | PlayerFacts) -> bytes:
    """The picture of a match's or a player's preview."""
    return match_image(facts) if isinstance(facts, MatchFacts) else player_image(facts)


def preview_routes(app: FastAPI, previews: Previews) -> None:
    """The images the tags name: a match's, a player's, and the card (``HEAD`` too: some
    apps ask it before they fetch)."""

    def png(body: bytes, seconds: int) -> Response:
        return Response(body, media_type="image/png",
                        headers={"Cache-Control": f"public, max-age={seconds}"})

    # HEAD answers as GET does; only GET is in the OpenAPI document (one operation id each).
    def route(path: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            app.get(path, tags=["previews"], response_class=Response)(handler)
            app.head(path, include_in_schema=False, response_class=Response)(handler)
            return handler
        return register

    @route(CARD)
    async def card() -> Response:
        """The Kabès card (a private match's, and any link's with nothing to show)."""
        return png(await previews.card_image(), CARD_SECONDS)

    @route(MATCH_IMAGE)
    async def match(code: str) -> Response:
        """A public match at the end of its last finished hand; the card for any other
        code. 429 ``slow_down`` while too many pictures are being drawn."""
        found = await previews.match_image(code.upper())
        if found is None or found.image is None:
            return png(await previews.card_image(), PLAYER_SECONDS)
        return png(found.image, found.seconds)

    @route(PLAYER_IMAGE.replace("{player}", "{player:id}"))
    async def player(player: int) -> Response:
        """A player's name and ratings; the card for an id that names nobody."""
        found = await previews.player_image(player)
        if found is None or found.image is None:
            return png(await previews.card_image(), PLAYER_SECONDS)
        return png(found.image, found.seconds)

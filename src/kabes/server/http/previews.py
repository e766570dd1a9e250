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

What a stranger can cost is bounded: a preview is made (the store read, the engine's replay,
the drawing) in a thread, at most :data:`AT_ONCE` at a time and :data:`WAITING` waiting,
beyond which an image is 429 ``slow_down`` and a head shows the card; the same preview asked
by many at once is made once; made previews are kept in a cache of at most
:data:`KEPT` entries and :data:`KEPT_BYTES` bytes, the least recently used going first, and
sent with ``Cache-Control`` so that the apps and any proxy keep them too. Nothing is kept of a
code or id that names no public match or player ("Asking costs nothing").

The absolute address an ``og:image`` needs is ``--public-url`` when given; else the ``Host``
the request was sent to (its scheme from ``X-Forwarded-Proto`` behind a trusted proxy),
written only if it is a plain host and port. A forged ``Host`` can only change the page
returned to whoever forged it: the page is never stored by the server, and caches key a page
by its ``Host``.
"""

from __future__ import annotations

import asyncio
import html
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
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
    HEIGHT,
    WIDTH,
    card_image,
    match_image,
    player_image,
)
from kabes.server.services import STORE_DOWN
from kabes.server.store.store import Store
from kabes.table.entries import Entry
from kabes.words import word

CARD = "/api/previews/kabes.png"
MATCH_IMAGE = "/api/previews/tables/{code}.png"
PLAYER_IMAGE = "/api/previews/players/{player}.png"
PAGES = ("/r/{code}", "/p/{id}")
"""The client's pages whose head carries the tags (a match's replay, a player)."""
REPLAY = re.compile(r"/r/([A-Za-z0-9_-]{1,32})/?")
PLAYER = re.compile(r"/p/([A-Za-z0-9_-]{1,32})/?")
HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.?)*|\[[0-9A-Fa-f:.]{2,45}\])"
                  r"(?::[0-9]{1,5})?")
"""A ``Host`` written into a page: a name or an address, and a port; nothing else."""
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

MakeOne = Callable[[], Awaitable["Preview | None"]]
"""What makes one preview."""


@dataclass(frozen=True, slots=True)
class Preview:
    """A made preview: what its head says, its picture, and until when it is fresh."""

    facts: MatchFacts | PlayerFacts
    image: bytes
    seconds: int
    """How long it stays fresh (here, and in ``Cache-Control``)."""
    made: float


class Previews:
    """The previews of one server: made on demand, bounded, kept for a while."""

    def __init__(self, store: Store, language: str) -> None:
        self.store = store
        self.language = language
        self.kept: OrderedDict[str, Preview] = OrderedDict()
        self.kept_bytes = 0
        self.making: dict[str, asyncio.Future[Preview | None]] = {}
        self.slots = asyncio.Semaphore(AT_ONCE)
        self.card: bytes | None = None

    async def match(self, code: str) -> Preview | None:
        """The preview of table ``code`` if it is public, else None."""
        return await self._get(f"m:{code}", lambda: self._make_match(code))

    async def player(self, player: int) -> Preview | None:
        """The preview of player ``player`` if there is one, else None."""
        return await self._get(f"p:{player}", lambda: self._make_player(player))

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
        if preview is None:
            return tags("Kabès", word("welcome.tagline", self.language), origin + CARD, "website",
                        origin + canonical)
        facts = preview.facts
        if isinstance(facts, MatchFacts):
            image = origin + MATCH_IMAGE.format(code=facts.code) + f"?h={facts.hands}"
            return tags(facts.heading, facts.description, image, "website", origin + canonical)
        return tags(facts.heading, facts.description,
                    origin + PLAYER_IMAGE.format(player=facts.player), "profile",
                    origin + canonical)

    async def _get(self, key: str, make: MakeOne) -> Preview | None:
        """The preview under ``key``: kept, being made (then waited for), or made now."""
        kept = self.kept.get(key)
        if kept is not None and time.monotonic() - kept.made < kept.seconds:
            self.kept.move_to_end(key)
            return kept
        pending = self.making.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        if len(self.making) >= WAITING:
            raise SlowDown(Limit("previews", WAITING, 1.0, "pictures being drawn"), 1.0)
        future: asyncio.Future[Preview | None] = asyncio.get_running_loop().create_future()
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
        if made is not None:
            self._keep(key, made)
        return made

    def _keep(self, key: str, preview: Preview) -> None:
        old = self.kept.pop(key, None)
        if old is not None:
            self.kept_bytes -= len(old.image)
        self.kept[key] = preview
        self.kept_bytes += len(preview.image)
        while len(self.kept) > KEPT or self.kept_bytes > KEPT_BYTES:
            _, dropped = self.kept.popitem(last=False)
            self.kept_bytes -= len(dropped.image)

    async def _make_match(self, code: str) -> Preview | None:
        entries = await read_match(self.store, code)
        if entries is None:
            return None
        async with self.slots:
            return await asyncio.to_thread(_match_preview, code, entries, self.language)

    async def _make_player(self, player: int) -> Preview | None:
        page = await read_player(self.store, player)
        if page is None:
            return None
        async with self.slots:
            return await asyncio.to_thread(_player_preview, page, self.language)


def _match_preview(code: str, entries: Sequence[Entry], language: str) -> Preview | None:
    facts = match_facts(code, entries, language)
    if facts is None:
        return None
    return Preview(facts, match_image(facts), OVER_SECONDS if facts.over else PLAYING_SECONDS,
                   time.monotonic())


def _player_preview(page: dict[str, Any], language: str) -> Preview:
    facts = player_facts(page, language)
    return Preview(facts, player_image(facts), PLAYER_SECONDS, time.monotonic())


def tags(title: str, description: str, image: str, kind: str, url: str) -> str:
    """The head's Open Graph and Twitter tags, every value escaped (names are anyone's)."""
    pairs = [("og:title", title), ("og:description", description), ("og:image", image),
             ("og:image:type", "image/png"), ("og:image:width", str(WIDTH)),
             ("og:image:height", str(HEIGHT)), ("og:type", kind), ("og:url", url),
             ("og:site_name", "Kabès")]
    out = [f'<meta property="{p}" content="{html.escape(v, quote=True)}">' for p, v in pairs]
    out += [f'<meta name="{n}" content="{html.escape(v, quote=True)}">' for n, v in (
        ("twitter:card", "summary_large_image"), ("twitter:title", title),
        ("twitter:description", description), ("twitter:image", image))]
    return "\n  ".join(out) + "\n  "


def origin_of(request: Request, public_url: str | None) -> str | None:
    """The absolute origin links are written with: ``--public-url``, else the request's own
    (scheme and ``Host``) if the ``Host`` is a plain host and port; None otherwise."""
    if public_url:
        return public_url
    host = request.headers.get("host", "")
    if not HOST.fullmatch(host):
        return None
    return f"{request.url.scheme}://{host.lower()}"


def preview_routes(app: FastAPI, previews: Previews) -> None:
    """The images the tags name: a match's, a player's, and the card."""

    def png(body: bytes, seconds: int) -> Response:
        return Response(body, media_type="image/png",
                        headers={"Cache-Control": f"public, max-age={seconds}"})

    @app.get(CARD, tags=["previews"], response_class=Response)
    async def card() -> Response:
        """The Kabès card (a private match's, and any link's with nothing to show)."""
        return png(await previews.card_image(), CARD_SECONDS)

    @app.get(MATCH_IMAGE, tags=["previews"], response_class=Response)
    async def match(code: str) -> Response:
        """A public match at the end of its last finished hand; the card for any other
        code. 429 ``slow_down`` while too many pictures are being drawn."""
        found = await previews.match(code.upper())
        if found is None:
            return png(await previews.card_image(), PLAYER_SECONDS)
        return png(found.image, found.seconds)

    @app.get(PLAYER_IMAGE.replace("{player}", "{player:id}"), tags=["previews"],
             response_class=Response)
    async def player(player: int) -> Response:
        """A player's name and ratings; the card for an id that names nobody."""
        found = await previews.player(player)
        if found is None:
            return png(await previews.card_image(), PLAYER_SECONDS)
        return png(found.image, found.seconds)

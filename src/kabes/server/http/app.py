"""The ASGI application: the HTTP API and the table socket of PROTOCOL.md, health, metrics,
and the web client's files.

This module is the thin shell around the hub and its tables: it builds what the routes run on
(kabes.server.services), reads requests, turns them into table actions, and writes what the
tables answer; the table socket is kabes.server.http.socket_api's. HTTP errors have the body
``{"code", "message"}``.

With a cluster (``kabes serve --redis``), a request or a socket about a table owned by another
process is relayed to it (kabes.server.hub.relay): the client cannot tell. When the store or Redis
cannot be reached, requests and hellos are answered ``unavailable`` (503; a socket is closed
with 1013, try again later) rather than left waiting.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

import kabes
from kabes import words
from kabes.ai import LEVELS
from kabes.puzzles.starter import starter
from kabes.rules import DEFAULT_VARIANT, VARIANTS
from kabes.rules.traits import traits_json
from kabes.server.common.config import Edge, Settings
from kabes.server.common.limits import Limits, SlowDown
from kabes.server.common.metrics import Metrics
from kabes.server.common.names import clean_name
from kabes.server.common.protocol import (
    BadInput,
    ErrorCode,
    NewGuest,
    NewTable,
    Refused,
)
from kabes.server.common.proxies import ProxyHeaders
from kabes.server.http.callers import Callers
from kabes.server.http.direct_send import KeepSend
from kabes.server.http.guard import Guard, trusted
from kabes.server.http.http_input import ranking_page, read_body
from kabes.server.http.lessons_api import lesson_routes
from kabes.server.http.link_api import link_routes
from kabes.server.http.lobby_api import lobby_routes
from kabes.server.http.offline_api import offline_routes
from kabes.server.http.offline_pack import PACK
from kabes.server.http.pages import Pages
from kabes.server.http.phrases_api import phrase_routes
from kabes.server.http.preview_tags import origin_of
from kabes.server.http.previews import PAGES as PREVIEWED
from kabes.server.http.previews import Previews, preview_routes
from kabes.server.http.puzzles_api import puzzle_routes
from kabes.server.http.replay_api import replay_routes
from kabes.server.http.socket_api import socket_routes
from kabes.server.http.static_files import CompressedStatic
from kabes.server.http.tournaments_api import tournament_routes
from kabes.server.hub.cluster import Cluster
from kabes.server.hub.hub import Hub
from kabes.server.hub.leases import FENCED
from kabes.server.lobby.lobby import Lobby
from kabes.server.processes import alone_or_shared
from kabes.server.services import STORE_DOWN, Services, patience
from kabes.server.store.rankings import PER_PAGE
from kabes.server.store.store import Store
from kabes.server.table.clock import Clock, RealClock
from kabes.server.table.seat_holds import SeatHolds
from kabes.server.table.table_requests import AskRecord, AskSeat, AskSummary, TableRequest
from kabes.server.tournaments.rounds import RoundRunner
from kabes.server.tournaments.service import Tournaments
from kabes.table.creation import unknown_variant

log = logging.getLogger("kabes.app")

WEB = Path(kabes.__file__).resolve().parent / "web"

def create_app(
    db_url: str,
    settings: Settings | None = None,
    clock: Clock | None = None,
    executor: Executor | None = None,
    heartbeat: bool = True,
    cluster: Cluster | None = None,
    edge: Edge | None = None,
    offline: Path | None = None,
    starter_puzzles: bool = True,
) -> FastAPI:
    """The server application on the store at ``db_url``. ``executor`` runs the computer
    seats (a process pool in production; tests may pass a thread pool). With ``cluster``,
    this process is one of many sharing the store through Redis (and its rate limits).
    ``edge``: what strangers may do (limits on, the server's own origin, loopback metrics
    by default). ``offline``: the folder of the offline pack served under /offline/
    (kabes.server.http.offline_api; the source tree's by default). ``starter_puzzles``: on
    start, give a store with no puzzles the shipped starter set (kabes.puzzles.starter), so
    /puzzles has puzzles from the first start."""
    metrics = Metrics()
    processes = alone_or_shared(cluster)
    store = Store(db_url, metrics, processes.me, stalled=processes.stalled)
    settings = settings or Settings()
    clock = clock or RealClock()
    edge = edge or Edge()
    # The lobby and the tournaments' runner open tables through the hub, and the hub tells
    # them of its tables: it is given functions that reach them once they are made below.
    hub = Hub(store, clock, settings, executor, metrics, processes.hold,
              holds=None if edge.seats_held is None else SeatHolds(store.engine,
                                                                   edge.seats_held),
              listed=lambda table: lobby.listed(table),
              tournament_over=lambda tournament, code: rounds.table_over(tournament, code))
    rounds = RoundRunner(Tournaments(store, clock.now, settings.tournament_max_entrants),
                         hub, store)
    counter = processes.counter() if edge.rate_limits else None
    services = Services(store, clock, settings, executor, metrics, hub, processes, edge,
                        Limits(counter, edge.guests_per_minute, edge.tables_per_minute,
                               edge.link_codes_per_minute, edge.link_codes_per_network,
                               edge.wrong_link_codes_per_minute))
    lobby = Lobby(hub, processes.board(hub), services.limits, patience(services))
    metrics.count_tables(hub.statuses)
    metrics.connections.set_function(lambda: services.connections)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await store.open()
        if starter_puzzles:
            await seed_puzzles(store)
        await processes.start()
        restored = await hub.open()
        rounds.start()
        lobby.start()
        if heartbeat:
            store.start_heartbeat()
        fields: dict[str, Any] = {"event": "ready", "tables_restored": restored,
                                  **processes.described()}
        log.info("ready", extra={"fields": fields})
        yield
        await rounds.stop()
        await lobby.close()
        await hub.close()
        await processes.close()
        await store.close()

    app = FastAPI(
        title="Kabès",
        version="0.1.0",
        summary="Dominoes as people play them in Haiti, the Caribbean and beyond.",
        lifespan=lifespan,
        # The documentation pages run an inline script and files from a CDN on the origin
        # that keeps players' tokens: only for an operator who asks (--api-docs).
        docs_url="/docs" if edge.api_docs else None,
        redoc_url="/redoc" if edge.api_docs else None,
    )
    app.state.services = services
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(Guard, origins=edge.origins, sockets_per_address=(
        edge.sockets_per_address if edge.rate_limits else None), api_docs=edge.api_docs)
    app.add_middleware(ProxyHeaders, proxies=edge.proxies)  # who the client is
    app.add_middleware(KeepSend)  # outermost: the server's own send, for direct_send
    _errors(app)
    _api(app, services)
    lesson_routes(app, services.store)
    tournament_routes(app, services.store, rounds, services.limits)
    app.state.tournament_rounds = rounds
    link_routes(app, services.store, services.clock, services.limits)
    lobby_routes(app, services.store, lobby)
    app.state.lobby = lobby
    phrase_routes(app)
    replay_routes(app, services)
    puzzle_routes(app, services.store)
    offline_routes(app, offline or PACK)
    socket_routes(app, services)
    _operations(app, services)
    previews = Previews(services.store, edge.language)
    app.state.previews = previews
    preview_routes(app, previews)
    _pages(app, previews, edge)
    return app


async def seed_puzzles(store: Store) -> int:
    """Give the store the starter puzzles if it has none (PuzzleStore.seed: safe when many
    processes start at once); logged when any are added. The number added."""
    added = await store.puzzles.seed(starter())
    if added:
        log.info("starter puzzles", extra={"fields": {"event": "starter_puzzles",
                                                       "added": added}})
    return added


class PlayerId(Convertor[int]):
    """A player id in a path: 1 to 18 ASCII digits, so that no other text, and no number
    past what the store's 64-bit ids hold, reaches a route (it is 404 ``not_found``)."""

    regex = "[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", PlayerId())


# Errors ------------------------------------------------------------------------------------


def _errors(app: FastAPI) -> None:
    @app.exception_handler(Refused)
    async def refused(_: Request, err: Refused) -> JSONResponse:
        return JSONResponse(err.to_body(), status_code=err.status)

    @app.exception_handler(SlowDown)
    async def slow_down(_: Request, err: SlowDown) -> JSONResponse:
        return JSONResponse(err.to_body(), status_code=err.status,
                            headers={"Retry-After": str(err.retry_after)})

    for kind in STORE_DOWN:
        app.add_exception_handler(kind, _store_down)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"code": "bad_message", "message": str(err.errors()[:1])},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, err: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if err.status_code == 404 else "bad_message"
        return JSONResponse({"code": code, "message": str(err.detail)},
                            status_code=err.status_code)


async def _store_down(_: Request, err: Exception) -> JSONResponse:
    log.warning("store unreachable: %r", err)
    return JSONResponse({"code": "unavailable", "message": "the store cannot be reached; try "
                         "again"}, status_code=503)


# The HTTP API ------------------------------------------------------------------------------


def _api(app: FastAPI, services: Services) -> None:
    store, hub = services.store, services.hub
    callers = Callers(store)

    async def about(code: str, request: TableRequest) -> dict[str, Any]:
        """``request`` about table ``code``, wherever it is held; 404 if there is none."""
        found = await hub.ask(code.upper(), request, patience(services))
        if found is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r}")
        return dict(found)

    @app.post("/api/guests", status_code=201, tags=["identity"])
    async def new_guest(request: Request) -> dict[str, Any]:
        """A new guest: a name, an id and a secret token (kept by the client)."""
        name = clean_name((await read_body(request, NewGuest)).name)
        await services.limits.guest(request)
        token = secrets.token_urlsafe(32)
        player = await store.create_guest(name, token)
        return {"player": player, "name": name, "token": token}

    @app.get("/api/me", tags=["identity"])
    async def me(request: Request) -> dict[str, Any]:
        """Who the token belongs to."""
        caller = await callers.who(request)
        return {"player": caller.player, "name": caller.name}

    @app.get("/api/variants", tags=["tables"])
    async def variants() -> dict[str, Any]:
        """Every variant with its seat counts, options (defaults and allowed values) and traits
        per seat count, the levels, and the variant to offer first."""
        out = []
        for rules in VARIANTS.values():
            options = {
                str(n): {
                    name: {"default": spec.default,
                           "choices": None if spec.choices is None else list(spec.choices)}
                    for name, spec in rules.option_specs(n).items()
                }
                for n in rules.seat_counts
            }
            out.append({
                "id": rules.id, "title": rules.title, "seat_counts": list(rules.seat_counts),
                "default_players": rules.default_players, "teams": rules.teams,
                "people_only": rules.people_only, "options": options,
                "traits": {str(n): traits_json(rules, n) for n in rules.seat_counts},
            })
        return {"variants": out, "levels": list(LEVELS), "default": DEFAULT_VARIANT}

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def open_table(request: Request) -> dict[str, Any]:
        """Open a table; the caller is its host, at seat 0."""
        caller = await callers.who(request)
        try:
            body = await read_body(request, NewTable)
        except BadInput as err:
            raise (unknown_variant(err.message) if err.code == ErrorCode.BAD_VARIANT
                   else err) from None
        await services.limits.table(caller.player)
        table = await hub.create(caller.player, caller.name, body)
        return await table.call(table.summary)  # type: ignore[no-any-return]

    @app.get("/api/tables/{code}", tags=["tables"])
    async def table_summary(code: str) -> dict[str, Any]:
        """The table's summary: variant, options, host, status, seats."""
        return await about(code, AskSummary())

    @app.post("/api/tables/{code}/join", tags=["tables"])
    async def join(code: str, request: Request) -> dict[str, Any]:
        """Take the lowest free seat (or get back the one already held)."""
        caller = await callers.who(request)
        return await about(code, AskSeat(caller.player, caller.name))

    @app.get("/api/tables/{code}/record", tags=["tables"])
    async def record(code: str) -> dict[str, Any]:
        """The game record of the hands finished so far (the whole match once over)."""
        return await about(code, AskRecord())

    @app.get("/api/rankings/{variant}", tags=["rankings"])
    async def rankings(variant: str, request: Request) -> dict[str, Any]:
        """The players of ``variant``, best first, 50 a page (``?page=N`` from 1); with a
        known token, ``"me": {"place", "rating"}`` once the caller is ranked."""
        if variant not in VARIANTS:
            raise Refused(ErrorCode.BAD_VARIANT, f"no variant {variant!r}", status=404)
        page = ranking_page(request.query_params.get("page"))
        out: dict[str, Any] = {"variant": variant, "rows": await store.rankings(
            variant, limit=PER_PAGE, offset=(page - 1) * PER_PAGE)}
        caller = await callers.if_known(request)
        if caller is not None:
            me = await store.ranking_place(variant, caller.player)
            if me is not None:
                out["me"] = me
        return out

    @app.get("/api/players/{player:id}", tags=["rankings"])
    async def player_page(player: int, request: Request) -> dict[str, Any]:
        """A player's ratings, their history and matches, newest first: a private table's
        code only on the player's own page (their token), never to others (PROTOCOL.md,
        "Safe for strangers"). A token that is not the player's, or unknown, reads the public
        page."""
        caller = await callers.if_known(request)
        found = await store.player(player, own=caller is not None and caller.player == player)
        if found is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no player {player}")
        return found


# Operations and pages ----------------------------------------------------------------------


def _operations(app: FastAPI, services: Services) -> None:
    @app.get("/healthz", tags=["operations"])
    async def healthz(request: Request) -> dict[str, Any]:
        """Alive, with the tables and sockets held; with many processes, their addresses
        for clients on this machine or with the metrics token. 503 ``unavailable`` while
        this process is cut off from the others (it seats nobody: a balancer passes it
        over)."""
        if services.hub.fenced:
            raise Refused(ErrorCode.UNAVAILABLE, FENCED)
        out: dict[str, Any] = {
            "ok": True, "tables": len(services.hub.tables),
            "connections": services.connections, "store": services.store.dialect}
        among = services.processes.health()  # nothing when this process is alone
        if among and trusted(request, services.edge):
            out.update(among, adopted=services.hub.adopted)
        return out

    @app.get("/metrics", tags=["operations"])
    async def metrics(request: Request) -> Response:
        """Prometheus metrics, for clients on this machine or with the metrics token."""
        if not trusted(request, services.edge):
            raise Refused(ErrorCode.NOT_FOUND, "/metrics answers this machine, or a client "
                          "sending the metrics token")
        return Response(generate_latest(services.metrics.registry),
                        media_type=CONTENT_TYPE_LATEST)


def _pages(app: FastAPI, previews: Previews, edge: Edge) -> None:
    index = WEB / "index.html"
    if not index.exists():
        return
    app.mount("/static/i18n", CompressedStatic(words.CATALOGS), name="catalogs")
    app.mount("/static", CompressedStatic(WEB), name="static")

    pages = Pages(WEB, words.CATALOGS)

    async def page(request: Request) -> Response:
        """The one page, naming what its first visit needs (pages.py): the client routes
        these paths itself."""
        path = request.url.path
        tags = await previews.head(path, origin_of(request, edge.public_url))
        body = pages.html(path, request.headers.get("accept-language", ""), tags)
        return Response(body, media_type="text/html", headers={
            "Cache-Control": "no-cache", "Vary": "Accept-Language"})

    # The client's one list of pages (web/pages.js), and the pages a shared link opens
    # (their head has its preview) even before the client lists them.
    for path in dict.fromkeys([*pages.paths, *PREVIEWED]):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    worker = WEB / "sw.js"

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        return FileResponse(worker, media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

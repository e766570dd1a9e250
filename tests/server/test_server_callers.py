"""Who is calling (kabes.server.http.callers): the three ways a route reads a guest token, each
with the same answers on every route that uses it: a required token refuses a missing or
unknown one (401 ``bad_token``), an optional one serves a request without a token but
refuses an unknown one, and a public page reads an unknown token as none."""

from __future__ import annotations

import pytest
from harness import Server, auth
from starlette.requests import Request

from kabes.server.common.protocol import Refused
from kabes.server.http.callers import Caller, Callers


def request(token: str | None) -> Request:
    headers = [] if token is None else [(b"authorization", f"Bearer {token}".encode())]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers})


def callers(server: Server) -> Callers:
    return Callers(server.app.state.services.store)


async def test_a_known_token_names_its_player_whichever_way_it_is_read(server: Server) -> None:
    player, token = await server.guest("Ingrid")
    for read in (callers(server).who, callers(server).maybe, callers(server).if_known):
        assert await read(request(token)) == Caller(player, "Ingrid")


async def test_a_missing_token_is_refused_only_where_a_player_is_needed(
    server: Server,
) -> None:
    with pytest.raises(Refused) as refused:
        await callers(server).who(request(None))
    assert refused.value.to_body() == {
        "code": "bad_token", "message": "send Authorization: Bearer <token>"}
    assert await callers(server).maybe(request(None)) is None
    assert await callers(server).if_known(request(None)) is None


async def test_an_unknown_token_is_refused_unless_the_route_serves_anyone_alike(
    server: Server,
) -> None:
    for read in (callers(server).who, callers(server).maybe):
        with pytest.raises(Refused) as refused:
            await read(request("forged"))
        assert refused.value.to_body() == {
            "code": "bad_token", "message": "this token is unknown"}
    assert await callers(server).if_known(request("forged")) is None


async def test_every_route_needing_a_player_answers_a_bad_token_the_same(
    server: Server,
) -> None:
    routes = [("GET", "/api/me"), ("POST", "/api/tables"), ("POST", "/api/tables/ABCD/join"),
              ("POST", "/api/quick"), ("POST", "/api/tournaments"),
              ("POST", "/api/tournaments/x/enter"), ("POST", "/api/tournaments/x/start"),
              ("POST", "/api/me/link"), ("POST", "/api/me/logout")]
    for method, path in routes:
        missing = await server.http.request(method, path)
        assert (missing.status_code, missing.json()) == (401, {
            "code": "bad_token", "message": "send Authorization: Bearer <token>"}), path
        unknown = await server.http.request(method, path, headers=auth("forged"))
        assert (unknown.status_code, unknown.json()) == (401, {
            "code": "bad_token", "message": "this token is unknown"}), path


async def test_optional_token_routes_serve_no_token_and_refuse_only_a_forged_one_where_kept(
    server: Server,
) -> None:
    player, _ = await server.guest()
    assert (await server.http.get("/api/lessons")).status_code == 200
    forged = await server.http.get("/api/lessons", headers=auth("forged"))
    assert (forged.status_code, forged.json()["code"]) == (401, "bad_token")
    assert (await server.http.get(f"/api/players/{player}")).status_code == 200
    public = await server.http.get(f"/api/players/{player}", headers=auth("forged"))
    assert public.status_code == 200

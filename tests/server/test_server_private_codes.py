"""A private table's code stays private (PROTOCOL.md, "Safe for strangers"): a player's
public page shows none of their tables' codes, so that a stranger cannot walk from it into a
friends' table; their own page, asked with their token, shows every match with its code.

From outside: a real ``kabes serve``, its HTTP API and a table socket.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from wsclient import Client, ServerProcess, auth, guest


async def test_a_players_page_shows_their_private_codes_only_to_themselves(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, "--workers", "1", "--log-level", "warning")
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            host, host_token = await guest(http, "Host")
            friend, friend_token = await guest(http, "Friend")
            _, stranger_token = await guest(http, "Stranger")
            reply = await http.post("/api/tables", headers=auth(host_token),
                                    json={"variant": "haitian", "players": 2})
            code = reply.json()["code"]
            joined = await http.post(f"/api/tables/{code}/join", headers=auth(friend_token))
            assert joined.status_code == 200, joined.text
            client = Client(server.base, code, host_token)
            await client.connect()
            await client.send({"type": "start", "id": "go"})
            assert (await client.answer("go"))["type"] == "ack"
            page = f"/api/players/{host}"

            own = (await http.get(page, headers=auth(host_token))).json()
            assert [(m["code"], m["finished"]) for m in own["matches"]] == [(code, False)]
            for headers in ({}, auth(stranger_token), auth(friend_token), auth("not-a-token")):
                seen = await http.get(page, headers=headers)
                assert seen.status_code == 200, seen.text
                body = seen.json()
                assert [m["code"] for m in body["matches"]] == [None], headers
                assert code not in seen.text
                assert {k: v for k, v in body.items() if k != "matches"} == {
                    k: v for k, v in own.items() if k != "matches"}
                assert [{**m, "code": None} for m in own["matches"]] == body["matches"]
            friends = (await http.get(f"/api/players/{friend}", headers=auth(friend_token)))
            assert [m["code"] for m in friends.json()["matches"]] == [code]
            await client.drop()
    finally:
        server.kill()

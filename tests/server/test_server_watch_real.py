"""Watching a whole match on a real ``kabes serve``, over TCP (PROTOCOL.md, "Watching").

A watcher with no token watches a public table from before its start to the end of the match
while its one person plays against three computer seats; every message it got is checked
against the match's record as a seat's are (guarantee 1: no tile of any hand or of the stock
while a hand is played), its actions are refused ``not_seated`` and its socket kept, ``sync``
answers it, and the phrases said at the table reach it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from test_server_hidden import Checked, check_hidden
from wsclient import Client, ServerProcess, auth, guest


async def test_a_watcher_on_a_real_server_sees_a_whole_match_and_no_hidden_tile(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, "--workers", "1", "--computer-delay", "0",
                           "--log-level", "warning")
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            _, token = await guest(http, "Host")
            reply = await http.post("/api/tables", headers=auth(token), json={
                "variant": "haitian", "players": 4, "options": {"hands": 2}, "public": True,
                "computers": {"1": "casual", "2": "beginner", "3": "casual"}})
            assert reply.status_code == 201, reply.text
            code = reply.json()["code"]
            watcher = Client(server.base, code, "", watch=True)
            welcome = await watcher.connect()
            assert welcome["seat"] is None and welcome["view"]["hand"] == []
            host = Client(server.base, code, token)
            await host.connect()
            await host.send({"type": "start", "id": "go"})
            await host.send({"type": "say", "id": "hi", "phrase": "good_luck"})
            acted: set[tuple[str, int, int]] = set()
            while True:
                latest, mark = host.latest(), len(host.log)
                assert latest is not None
                view, status = latest.message["view"], latest.message["table"]["status"]
                if view["result"] is not None:
                    break
                key = (status, view["hand_number"], len(view["played"]))
                if key not in acted and status == "between_hands":
                    acted.add(key)
                    await host.send({"type": "next_hand", "id": f"next{view['hand_number']}"})
                elif key not in acted and view["turn"] == 0 and view["legal"]:
                    acted.add(key)
                    await host.send({"type": "play", "id": f"m{len(acted)}",
                                     "move": view["legal"][-1]})
                await host.wait(lambda m: m["type"] == "update", mark)
            # The watcher is refused anything but sync, and stays.
            await watcher.send({"type": "play", "id": "nope", "move": "6-6"})
            assert (await watcher.answer("nope"))["code"] == "not_seated"
            await watcher.send({"type": "sync", "id": "again"})
            assert (await watcher.answer("again"))["type"] == "ack"
            last = await watcher.wait(lambda m: m["type"] == "update"
                                      and m["view"]["result"] is not None)
            record = (await http.get(f"/api/tables/{code}/record")).json()
            assert last["view"]["result"] == record["result"] and len(record["hands"]) == 2
            await asyncio.sleep(0.2)
            log = [r.message for r in watcher.log]
            checked = Checked()
            check_hidden(record, None, log, checked)
            assert checked.in_hand_messages > 20 and checked.tiles_seen > 0
            assert not checked.leaks, "\n".join(checked.leaks[:20])
            assert [(m["seat"], m["phrase"]) for m in log if m["type"] == "said"] == [
                (0, "good_luck")]
            assert all(m["view"]["seat"] is None and m["view"]["hand"] == []
                       for m in log if "view" in m)
            await watcher.drop()
            await host.drop()
    finally:
        server.kill()

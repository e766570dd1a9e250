"""A first walk through a table: guests, a table against the computer, a whole hand."""

from __future__ import annotations

from harness import Server, auth


async def test_guest_gets_a_token_and_is_known_by_it(server: Server) -> None:
    player, token = await server.guest("Roselène")
    me = await server.http.get("/api/me", headers=auth(token))
    assert me.json() == {"player": player, "name": "Roselène"}


async def test_one_person_plays_a_match_against_three_computers(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="haitian", players=4,
        computers={"1": "casual", "2": "skilled", "3": "beginner"},
    )
    code = summary["code"]
    sock, welcome = await server.connect(code, token)
    assert welcome["seat"] == 0
    sock.send({"type": "start", "id": "s1"})
    ack = await sock.until("ack", id="s1")
    assert ack["seq"] > welcome["seq"]
    moves = 0
    backlog = [m for m in sock.log if m["type"] == "update"][-1:]
    while True:
        message = backlog.pop() if backlog else await sock.recv()
        if message["type"] != "update":
            continue
        view = message["view"]
        if view["result"] is not None:
            break
        if message["table"]["status"] == "between_hands":
            sock.send({"type": "next_hand", "id": f"n{moves}"})
            moves += 1
        elif view["turn"] == 0 and view["legal"]:
            sock.send({"type": "play", "id": f"m{moves}", "move": view["legal"][0]})
            moves += 1
    assert view["result"]["finished"] is True
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    assert len(record["hands"]) == 5


async def test_play_again_opens_the_same_table_and_tells_every_seat(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="haitian", players=3, options={"hands": 1},
        computers={"1": "casual", "2": "beginner"},
    )
    code = summary["code"]
    sock, _ = await server.connect(code, token)
    sock.send({"type": "play_again", "id": "early"})
    refused = await sock.until("error", id="early")
    assert refused["code"] == "not_now"
    sock.send({"type": "start", "id": "s"})
    moves = 0
    while True:
        message = await sock.until("update")
        if message["view"]["result"] is not None:
            break
        if message["view"]["turn"] == 0 and message["view"]["legal"]:
            sock.send({"type": "play", "id": f"m{moves}", "move": message["view"]["legal"][0]})
            moves += 1
    sock.send({"type": "play_again", "id": "again"})
    update = await sock.until("update")
    assert {"kind": "next_table", "code": update["table"]["next_table"]} in update["events"]
    fresh = (await server.http.get(f"/api/tables/{update['table']['next_table']}")).json()
    assert fresh["status"] == "waiting"
    assert [s["level"] for s in fresh["seats"]] == [None, "casual", "beginner"]
    assert fresh["options"]["hands"] == 1

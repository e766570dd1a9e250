"""A throwaway stand-in for `kabes serve`, for looking at the web client before the real
server exists. Not part of the product and not used by the tests once the server exists.

In memory, one process, no persistence, no rate limits. It speaks PROTOCOL.md closely enough
for the page: guests, tables, join, the WebSocket with hello/welcome/update/ack/error/hint,
computers (any level is played by `casual`, instantly), the turn clock and the pause.
Debug: POST /debug/{code}/auto?n=N plays N moves first-fit for whoever is to move.

Run: .venv/bin/python tests/browser/fakeserver.py --port 8765
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import secrets
import time
from pathlib import Path
from random import Random
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse

from kabes.ai import make_player
from kabes.errors import KabesError
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.rules import VARIANTS
from kabes.views import view

WEB = Path(__file__).resolve().parents[2] / "src" / "kabes" / "web"
TURN_S = 45.0
AWAY_S = 5.0
PAUSE_S = 30.0

app = FastAPI()
guests: dict[str, dict[str, Any]] = {}
tables: dict[str, Table] = {}


def err(status: int, code: str, message: str = "") -> JSONResponse:
    return JSONResponse({"code": code, "message": message or code}, status_code=status)


def who(request: Request) -> dict[str, Any] | None:
    auth = request.headers.get("authorization", "")
    return guests.get(auth.removeprefix("Bearer ").strip())


class Table:
    def __init__(self, code: str, variant: str, players: int, options: dict[str, Any]):
        self.code = code
        self.match = Match(variant, players, options, Random())
        self.seats: list[dict[str, Any] | None] = [None] * players
        self.status = "waiting"
        self.seq = 0
        self.sockets: dict[int, list[WebSocket]] = {}
        self.done: dict[tuple[int, str], dict[str, Any]] = {}
        self.deadline: float | None = None
        self.pause_until: float | None = None
        self.timer: asyncio.Task[None] | None = None
        self.pending: list[tuple[int | None, dict[str, Any]]] = []

    def summary(self) -> dict[str, Any]:
        m = self.match
        return {
            "code": self.code,
            "variant": m.variant,
            "players": m.players,
            "options": dataclasses.asdict(m.options),
            "host": 0,
            "status": self.status,
            "seats": [
                None if s is None else {**s, "connected": s["kind"] == "computer" or bool(self.sockets.get(i))}
                for i, s in enumerate(self.seats)
            ],
        }

    def view_json(self, seat: int) -> dict[str, Any]:
        v = view(self.match, seat)
        now = time.monotonic()
        clock = None
        if v.turn is not None and self.deadline is not None:
            s = self.seats[v.turn]
            away = s is not None and s["kind"] == "person" and not self.sockets.get(v.turn)
            clock = {"seat": v.turn, "remaining_ms": max(0, int((self.deadline - now) * 1000)), "away": away}
        last = None
        if v.revealed is not None and v.last_result is not None:
            res = v.last_result.to_json()
            res["counts"] = [sum(t.low + t.high for t in h) for h in v.revealed]
            last = {"result": res, "hands": [[str(t) for t in h] for h in v.revealed]}
        return {
            "variant": v.variant, "players": v.players, "seat": v.seat, "teams": v.teams,
            "hand_number": v.hand_number, "hand": [str(t) for t in v.hand],
            "counts": list(v.counts), "stock": v.stock, "turn": v.turn, "leader": v.leader,
            "legal": [str(m) for m in v.legal],
            "line": None if v.line is None else [f"{a}-{b}" for a, b in v.line],
            "ends": None if v.ends is None else list(v.ends),
            "forced_lead": None if v.forced_lead is None else str(v.forced_lead),
            "engine": None if v.engine is None else str(v.engine),
            "trains": [
                {"owner": t.owner, "tiles": [f"{a}-{b}" for a, b in t.laid], "end": t.end, "marked": t.marked}
                for t in v.trains
            ],
            "open_double": v.open_double,
            "played": [[s, str(m)] for s, m in v.played],
            "passes": [[s, list(n)] for s, n in v.passes],
            "draws": list(v.draws), "voids": [sorted(x) for x in v.voids],
            "scores": list(v.scores), "target": v.options.target,
            "hands_played": v.hands_played, "hand_wins": list(v.hand_wins),
            "options": dataclasses.asdict(v.options),
            "clock": clock,
            "pause": None if self.pause_until is None else {"remaining_ms": max(0, int((self.pause_until - now) * 1000))},
            "last_hand": last,
            "result": None if v.match_result is None else v.match_result.to_json(),
        }

    async def send(self, seat: int, msg: dict[str, Any]) -> None:
        for ws in list(self.sockets.get(seat, [])):
            try:
                await ws.send_text(json.dumps(msg))
            except Exception:
                pass

    async def changed(self, events: list[dict[str, Any]] | None = None) -> None:
        self.seq += 1
        for seat in range(self.match.players):
            await self.send(seat, {"type": "update", "seq": self.seq, "table": self.summary(),
                                   "events": events or [], "view": self.view_json(seat)})

    def schedule(self) -> None:
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        self.deadline = None
        self.pause_until = None
        m = self.match
        if self.status == "over" or self.status == "waiting":
            return
        if m.hand_in_progress:
            seat = m.turn
            assert seat is not None
            s = self.seats[seat]
            if s and s["kind"] == "computer":
                self.deadline = time.monotonic() + TURN_S
                self.timer = asyncio.ensure_future(self._computer(seat))
            else:
                t = TURN_S if self.sockets.get(seat) else AWAY_S
                self.deadline = time.monotonic() + t
                self.timer = asyncio.ensure_future(self._timeout(seat, t))
        else:
            self.pause_until = time.monotonic() + PAUSE_S
            self.timer = asyncio.ensure_future(self._pause(PAUSE_S))

    async def _computer(self, seat: int) -> None:
        await asyncio.sleep(0.4)
        v = view(self.match, seat)
        move = make_player("casual", Random()).choose(v)
        await self.apply(seat, move)

    async def _timeout(self, seat: int, t: float) -> None:
        await asyncio.sleep(t)
        await self.apply(seat, TIMEOUT)

    async def _pause(self, t: float) -> None:
        await asyncio.sleep(t)
        await self.deal()

    async def deal(self) -> None:
        self.match.deal_hand()
        self.status = "playing"
        self.schedule()
        await self.changed([{"kind": "hand_started"}])

    async def apply(self, seat: int | None, move: Any) -> None:
        self.match.apply(seat, move)
        if self.match.over:
            self.status = "over"
        elif not self.match.hand_in_progress:
            self.status = "between_hands"
        self.schedule()
        await self.changed([{"kind": "played", "seat": seat, "move": str(move)}])


@app.get("/")
@app.get("/t/{code}")
async def index(code: str = "") -> FileResponse:
    return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


@app.get("/sw.js")
async def sw() -> FileResponse:
    return FileResponse(WEB / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@app.get("/static/{path:path}")
async def static(path: str) -> Any:
    f = (WEB / path).resolve()
    if WEB not in f.parents or not f.is_file():
        return err(404, "not_found")
    types = {".js": "text/javascript", ".webmanifest": "application/manifest+json", ".json": "application/json"}
    return FileResponse(f, media_type=types.get(f.suffix), headers={"Cache-Control": "no-cache"})


@app.get("/api/variants")
async def variants() -> Any:
    out = []
    for r in VARIANTS.values():
        opts = {}
        for n in r.seat_counts:
            opts[str(n)] = {
                k: {"default": s.default, "choices": None if s.choices is None else list(s.choices)}
                for k, s in r.option_specs(n).items()
            }
        out.append({"id": r.id, "title": r.title, "seat_counts": list(r.seat_counts),
                    "default_players": r.default_players, "teams": r.teams,
                    "people_only": r.people_only, "options": opts})
    return {"variants": out}


@app.post("/api/guests")
async def new_guest(request: Request) -> Any:
    body = await request.json()
    name = str(body.get("name", "")).strip()
    if not 1 <= len(name) <= 24:
        return err(422, "bad_name", "a name is 1 to 24 characters")
    token = secrets.token_urlsafe(24)
    g = {"player": len(guests) + 1, "name": name, "token": token}
    guests[token] = g
    return JSONResponse(g, status_code=201)


@app.get("/api/me")
async def me(request: Request) -> Any:
    g = who(request)
    return err(401, "bad_token") if g is None else {"player": g["player"], "name": g["name"]}


@app.post("/api/tables")
async def new_table(request: Request) -> Any:
    g = who(request)
    if g is None:
        return err(401, "bad_token")
    body = await request.json()
    variant = body.get("variant")
    if variant not in VARIANTS:
        return err(422, "bad_variant")
    options = dict(body.get("options") or {})
    computers = body.get("computers") or {}
    if variant in ("haitian", "haitian-partners") and not computers:
        options.setdefault("open_ended", True)
    code = "".join(secrets.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(7))
    try:
        t = Table(code, variant, body.get("players") or VARIANTS[variant].default_players, options)
    except KabesError as e:
        return err(422, "bad_options", str(e))
    t.seats[0] = {"seat": 0, "name": g["name"], "player": g["player"], "kind": "person", "level": None}
    for k, level in computers.items():
        t.seats[int(k)] = {"seat": int(k), "name": level.capitalize(), "player": None, "kind": "computer", "level": level}
    tables[code] = t
    return JSONResponse(t.summary(), status_code=201)


@app.get("/api/tables/{code}")
async def get_table(code: str) -> Any:
    t = tables.get(code.upper())
    return err(404, "not_found") if t is None else t.summary()


@app.post("/api/tables/{code}/join")
async def join(code: str, request: Request) -> Any:
    g = who(request)
    if g is None:
        return err(401, "bad_token")
    t = tables.get(code.upper())
    if t is None:
        return err(404, "not_found")
    for i, s in enumerate(t.seats):
        if s and s["player"] == g["player"]:
            return {"seat": i, "table": t.summary()}
    if t.status != "waiting":
        return err(409, "started")
    for i, s in enumerate(t.seats):
        if s is None:
            t.seats[i] = {"seat": i, "name": g["name"], "player": g["player"], "kind": "person", "level": None}
            await t.changed([{"kind": "seat_taken", "seat": i}])
            return {"seat": i, "table": t.summary()}
    return err(409, "table_full")


@app.get("/api/tables/{code}/record")
async def record(code: str) -> Any:
    return {"variant": tables[code].match.variant, "hands": []}


@app.get("/api/rankings/{variant}")
async def rankings(variant: str) -> Any:
    return {"variant": variant, "rows": [
        {"player": 1, "name": "Roselène", "rating": 1612, "hands": 80, "hands_won": 44, "matches": 9, "matches_won": 6},
        {"player": 2, "name": "Jean-Baptiste", "rating": 1540, "hands": 52, "hands_won": 25, "matches": 6, "matches_won": 3},
    ]}


@app.get("/api/players/{player}")
async def player(player: int) -> Any:
    g = next((g for g in guests.values() if g["player"] == player), None)
    if g is None:
        return err(404, "not_found")
    ms = [{"code": c, "variant": t.match.variant, "finished": t.status == "over", "won": False}
          for c, t in tables.items() if any(s and s["player"] == player for s in t.seats)]
    return {"player": player, "name": g["name"], "ratings": {"haitian": 1500}, "matches": ms}


@app.post("/debug/{code}/auto")
async def auto(code: str, n: int = 1) -> Any:
    t = tables[code]
    for _ in range(n):
        if not t.match.hand_in_progress:
            break
        await t.apply(None, TIMEOUT)
    return {"ok": True}


@app.websocket("/api/tables/{code}/ws")
async def ws(socket: WebSocket, code: str) -> None:
    await socket.accept()
    t = tables.get(code)
    seat = None
    try:
        hello = json.loads(await socket.receive_text())
        g = guests.get(hello.get("token", ""))
        if g is None or t is None:
            await socket.send_text(json.dumps({"type": "error", "id": None, "code": "bad_token", "message": "bad token"}))
            await socket.close(4401)
            return
        seat = next((i for i, s in enumerate(t.seats) if s and s["player"] == g["player"]), None)
        if seat is None:
            await socket.send_text(json.dumps({"type": "error", "id": None, "code": "not_seated", "message": "not seated"}))
            await socket.close(4401)
            return
        t.sockets.setdefault(seat, []).append(socket)
        await socket.send_text(json.dumps({"type": "welcome", "seq": t.seq, "seat": seat, "table": t.summary(), "view": t.view_json(seat)}))
        await t.changed([{"kind": "connected", "seat": seat}])
        while True:
            raw = await socket.receive_text()
            try:
                msg = json.loads(raw)
                kind = msg["type"]
                mid = msg.get("id")
            except Exception:
                await socket.send_text(json.dumps({"type": "error", "id": None, "code": "bad_message", "message": "bad message"}))
                continue
            key = (seat, str(mid))
            if key in t.done:
                await socket.send_text(json.dumps(t.done[key]))
                continue
            answer: dict[str, Any]
            try:
                if kind == "play":
                    if t.match.turn != seat:
                        raise PermissionError("not_your_turn")
                    move = parse_move(msg["move"], t.match.rules.top)
                    if str(move) not in [str(m) for m in view(t.match, seat).legal]:
                        raise PermissionError("illegal_move")
                    await t.apply(seat, move)
                elif kind == "start":
                    if seat != 0:
                        raise PermissionError("not_host")
                    if t.status != "waiting" or any(s is None for s in t.seats):
                        raise PermissionError("not_now")
                    await t.deal()
                elif kind == "next_hand":
                    if seat != 0:
                        raise PermissionError("not_host")
                    if t.status != "between_hands":
                        raise PermissionError("not_now")
                    await t.deal()
                elif kind == "finish":
                    if t.status != "between_hands":
                        raise PermissionError("not_now")
                    t.match.finish()
                    t.status = "over"
                    t.schedule()
                    await t.changed([{"kind": "finished"}])
                elif kind == "hint":
                    if t.match.turn != seat:
                        raise PermissionError("not_your_turn")
                    h = make_player("casual", Random()).hint(view(t.match, seat))
                    answer = {"type": "hint", "id": mid, "move": str(h.move), "reason": h.reason}
                    t.done[key] = answer
                    await socket.send_text(json.dumps(answer))
                    continue
                elif kind == "sync":
                    await socket.send_text(json.dumps({"type": "update", "seq": t.seq, "table": t.summary(), "events": [], "view": t.view_json(seat)}))
                elif kind == "leave":
                    t.seats[seat] = None
                    await t.changed([{"kind": "seat_left", "seat": seat}])
                else:
                    raise PermissionError("bad_message")
                answer = {"type": "ack", "id": mid, "seq": t.seq}
            except PermissionError as e:
                answer = {"type": "error", "id": mid, "code": str(e), "message": str(e)}
            except KabesError as e:
                answer = {"type": "error", "id": mid, "code": "not_now", "message": str(e)}
            t.done[key] = answer
            await socket.send_text(json.dumps(answer))
    except WebSocketDisconnect:
        pass
    finally:
        if t is not None and seat is not None and socket in t.sockets.get(seat, []):
            t.sockets[seat].remove(socket)
            await t.changed([{"kind": "disconnected", "seat": seat}])


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--turn-seconds", type=float, default=45)
    p.add_argument("--pause-seconds", type=float, default=30)
    a = p.parse_args()
    TURN_S, PAUSE_S = a.turn_seconds, a.pause_seconds
    uvicorn.run(app, host="127.0.0.1", port=a.port, log_level="warning")

"""The tables a page's worker holds, and the one call the worker makes: JSON in, JSON out
(``web/offline/worker.js`` runs it in Pyodide; tests run it in CPython).

A request is ``{"op": OP, ...}``; the answer is ``{"answer": ..., "out": [...], "games":
[...], "due": SECONDS | null}``, or ``{"error": {"code", "message"}, "out", "games", "due"}``
for a request refused (the protocol's codes, as HTTP answers them):

- ``open`` ``{"table": {"variant", "players", "options", "computers"}, "player", "name"}``:
  a new local table (``POST /api/tables``'s body and checks; every seat but the person's is
  a computer's): answer ``{"code", "table": summary}``;
- ``resume`` ``{"code", "entries"}``: the table of those kept entries, rebuilt unless this
  worker holds it already: answer ``{"code", "table": summary}``;
- ``table`` ``{"code"}``: its summary, as ``GET /api/tables/{code}`` (``not_found``);
- ``send`` ``{"code", "socket", "text"}``: a message of the page's socket ``socket``;
  ``close`` ``{"code", "socket"}``: that socket closed;
- ``tick``: every table does what is due (a computer seat's move, the pause's end);
- ``lessons`` ``{"lang", "done"}``, ``lesson`` ``{"lesson", "lang"}``, ``try`` ``{"lesson",
  "lang", "body": {"step", "move", "choice"}}``: the answers of ``/api/lessons``,
  ``/api/lessons/{id}`` and its ``/try`` (kabes.local.lessons);
- ``puzzle_daily`` ``{"day", "variant"}``, ``puzzle_next`` ``{"tried", "day", "variant"}``,
  ``puzzle_try`` ``{"puzzle", "move"}``: the answers of ``/api/puzzles/daily``, ``/next``
  and ``/{id}/try`` from the starter set, ``day`` the phone's date, ``tried`` the keys of
  the puzzles the page kept as tried (kabes.local.puzzles).

``out``: what the sockets are sent, in order: ``{"code", "socket", "text"}`` (a message of
``/api/tables/{code}/ws``, as its JSON text) or ``{"code", "socket", "close": CODE}``.
``games``: each table changed by the call, as the page keeps it (``LocalTable.game``: its
record once over), with the entries it logged since it was last handed (``since``: the first
one's index; the page appends them to those it has). ``due``: seconds until a table next
acts by itself (call ``tick`` then), null if none will.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Final

from kabes.local import lessons, puzzles
from kabes.local.computer import PHONE, Budgets
from kabes.local.table import LocalTable
from kabes.table import outbox
from kabes.table.creation import NewTable
from kabes.table.encoding import JSON
from kabes.table.refusals import ErrorCode, Refused

log = logging.getLogger("kabes.local")

REBUILT_CLOSE: Final = 1011
"""A table that failed unforeseen closes its sockets with it (the page says hello again)."""
PREFIX: Final = "L"
"""Every local table's code starts with it; no server's does (its alphabet has no L)."""
ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The server's code alphabet (kabes.server.hub.hub), for the rest of a local code."""
LENGTH: Final = 7


def is_local(code: str) -> bool:
    """Whether ``code`` names a table on the phone (never one of a server's)."""
    return code.startswith(PREFIX)


class Tables:
    """Every table a worker holds, by code."""

    def __init__(self, clock: Callable[[], float] = time.time, budgets: Budgets = PHONE,
                 seed: int | None = None) -> None:
        self.clock = clock
        self.budgets = budgets
        self.rng = random.Random(
            seed if seed is not None else random.SystemRandom().getrandbits(128))
        self.tables: dict[str, LocalTable] = {}
        self._told: dict[str, int] = {}
        """Each table's entries when the page was last handed its game."""

    def call(self, text: str) -> str:
        """Do the request ``text`` (see the module's text): the answer, as JSON text."""
        try:
            request = json.loads(text)
            if not isinstance(request, dict):
                raise Refused(ErrorCode.BAD_MESSAGE, "a request is a JSON object")
            head = f'"answer":{_text(self._do(request))}'
        except Refused as err:
            head = f'"error":{_text(err.to_body())}'
        except (KeyError, TypeError, ValueError) as err:
            head = f'"error":{_text({"code": "bad_message", "message": repr(err)})}'
        out, games = self._out()
        due = self.due()
        wait = "null" if due is None else f"{max(0.0, due - self.clock()):.3f}"
        return f'{{{head},"out":[{",".join(out)}],"games":[{",".join(games)}],"due":{wait}}}'

    def _do(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        if op == "open":
            table = self.open(request["table"], int(request["player"]), str(request["name"]))
            return {"code": table.code, "table": _summary(table)}
        if op == "resume":
            table = self.resume(str(request["code"]), request["entries"])
            return {"code": table.code, "table": _summary(table)}
        if op == "table":
            return _summary(self.held(str(request["code"])))
        if op == "send":
            table = self.held(str(request["code"]))
            self._guarded(table, lambda: table.receive(int(request["socket"]),
                                                       str(request["text"])))
            return None
        if op == "close":
            table = self.held(str(request["code"]))
            self._guarded(table, lambda: table.close(int(request["socket"])))
            return None
        if op == "tick":
            self.tick()
            return None
        if op == "lessons":
            return lessons.lesson_paths(str(request.get("lang", "en")), request.get("done", ()))
        if op == "lesson":
            return lessons.lesson_body(str(request["lesson"]), str(request.get("lang", "en")))
        if op == "try":
            return self._try(request)
        if isinstance(op, str) and op.startswith("puzzle_"):
            return _puzzle(op, request)
        raise Refused(ErrorCode.BAD_MESSAGE, f"no request {op!r}")

    # Tables --------------------------------------------------------------------------------

    def open(self, asked: dict[str, Any], player: int, name: str) -> LocalTable:
        """A new table as ``asked`` (``POST /api/tables``'s body), with the person
        ``player`` (``name``) at seat 0 and a computer in every other seat."""
        if not isinstance(asked, dict) or not isinstance(asked.get("variant"), str):
            raise Refused(ErrorCode.BAD_VARIANT, "say which variant")
        request = NewTable(asked["variant"], asked.get("players"), asked.get("options"),
                          asked.get("computers"))
        code = self._new_code()
        table = LocalTable.opened(code, request, player, name, **self._given())
        if table.state.free_seats:
            raise Refused(ErrorCode.BAD_LEVEL, "every other seat at a table on this phone is "
                          "a computer's: give each a level")
        self.tables[code] = table
        return table

    def resume(self, code: str, entries: list[dict[str, Any]]) -> LocalTable:
        """The table ``code`` as this worker holds it, or rebuilt from ``entries``."""
        table = self.tables.get(code)
        if table is None:
            if not is_local(code) or not entries:
                raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r} on this phone")
            table = self.tables[code] = LocalTable.rebuilt(code, entries, **self._given())
            self._told[code] = len(entries)  # a resumed entry, if one was logged, is handed
        return table

    def held(self, code: str) -> LocalTable:
        """The table ``code`` this worker holds, or Refused ``not_found``."""
        table = self.tables.get(code)
        if table is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no table {code!r} on this phone")
        return table

    def _given(self) -> dict[str, Any]:
        return {"clock": self.clock, "budgets": self.budgets,
                "seed": self.rng.getrandbits(64), "opener": self._again}

    def _again(self, table: LocalTable) -> str:
        """``play_again``: the same table opened again (variant, seats, options, levels)."""
        state = table.state
        host = state.seat(0)
        computers = {str(n): s.level for n, s in enumerate(state.seats)
                     if s is not None and s.level}
        again = self.open({"variant": state.variant, "players": state.players,
                           "options": state.options, "computers": computers},
                          host.player or 0, host.name)
        return again.code

    def _new_code(self) -> str:
        while True:
            code = PREFIX + "".join(self.rng.choice(ALPHABET) for _ in range(LENGTH))
            if code not in self.tables:
                return code

    def tick(self) -> None:
        """Every table does what is due now."""
        now = self.clock()
        for table in list(self.tables.values()):
            due = table.due()
            if due is not None and due <= now:
                self._guarded(table, table.tick)

    def _guarded(self, table: LocalTable, work: Callable[[], None]) -> None:
        """Do ``work`` at ``table``; if it fails unforeseen, the table may be half changed:
        it is rebuilt from its log (as the server's actor rebuilds from its store), and its
        sockets are closed (1011) so that the page says hello again to the table as kept.
        What the failed work logged is kept; what it had not logged is lost."""
        try:
            work()
        except Refused:
            raise
        except Exception:
            log.exception("local table %s failed; rebuilt from its log", table.code)
            kept = [json.loads(text) for text in table.entries]
            sent = [(conn, out) for conn, out in table.take()]
            again = LocalTable.rebuilt(table.code, kept, **self._given())
            again.out = sent + [(conn, REBUILT_CLOSE) for conn in table.sockets]
            self.tables[table.code] = again

    def due(self) -> float | None:
        """When a table next acts by itself (clock time), if one will."""
        times = [t for t in (table.due() for table in self.tables.values()) if t is not None]
        return min(times) if times else None

    def _out(self) -> tuple[list[str], list[str]]:
        """What the sockets are sent since the last call, and the games changed."""
        out: list[str] = []
        games: list[str] = []
        for code, table in self.tables.items():
            for conn, data in table.take():
                if isinstance(data, int):
                    out.append(f'{{"code":{_text(code)},"socket":{conn},"close":{data}}}')
                else:
                    out.append(f'{{"code":{_text(code)},"socket":{conn},'
                               f'"text":{_text(data.decode())}}}')
            told = self._told.get(code, 0)
            if told != len(table.entries):
                self._told[code] = len(table.entries)
                games.append(table.game(told))
        return out, games

    # Lessons -------------------------------------------------------------------------------

    def _try(self, request: dict[str, Any]) -> dict[str, Any]:
        body = request.get("body")
        if not isinstance(body, dict):
            raise Refused(ErrorCode.BAD_MESSAGE, "a try's body is a JSON object")
        step, move, choice = body.get("step"), body.get("move"), body.get("choice")
        if (not isinstance(step, int) or step < 0 or isinstance(step, bool)
                or not (move is None or (isinstance(move, str) and len(move) <= 32))
                or not (choice is None or _count(choice))):
            raise Refused(ErrorCode.BAD_MESSAGE, "a try is {step, and a move or a choice}")
        return lessons.lesson_try(str(request["lesson"]), str(request.get("lang", "en")),
                                  step, move, choice)


def _puzzle(op: str, request: dict[str, Any]) -> dict[str, Any]:
    """A puzzle request (kabes.local.puzzles); ``bad_message`` for fields of the wrong kind."""
    if op == "puzzle_try":
        return puzzles.attempt(str(request.get("puzzle")), request.get("move"))
    day, variant = request.get("day"), request.get("variant")
    if not isinstance(day, str) or not (variant is None or isinstance(variant, str)):
        raise Refused(ErrorCode.BAD_MESSAGE, "a puzzle request has a day (ISO date) and "
                      "a variant or null")
    if op == "puzzle_daily":
        return puzzles.daily(day, variant)
    if op == "puzzle_next":
        tried = request.get("tried")
        if not isinstance(tried, list) or not all(isinstance(k, str) for k in tried):
            raise Refused(ErrorCode.BAD_MESSAGE, "tried is a list of puzzle ids")
        return puzzles.following(tried, day, variant)
    raise Refused(ErrorCode.BAD_MESSAGE, f"no request {op!r}")


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _summary(table: LocalTable) -> Any:
    return json.loads(JSON.encode(outbox.summary(table.state, table.connected)))


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

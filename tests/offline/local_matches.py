"""Whole matches at a local table (kabes.local), played through its messages as the table
page plays them: a hello, a start, the person's moves from their view's ``legal``, a hint
and a review now and then, ``next_hand`` or the pause, the computer seats on their own. By
code that runs the same in CPython and in Pyodide (offline/run.mjs): the offline tests play
them in both and compare every message.

Time is a fake clock moved on to when the table next acts by itself, so a match takes no
longer than its searches; the expert searches a fixed number of worlds, so that the same
seed plays the same match wherever it runs. Standard library and the pack's ``kabes`` only.
"""

from __future__ import annotations

import hashlib
import json
from random import Random
from typing import Any

from kabes.ai import LEVELS
from kabes.local.computer import Budgets
from kabes.local.tables import Tables
from kabes.rules import VARIANTS, get_rules

SHORTEST = ("target", "hands")
"""The options that set a match's length; each game takes the least its variant allows."""
SOCKET = 1


def short_options(variant: str, players: int) -> dict[str, Any]:
    """The options that make the shortest match of ``variant`` at ``players`` seats."""
    specs = get_rules(variant).option_specs(players)
    return {name: min(spec.choices) for name, spec in specs.items()
            if name in SHORTEST and spec.choices and len(spec.choices) > 1}


def every_table(seed: int = 1) -> list[dict[str, Any]]:
    """Every variant that seats computers, at every seat count, with every level seated at
    each variant: a table a seat count, the levels in turn round the computer seats from one
    table to the next, and the seat counts again until every level has sat (plaza's one
    computer seat takes four tables)."""
    games: list[dict[str, Any]] = []
    for variant, rules in VARIANTS.items():
        if rules.people_only:
            continue
        turn = 0
        seen: set[str] = set()
        while len(seen) < len(LEVELS):
            for players in rules.seat_counts:
                computers = {}
                for seat in range(1, players):
                    computers[str(seat)] = LEVELS[turn % len(LEVELS)]
                    seen.add(computers[str(seat)])
                    turn += 1
                games.append({"variant": variant, "players": players, "computers": computers,
                              "options": short_options(variant, players),
                              "seed": seed + len(games)})
    return games


class Clock:
    """A fake clock, moved on by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Page:
    """The table page's side of one local table: what it was sent, what it shows."""

    def __init__(self, tables: Tables, clock: Clock) -> None:
        self.tables = tables
        self.clock = clock
        self.code = ""
        self.got: list[str] = []
        """Every message text the socket was sent, in order."""
        self.entries: list[dict[str, Any]] = []
        """The table's entries, as the page keeps them."""
        self.game: dict[str, Any] = {}
        """The game as last handed to the page (its entries are in :attr:`entries`)."""
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.ids = 0
        self.due: float | None = None
        self.reviewed: set[int] = set()
        """The hands whose end the page has seen (a review asked, or not)."""

    def call(self, **request: Any) -> Any:
        answer = json.loads(self.tables.call(json.dumps(request)))
        for out in answer["out"]:
            assert out["code"] == self.code and out["socket"] == SOCKET, out
            if "text" in out:
                self.got.append(out["text"])
                message = json.loads(out["text"])
                if message["type"] in ("welcome", "update"):
                    self.view, self.table = message["view"], message["table"]
        for game in answer["games"]:
            self.code = self.code or game["code"]
            assert game["code"] == self.code
            assert game["since"] == len(self.entries), "an entry was not handed to the page"
            self.entries += game["entries"]
            self.game = game
        self.due = answer["due"]
        if "error" in answer:
            raise ValueError(answer["error"])
        return answer["answer"]

    def send(self, kind: str, **fields: Any) -> None:
        self.ids += 1
        self.call(op="send", code=self.code, socket=SOCKET,
                  text=json.dumps({"type": kind, "id": f"a{self.ids}", **fields}))

    def hello(self) -> None:
        self.call(op="send", code=self.code, socket=SOCKET,
                  text=json.dumps({"type": "hello", "token": "the phone's"}))

    def wait(self) -> None:
        """Let the table act by itself: the clock moved on to when it said."""
        assert self.due is not None, "nothing will happen: the table is stuck"
        self.clock.now += self.due
        self.call(op="tick")


def play(game: dict[str, Any], expert: dict[str, Any], reload_at: int | None = None
         ) -> dict[str, Any]:
    """Play ``game`` at a local table to its end as a page would; ``reload_at``: after that
    many of the person's moves, the page is reloaded (a new worker rebuilds the table from
    the entries kept) and play goes on. The record, the entries, the messages' digest, and
    what was seen."""
    clock = Clock()
    budgets = Budgets(computer_delay=1.0, worlds=expert.get("worlds"),
                      expert_budget=expert.get("budget", 1.0),
                      hint_budget=expert.get("budget", 1.0),
                      review_budget=expert.get("budget", 1.0))
    rng = Random(game["seed"])
    page = Page(Tables(clock, budgets, seed=game["seed"]), clock)
    opened = page.call(op="open", player=7, name="Roselène", table={
        k: game[k] for k in ("variant", "players", "options", "computers")})
    assert page.code == opened["code"]
    page.hello()
    page.send("start")
    moves = hints = reviews = reloads = 0
    digest = hashlib.sha256()
    while True:
        view, table = page.view, page.table
        assert view is not None and table is not None
        if table["status"] == "over":
            break
        if table["status"] == "playing" and view["turn"] == 0:
            if rng.random() < 0.1:
                page.send("hint")
                hints += 1
            page.send("play", move=rng.choice(view["legal"]))
            moves += 1
            if moves == reload_at:
                page = reloaded(page, budgets, game["seed"])
                reloads += 1
        elif table["status"] == "between_hands" and view["hand_number"] not in page.reviewed:
            page.reviewed.add(view["hand_number"])
            if rng.random() < 0.3:
                page.send("review")
                reviews += 1
            if rng.random() < 0.5:
                page.send("next_hand")
        else:
            page.wait()
    for text in page.got:
        digest.update(text.encode())
    last = page.game
    return {**game, "record": last["record"], "entries": page.entries,
            "status": last["status"], "messages": len(page.got), "digest": digest.hexdigest(),
            "moves": moves, "hints": hints, "reviews": reviews, "reloads": reloads,
            "types": sorted({json.loads(t)["type"] for t in page.got})}


def reloaded(page: Page, budgets: Budgets, seed: int) -> Page:
    """The page reloaded: a new worker, the table rebuilt from the entries the page kept,
    a new socket's hello; it must show the same position."""
    kept = page.entries
    before = page.view
    again = Page(Tables(page.clock, budgets, seed=seed + 1), page.clock)
    again.code = page.code
    again.reviewed = page.reviewed
    again.got = page.got
    again.entries = list(kept)
    again.call(op="resume", code=page.code, entries=kept)
    again.hello()
    assert before is not None and again.view is not None
    assert _still(again.view) == _still(before), "the reload moved the table"
    return again


def _still(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its clocks' time left (a reload gives the clocks back their time)."""
    return {k: v for k, v in view.items() if k not in ("clock", "pause")}


def run(text: str) -> str:
    """What offline/run.mjs calls: ``{"games": [...], "expert": {...}}`` as JSON in; the
    games played (:func:`play`, each reloaded once after its third move), as JSON out."""
    asked = json.loads(text)
    return json.dumps([play(game, asked["expert"], reload_at=3) for game in asked["games"]])

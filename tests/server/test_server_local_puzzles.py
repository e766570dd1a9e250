"""The puzzles on a phone with no network (kabes.local.puzzles, the worker's ``puzzle_*``
requests) answer as a new server with the starter set does: the same daily puzzle of a date
(a server's first choice of a day), and for every starter puzzle the same judgement,
solution and proof of a right and a wrong try; an illegal move, an unknown puzzle and a
variant without puzzles are refused with the server's codes; ``next`` skips the puzzles the
page says were tried."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness import auth, running, sqlite_url

from kabes.local.tables import Tables
from kabes.puzzles.prove import LINE_VARIANTS
from kabes.puzzles.starter import starter

phone = Tables(seed=1)


def local(**request: Any) -> Any:
    return json.loads(phone.call(json.dumps(request)))


async def test_the_phones_daily_puzzle_is_a_new_servers_of_each_variant(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), starter_puzzles=True) as server:
        for variant in [None, *sorted(LINE_VARIANTS)]:
            asked = "" if variant is None else f"?variant={variant}"
            there = (await server.http.get(f"/api/puzzles/daily{asked}")).json()
            here = local(op="puzzle_daily", day=there["date"], variant=variant)
            assert here["answer"] == there, variant


async def test_the_phone_judges_every_starter_puzzles_tries_as_the_server_does(
        tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), starter_puzzles=True) as server:
        _, token = await server.guest("Ana")
        for puzzle in starter():
            wrong = next(m for m in puzzle.view["legal"] if not puzzle.solves(m))
            for move in (puzzle.solution[0], wrong):
                there = (await server.http.post(f"/api/puzzles/{puzzle.key}/try",
                                                json={"move": move}, headers=auth(token))).json()
                here = local(op="puzzle_try", puzzle=puzzle.key, move=move)["answer"]
                assert here["rating"] is None
                assert {**here, "rating": there["rating"]} == there, (puzzle.key, move)


def test_the_phone_refuses_an_illegal_move_an_unknown_puzzle_and_a_variant_without_puzzles(
        ) -> None:
    first = starter()[0]
    assert local(op="puzzle_try", puzzle=first.key, move="12-12")["error"]["code"] == \
        "illegal_move"
    assert local(op="puzzle_try", puzzle="nope", move="6-6")["error"]["code"] == "not_found"
    assert local(op="puzzle_daily", day="2031-01-01", variant="mexican-train"
                 )["error"]["code"] == "not_found"
    assert local(op="puzzle_daily", day="2031-01-01", variant="nope")["error"]["code"] == \
        "bad_variant"
    assert local(op="puzzle_next", day="2031-01-01", variant=None, tried="x"
                 )["error"]["code"] == "bad_message"


def test_the_phones_next_puzzle_is_one_not_tried() -> None:
    tried: list[str] = []
    for _ in range(5):
        found = local(op="puzzle_next", day="2031-01-01", variant="plaza", tried=tried)["answer"]
        assert found["id"] not in tried and found["variant"] == "plaza"
        assert "solution" not in found and "proof" not in found
        tried.append(found["id"])
    every = [p.key for p in starter() if p.variant == "plaza"]
    assert local(op="puzzle_next", day="2031-01-01", variant="plaza", tried=every
                 )["error"]["code"] == "not_found"

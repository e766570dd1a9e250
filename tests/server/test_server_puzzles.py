"""Puzzles over HTTP (PROTOCOL.md, "Puzzles"; issue 28), on SQLite and PostgreSQL: the daily
puzzle is the same for everyone on a date, even when two first asks race; a puzzle goes out
without its solution; a try answers exactly the protocol's fields; only the first try of a
puzzle counts and moves the ratings; an illegal move is 422 ``illegal_move`` and changes
nothing; bad bodies and unknown ids are refused with a code; ``next`` offers only puzzles not
yet tried; a player's page carries their puzzle card."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from harness import Server, auth, running
from puzzle_samples import sample_puzzles
from stores import Backend, backend_fixture  # noqa: F401

from kabes.puzzles.model import Puzzle
from kabes.server.store.puzzles import ANY_VARIANT, choose_daily
from kabes.server.store.store import Store

PUBLIC_FIELDS = {"id", "variant", "players", "options", "seat", "view", "moves", "date"}
TRY_FIELDS = {"correct", "solution", "proof", "rating"}


@pytest.fixture(name="samples", scope="module")
def samples_fixture() -> list[Puzzle]:
    return sample_puzzles(4)


@pytest.fixture
async def server(backend: Backend, samples: list[Puzzle]) -> AsyncIterator[Server]:
    """The real app on the test's store with the sample puzzles in it."""
    async with running(backend.url) as srv:
        await store_of(srv).puzzles.add(samples)
        yield srv


def store_of(server: Server) -> Store:
    found: Store = server.app.state.services.store
    return found


async def get(server: Server, path: str, token: str | None = None) -> dict[str, Any]:
    reply = await server.http.get(path, headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


async def attempt(server: Server, key: str, move: Any, token: str) -> Any:
    return await server.http.post(f"/api/puzzles/{key}/try", json={"move": move},
                                  headers=auth(token))


def by_key(samples: list[Puzzle], key: str) -> Puzzle:
    return next(p for p in samples if p.key == key)


def wrong_move(puzzle: Puzzle) -> str:
    legal: list[str] = puzzle.view["legal"]
    return next(m for m in legal if not puzzle.solves(m))


async def test_the_daily_puzzle_has_the_protocols_fields_and_never_its_solution(
        server: Server, samples: list[Puzzle]) -> None:
    daily = await get(server, "/api/puzzles/daily")
    assert set(daily) == PUBLIC_FIELDS
    puzzle = by_key(samples, daily["id"])
    assert daily["view"] == puzzle.view and daily["view"]["legal"]
    assert daily["moves"] == puzzle.moves and daily["seat"] == puzzle.seat
    assert daily["date"][4] == "-" and len(daily["date"]) == 10
    assert "solution" not in str(daily) and "proof" not in str(daily)


async def test_two_players_get_the_same_daily_puzzle_on_a_date(server: Server) -> None:
    _, ana = await server.guest("Ana")
    _, ben = await server.guest("Ben")
    first = await get(server, "/api/puzzles/daily", ana)
    assert await get(server, "/api/puzzles/daily", ben) == first
    assert await get(server, "/api/puzzles/daily") == first
    assert (await get(server, "/api/puzzles/daily?variant=partnership"))["variant"] == \
        "partnership"


async def test_two_first_asks_at_once_keep_one_daily_puzzle(
        backend: Backend, samples: list[Puzzle]) -> None:
    # Two stores (two engines, as two processes would have) ask for days no one asked for
    # yet, at the same moment: each pair of answers is one puzzle.
    first, second = Store(backend.url), Store(backend.url)
    await first.open()
    await second.open()
    try:
        await first.puzzles.add(samples)
        for day in range(1, 9):
            date = f"2031-01-{day:02d}"
            one, two = await asyncio.gather(first.puzzles.daily(date, None),
                                            second.puzzles.daily(date, None))
            assert one is not None and two is not None
            assert one[0] == two[0], date
    finally:
        await first.close()
        await second.close()


class Interleaved:
    """A connection that runs ``between`` once, right after its first statement: another
    process's commit landing between two statements of one transaction."""

    def __init__(self, conn: Any, between: Callable[[], Awaitable[object]]) -> None:
        self.conn = conn
        self.between: Callable[[], Awaitable[object]] | None = between

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        result = await self.conn.execute(*args, **kwargs)
        if self.between is not None:
            between, self.between = self.between, None
            await between()
        return result


async def test_a_day_kept_elsewhere_between_counting_and_picking_still_gets_a_puzzle(
        backend: Backend, samples: list[Puzzle]) -> None:
    # The choice counts the puzzles not yet daily ones, then picks the n-th; another
    # process keeping another day's puzzle between the two leaves one fewer. With the date
    # whose n is the last, the pick would run past the end: it counts again instead, and
    # still picks a puzzle not yet a daily one (CI once saw a first ask get nothing).
    here, elsewhere = Store(backend.url), Store(backend.url)
    await here.open()
    await elsewhere.open()
    try:
        await here.puzzles.add(samples)
        left = len(samples)
        day = next(d for d in (f"2032-{m:02d}-{n:02d}" for m in range(1, 13)
                               for n in range(1, 29))
                   if int.from_bytes(hashlib.sha256(f"{d}/{ANY_VARIANT}".encode())
                                     .digest()[:8], "big") % left == left - 1)
        kept: list[str] = []

        async def keep_another_day() -> None:
            other = await elsewhere.puzzles.daily("2032-12-31", None)
            assert other is not None
            kept.append(other[0])

        async with here.engine.begin() as conn:
            # Interleaved stands in for the connection: choose_daily only calls its execute.
            between = Interleaved(conn, keep_another_day)
            pick = await choose_daily(between, day, ANY_VARIANT)  # type: ignore[arg-type]
        assert kept, "the other day was kept between the two statements"
        assert pick in {p.key for p in samples} and pick != kept[0]
    finally:
        await here.close()
        await elsewhere.close()


async def test_two_first_tries_at_once_count_once_and_tries_of_two_puzzles_both_count(
        backend: Backend, samples: list[Puzzle]) -> None:
    # Two stores (two processes) keep one player's tries at the same moment: of one puzzle
    # (two tabs), only one is a first try; of two puzzles, both count and neither rating
    # update is lost.
    first, second = Store(backend.url), Store(backend.url)
    await first.open()
    await second.open()
    try:
        await first.puzzles.add(samples)
        player = await first.create_guest("Ana", "token-ana")
        one, two = samples[0], samples[1]
        a, b = await asyncio.gather(
            first.puzzles.attempt(player, one.key, one.solution[0], True),
            second.puzzles.attempt(player, one.key, one.solution[0], True))
        assert sorted([a.first, b.first]) == [False, True]
        card = await first.puzzles.card(player)
        assert (card["tried"], card["solved"], card["streak"]) == (1, 1, 1)
        c, d = await asyncio.gather(
            first.puzzles.attempt(player, two.key, two.solution[0], True),
            second.puzzles.attempt(player, samples[2].key, samples[2].solution[0], True))
        assert c.first and d.first
        card = await first.puzzles.card(player)
        assert (card["tried"], card["solved"], card["streak"]) == (3, 3, 3)
    finally:
        await first.close()
        await second.close()


async def test_a_variants_daily_puzzle_is_one_of_that_variant(
        backend: Backend, samples: list[Puzzle]) -> None:
    store = Store(backend.url)
    await store.open()
    try:
        other = dataclasses.replace(samples[0], variant="plaza-partners")
        await store.puzzles.add([*samples, other])
        found = await store.puzzles.daily("2031-03-01", "plaza-partners")
        assert found is not None and found[0] == other.key
        assert await store.puzzles.daily("2031-03-01", "haitian") is None
        anyone = await store.puzzles.daily("2031-03-01", None)
        assert anyone is not None
    finally:
        await store.close()


async def test_each_day_keeps_the_puzzle_it_was_given_when_more_are_stored(
        backend: Backend, samples: list[Puzzle]) -> None:
    store = Store(backend.url)
    await store.open()
    try:
        await store.puzzles.add(samples[:2])
        before = await store.puzzles.daily("2031-02-01", None)
        await store.puzzles.add(samples[2:])
        assert await store.puzzles.daily("2031-02-01", None) == before
    finally:
        await store.close()


async def test_a_try_answers_the_protocols_fields_with_the_proof_of_every_legal_move(
        server: Server, samples: list[Puzzle]) -> None:
    _, token = await server.guest()
    daily = await get(server, "/api/puzzles/daily")
    puzzle = by_key(samples, daily["id"])
    reply = await attempt(server, daily["id"], puzzle.solution[0], token)
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert set(body) == TRY_FIELDS
    assert body["correct"] is True
    assert body["solution"] == list(puzzle.solution)
    assert body["proof"]["deals"] == puzzle.proof.deals
    assert {m["move"] for m in body["proof"]["moves"]} == set(daily["view"]["legal"])
    for move in body["proof"]["moves"]:
        assert {"move", "worst", "best", "mean", "behind", "most_behind"} <= set(move)
    assert isinstance(body["rating"], float)


async def test_a_move_written_another_way_round_is_judged_as_the_same_move(
        server: Server, samples: list[Puzzle]) -> None:
    _, token = await server.guest()
    puzzle = samples[0]
    tile, _, end = puzzle.solution[0].partition("@")
    turned = "-".join(reversed(tile.split("-"))) + ("@" + end if end else "")
    body = (await attempt(server, puzzle.key, turned, token)).json()
    assert body["correct"] is True


async def test_a_wrong_first_try_is_counted_once_and_a_second_try_changes_nothing(
        server: Server, samples: list[Puzzle]) -> None:
    player, token = await server.guest()
    puzzle = samples[1]
    wrong = await attempt(server, puzzle.key, wrong_move(puzzle), token)
    assert wrong.status_code == 200 and wrong.json()["correct"] is False
    card = (await get(server, f"/api/players/{player}"))["puzzles"]
    assert card["tried"] == 1 and card["solved"] == 0 and card["streak"] == 0
    right = await attempt(server, puzzle.key, puzzle.solution[0], token)
    assert right.status_code == 200
    assert right.json()["correct"] is True
    assert right.json()["rating"] == wrong.json()["rating"]
    assert (await get(server, f"/api/players/{player}"))["puzzles"] == card


async def test_only_a_first_try_moves_the_players_and_the_puzzles_ratings(
        server: Server, samples: list[Puzzle]) -> None:
    player, token = await server.guest()
    store = store_of(server)
    start = (await store.puzzles.card(player))["rating"]
    puzzle = samples[2]
    right = (await attempt(server, puzzle.key, puzzle.solution[0], token)).json()
    assert right["rating"] > start
    moved = await puzzle_rating(store, puzzle.key)
    again = (await attempt(server, puzzle.key, puzzle.solution[0], token)).json()
    assert again["rating"] == right["rating"]
    assert await puzzle_rating(store, puzzle.key) == moved
    card = await store.puzzles.card(player)
    assert (card["tried"], card["solved"], card["streak"]) == (1, 1, 1)


async def puzzle_rating(store: Store, key: str) -> tuple[float, float]:
    import sqlalchemy as sa

    from kabes.server.store.schema import puzzles
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(puzzles.c.mu, puzzles.c.sigma)
                                  .where(puzzles.c.id == key))).one()
    return float(row[0]), float(row[1])


async def test_a_streak_counts_correct_first_tries_and_a_wrong_one_ends_it(
        server: Server, samples: list[Puzzle]) -> None:
    player, token = await server.guest()
    for puzzle in samples[:2]:
        await attempt(server, puzzle.key, puzzle.solution[0], token)
    card = await store_of(server).puzzles.card(player)
    assert (card["streak"], card["best_streak"]) == (2, 2)
    await attempt(server, samples[2].key, wrong_move(samples[2]), token)
    card = await store_of(server).puzzles.card(player)
    assert (card["streak"], card["best_streak"], card["solved"], card["tried"]) == (0, 2, 2, 3)


async def test_a_move_not_legal_is_refused_422_illegal_move_and_changes_nothing(
        server: Server, samples: list[Puzzle]) -> None:
    player, token = await server.guest()
    puzzle = samples[0]
    held = set(puzzle.view["hand"])
    unplayable = next(f"{a}-{b}@L" for a in range(7) for b in range(a, 7)
                      if f"{a}-{b}" not in held and not puzzle.solves(f"{a}-{b}@L")
                      and f"{b}-{a}" not in held)
    for move in (unplayable, "timeout", "9-9@L", "pass"):
        reply = await attempt(server, puzzle.key, move, token)
        assert reply.status_code == 422, (move, reply.text)
        assert reply.json()["code"] == "illegal_move"
    assert (await store_of(server).puzzles.card(player))["tried"] == 0
    assert await store_of(server).puzzles.tried(player, puzzle.key) is None


@pytest.mark.parametrize("body", [b"not json", b"{}", b'{"move": 5}', b'{"move": ""}',
                                  b'{"move": "6-6", "extra": 1}', b"[]",
                                  b'{"move": "' + b"6" * 40 + b'"}'])
async def test_a_bad_body_is_refused_with_a_code_and_changes_nothing(
        server: Server, samples: list[Puzzle], body: bytes) -> None:
    player, token = await server.guest()
    reply = await server.http.post(f"/api/puzzles/{samples[0].key}/try", content=body,
                                   headers=auth(token))
    assert 400 <= reply.status_code < 500, reply.text
    assert set(reply.json()) == {"code", "message"}
    assert (await store_of(server).puzzles.card(player))["tried"] == 0


async def test_a_try_needs_a_known_token_and_an_existing_puzzle(
        server: Server, samples: list[Puzzle]) -> None:
    puzzle = samples[0]
    anonymous = await server.http.post(f"/api/puzzles/{puzzle.key}/try",
                                       json={"move": puzzle.solution[0]})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "bad_token"
    _, token = await server.guest()
    unknown = await attempt(server, "0000000000000000", puzzle.solution[0], token)
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    nobody = await server.http.get("/api/puzzles/next")
    assert nobody.status_code == 401


async def test_an_unknown_variant_or_a_store_without_puzzles_is_404(backend: Backend) -> None:
    async with running(backend.url) as srv:
        empty = await srv.http.get("/api/puzzles/daily")
        assert empty.status_code == 404 and empty.json()["code"] == "not_found"
        odd = await srv.http.get("/api/puzzles/daily?variant=chess")
        assert odd.status_code == 404 and odd.json()["code"] == "bad_variant"
        _, token = await srv.guest()
        none = await srv.http.get("/api/puzzles/next", headers=auth(token))
        assert none.status_code == 404 and none.json()["code"] == "not_found"


async def test_next_offers_each_puzzle_not_yet_tried_then_404(
        server: Server, samples: list[Puzzle]) -> None:
    _, token = await server.guest()
    seen: list[str] = []
    for _ in samples:
        offered = await get(server, "/api/puzzles/next", token)
        assert set(offered) == PUBLIC_FIELDS
        assert "solution" not in str(offered) and "proof" not in str(offered)
        assert offered["id"] not in seen
        seen.append(offered["id"])
        await attempt(server, offered["id"], offered["view"]["legal"][0], token)
    assert sorted(seen) == sorted(p.key for p in samples)
    done = await server.http.get("/api/puzzles/next", headers=auth(token))
    assert done.status_code == 404 and done.json()["code"] == "not_found"


async def test_next_offers_the_puzzle_nearest_the_players_rating(
        server: Server, samples: list[Puzzle]) -> None:
    # A new player (mu 25) is offered the easiest puzzle (its rating starts lowest).
    _, token = await server.guest()
    offered = await get(server, "/api/puzzles/next", token)
    easiest = min(samples, key=lambda p: (p.difficulty, p.key))
    assert offered["id"] == easiest.key


async def test_a_players_page_shows_their_puzzle_card(
        server: Server, samples: list[Puzzle]) -> None:
    player, token = await server.guest()
    fresh = (await get(server, f"/api/players/{player}"))["puzzles"]
    assert fresh == {"rating": 0.0, "streak": 0, "best_streak": 0, "solved": 0, "tried": 0}
    await attempt(server, samples[0].key, samples[0].solution[0], token)
    card = (await get(server, f"/api/players/{player}"))["puzzles"]
    assert (card["solved"], card["tried"], card["streak"]) == (1, 1, 1)
    assert card["rating"] > fresh["rating"]

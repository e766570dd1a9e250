"""Rating history (PROTOCOL.md, "Players, replays and rankings"): a point for each rated hand
per player and variant, oldest first, thinned to one a day beyond the latest 100, on SQLite
and PostgreSQL; its migration goes up and down."""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import create_async_engine
from stores import Backend, backend_fixture, store_fixture  # noqa: F401

from kabes.server.store.history import DAY_SECONDS, KEPT_WHOLE, day_of
from kabes.server.store.schema import rating_history
from kabes.server.store.store import MIGRATIONS, Store
from kabes.table.effects import HandRated, MatchFinished, MatchStarted
from kabes.table.entries import Entry


def entry(seq: int) -> Entry:
    return Entry(seq, "move", {"seq": seq}, 1_700_000_000.0 + seq, seq % 4, f"a{seq}")


async def guests(store: Store, *names: str) -> list[int]:
    return [await store.create_guest(name, f"token-of-{name}") for name in names]


async def history(store: Store, player: int) -> dict[str, Any]:
    page = await store.player(player)
    assert page is not None
    return dict(page["history"])


async def test_every_rated_hand_adds_one_point_per_player_in_its_own_variant(
    store: Store,
) -> None:
    a, b, c = await guests(store, "A", "B", "C")
    before = time.time() * 1000
    for seq in (1, 2, 3):  # three commits of one hand each
        await store.append("HISTORY", entry(seq), [
            HandRated("haitian", [[a], [b]], [1, 2], [a])])
    await store.append("HISTORY", entry(4), [  # two hands in one commit
        HandRated("haitian", [[a], [b]], [2, 1], [b]),
        HandRated("haitian", [[a], [b]], [1, 2], [a]),
    ])
    await store.append("OTHERVR", entry(1), [
        HandRated("plaza", [[a], [c]], [1, 2], [a])])
    after = time.time() * 1000
    mine = await history(store, a)
    assert sorted(mine) == ["haitian", "plaza"]
    assert len(mine["haitian"]) == 5 and len(mine["plaza"]) == 1
    assert len((await history(store, b))["haitian"]) == 5
    assert list(await history(store, c)) == ["plaza"]
    for at, rating in mine["haitian"]:
        assert isinstance(at, int) and before - 1 <= at <= after + 1, "time in ms"
        assert isinstance(rating, float)
    ratings = [rating for _, rating in mine["haitian"]]
    model = PlackettLuce()
    mine_now, theirs = model.rating(), model.rating()
    expected = []
    for ranks in ([1.0, 2.0],) * 3 + ([2.0, 1.0], [1.0, 2.0]):  # in the order played
        (mine_now,), (theirs,) = model.rate([[mine_now], [theirs]], ranks=ranks)
        expected.append(round(mine_now.mu - 3 * mine_now.sigma, 2))
    assert ratings == pytest.approx(expected, abs=0.011), "the rating after each hand, in order"
    page = await store.player(a)
    assert page is not None
    assert page["ratings"] == {"haitian": ratings[-1], "plaza": mine["plaza"][-1][1]}, (
        "the last point is the rating now")


async def test_a_match_with_computers_keeps_no_history(store: Store) -> None:
    (person,) = await guests(store, "Person")
    await store.append("CMPUTER", entry(1), [
        MatchStarted("CMPUTER", "haitian", 2, [(0, person)], False)])
    await store.append("CMPUTER", entry(2), [
        MatchFinished("CMPUTER", "haitian", [person], {"hands": []}, False, [person])])
    assert await history(store, person) == {}


async def test_past_the_latest_100_points_only_each_days_last_is_kept(store: Store) -> None:
    a, b = await guests(store, "A", "B")
    today = day_of(time.time())
    # 100 earlier points, all within the latest 100 (so kept whole): 30 three days ago,
    # 70 two days ago, as the store would have written them then.
    seeded: list[tuple[float, float]] = []
    for n in range(100):
        day = today - 3 if n < 30 else today - 2
        seeded.append(((day * DAY_SECONDS) + 60.0 * n, float(n)))
    async with store.engine.begin() as conn:
        await conn.execute(rating_history.insert(), [
            {"player": a, "variant": "haitian", "at": at, "day": day_of(at), "rating": r}
            for at, r in seeded])
    seq = 0
    for hands in (1, 1, 8, 20, 30):  # 60 hands, some commits holding many
        seq += 1
        await store.append("THINNED", entry(seq), [
            HandRated("haitian", [[a], [b]], [1, 2], [a]) for _ in range(hands)])
    points = (await history(store, a))["haitian"]
    # Past the latest 100: seeded 0..59, thinned to the last of each day, 29 and 59.
    assert [r for _, r in points[:2]] == [29.0, 59.0]
    assert [r for _, r in points[2:42]] == [float(n) for n in range(60, 100)]
    assert len(points) == 2 + KEPT_WHOLE
    assert [at for at, _ in points] == sorted(at for at, _ in points), "oldest first"
    async with store.engine.connect() as conn:
        kept = (await conn.execute(
            sa.select(sa.func.count()).select_from(rating_history)
            .where(rating_history.c.player == a))).scalar_one()
    assert kept == 2 + KEPT_WHOLE, "thinned as written: the rows themselves stay bounded"
    assert len((await history(store, b))["haitian"]) == 60

    for _ in range(3):  # more hands today: the table holds 100 plus one point a day
        seq += 1
        await store.append("THINNED", entry(seq), [
            HandRated("haitian", [[a], [b]], [1, 2], [a]) for _ in range(50)])
    points = (await history(store, a))["haitian"]
    days = [day_of(at / 1000) for at, _ in points]
    assert days[:3] == [today - 3, today - 2, today], "one a day, the day's last"
    assert len(points) == 3 + KEPT_WHOLE


def _migrate(connection: sa.Connection, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    (command.upgrade if up else command.downgrade)(config, target)


def _tables(connection: sa.Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_the_history_migration_goes_down_and_up_again(backend: Backend) -> None:
    store = Store(backend.url)
    await store.open()
    a, b = await guests(store, "A", "B")
    await store.append("MIGRATE", entry(1), [HandRated("haitian", [[a], [b]], [1, 2], [a])])
    await store.close()
    engine = create_async_engine(backend.url)
    try:
        async with engine.begin() as conn:
            assert "rating_history" in await conn.run_sync(_tables)
            await conn.run_sync(_migrate, "0007", False)
        async with engine.begin() as conn:
            assert "rating_history" not in await conn.run_sync(_tables)
            assert "ratings" in await conn.run_sync(_tables), "the ratings stay"
            await conn.run_sync(_migrate, "head", True)
        async with engine.connect() as conn:
            assert "rating_history" in await conn.run_sync(_tables)
    finally:
        await engine.dispose()
    again = Store(backend.url)
    await again.open()
    try:
        assert await history(again, a) == {}, "the points went with the table"
        await again.append("MIGRATE", entry(2), [
            HandRated("haitian", [[a], [b]], [1, 2], [a])])
        assert len((await history(again, a))["haitian"]) == 1
    finally:
        await again.close()

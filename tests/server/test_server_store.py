"""The store keeps what it says it keeps, the same on SQLite and on PostgreSQL.

Every test here runs twice, once on a fresh SQLite file and once on a fresh PostgreSQL database
(see ``stores.py``; PostgreSQL tests skip, saying why, when it cannot be reached, and fail
instead under CI).
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory
from harness import Socket, auth, running, settle
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from stores import (  # noqa: F401
    Backend,
    SqliteBackend,
    backend_fixture,
    db_url_fixture,
    store_fixture,
)

import kabes
from kabes.records import filled
from kabes.server.common.metrics import Metrics
from kabes.server.store.file_writer import THREAD_NAME
from kabes.server.store.schema import metadata, players, table_events
from kabes.server.store.store import MIGRATIONS, Store, StoreError
from kabes.server.table.actor import Table
from kabes.table.effects import HandRated, MatchFinished, MatchStarted, TableStatus
from kabes.table.entries import Entry
from kabes.table.rankings import RANKED_AFTER_HANDS

MODEL = PlackettLuce()
MATCH_SECONDS = 120.0
"""The most a whole match against computers may take before the test gives up on it."""


def entry(seq: int, kind: str = "move", **data: Any) -> Entry:
    """A log entry whose data names its own seq (so a mixed-up entry shows)."""
    return Entry(seq, kind, {"seq": seq, **data}, 1_700_000_000.0 + seq, seq % 4, f"a{seq}")


@asynccontextmanager
async def other_engine(url: str) -> AsyncIterator[AsyncEngine]:
    """A second engine on the same database: what another process would see."""
    engine = create_async_engine(url)
    try:
        yield engine
    finally:
        await engine.dispose()


async def guests(store: Store, *names: str) -> list[int]:
    """New guests' ids, in the order given."""
    return [await store.create_guest(name, f"token-of-{name}") for name in names]


def rows_by_player(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {row["player"]: row for row in rows}


# Schema -------------------------------------------------------------------------------------


def _schema(connection: sa.Connection) -> dict[str, list[str]]:
    inspector = sa.inspect(connection)
    return {
        name: sorted(c["name"] for c in inspector.get_columns(name))
        for name in inspector.get_table_names()
    }


def _head() -> str | None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


async def test_migrations_create_the_schema_from_nothing_and_running_them_again_changes_nothing(
    backend: Backend,
) -> None:
    async with other_engine(backend.url) as engine:
        async with engine.connect() as conn:
            assert await conn.run_sync(_schema) == {}, "the database should start empty"
        first = Store(backend.url)
        await first.open()
        player = await first.create_guest("Roselène", "a-token")
        await first.close()
        async with engine.connect() as conn:
            schema = await conn.run_sync(_schema)
            version = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
                       ).scalars().all()
        expected = {
            table.name: sorted(c.name for c in table.columns)
            for table in metadata.sorted_tables
        }
        assert {k: v for k, v in schema.items() if k != "alembic_version"} == expected
        assert version == [_head()]

        again = Store(backend.url)
        await again.open()
        try:
            assert await again.player_by_token("a-token") == (player, "Roselène")
        finally:
            await again.close()
        async with engine.connect() as conn:
            assert await conn.run_sync(_schema) == schema
            assert (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
                    ).scalars().all() == version


# Appends ------------------------------------------------------------------------------------


async def test_append_returns_only_once_another_connection_sees_the_entry(
    store: Store, backend: Backend
) -> None:
    async with other_engine(backend.url) as engine:
        for seq in range(1, 21):
            await store.append("ABCDEFG", entry(seq), [TableStatus("ABCDEFG", "playing")])
            async with engine.connect() as conn:
                kept = (await conn.execute(
                    sa.select(table_events.c.seq).where(table_events.c.code == "ABCDEFG")
                    .order_by(table_events.c.seq)
                )).scalars().all()
            assert kept == list(range(1, seq + 1))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="no /proc: not Linux")
async def test_the_sqlite_writer_thread_carries_its_name_for_the_os_too(tmp_path: Path) -> None:
    """``top -H`` and bench/load.py tell the store's thread from the event loop by the name
    the kernel keeps for it (kabes.server.common.os_threads). Only a SQLite file has a
    writer thread of its own."""
    store = Store(SqliteBackend(tmp_path).url, Metrics())
    await store.open()
    try:
        await store.append("ABCDEFG", entry(1), [TableStatus("ABCDEFG", "playing")])
        writer = store._file._thread if store._file is not None else None
        assert writer is not None and writer.native_id is not None
        comm = Path(f"/proc/self/task/{writer.native_id}/comm").read_text().strip()
        assert comm == THREAD_NAME
        loop_thread = Path(f"/proc/self/task/{threading.get_native_id()}/comm")
        assert loop_thread.read_text().strip() != THREAD_NAME, "only the writer is renamed"
    finally:
        await store.close()


async def test_appends_issued_together_share_few_commits_and_keep_each_tables_order(
    store: Store,
) -> None:
    commits = 0

    def counted(_conn: Any) -> None:
        nonlocal commits
        commits += 1

    sa.event.listen(store.writer, "commit", counted)
    assert store.metrics is not None
    batches_before = _histogram(store.metrics, "kabes_store_batch_entries")

    async def table(number: int) -> None:
        # A table appends one entry at a time, each once the previous one is durable.
        for seq in range(1, 11):
            await store.append(f"T{number:03d}", entry(seq, table=number), [])

    await asyncio.gather(*(table(n) for n in range(50)))
    sa.event.remove(store.writer, "commit", counted)

    count, total = _histogram(store.metrics, "kabes_store_batch_entries")
    batches = count - batches_before[0]
    assert total - batches_before[1] == 500
    assert batches == commits, "every batch is one transaction"
    assert commits <= 50, f"500 entries from 50 tables took {commits} commits"
    for number in range(50):
        log = await store.load(f"T{number:03d}")
        assert [e.seq for e in log] == list(range(1, 11))
        assert [e.data for e in log] == [{"seq": s, "table": number} for s in range(1, 11)]


def _histogram(metrics: Metrics, name: str) -> tuple[float, float]:
    """(observations, sum) of a histogram."""
    count = metrics.registry.get_sample_value(f"{name}_count") or 0.0
    total = metrics.registry.get_sample_value(f"{name}_sum") or 0.0
    return count, total


async def test_an_entry_whose_seq_is_taken_fails_alone_and_its_batch_is_kept(
    store: Store,
) -> None:
    await store.append("AAAAAAA", entry(1, first=True), [TableStatus("AAAAAAA", "waiting")])
    assert store.metrics is not None
    before = _histogram(store.metrics, "kabes_store_batch_entries")
    results = await asyncio.gather(
        store.append("BBBBBBB", entry(1), [TableStatus("BBBBBBB", "waiting")]),
        store.append("AAAAAAA", entry(1, first=False), []),
        store.append("AAAAAAA", entry(2), []),
        store.append("CCCCCCC", entry(1), [TableStatus("CCCCCCC", "waiting")]),
        return_exceptions=True,
    )
    after = _histogram(store.metrics, "kabes_store_batch_entries")
    assert after[0] - before[0] == 1 and after[1] - before[1] == 4, "one batch of four"
    assert results[0] is None and results[2] is None and results[3] is None
    assert isinstance(results[1], StoreError)
    assert await store.load("AAAAAAA") == [entry(1, first=True), entry(2)]
    assert await store.load("BBBBBBB") == [entry(1)]
    assert await store.load("CCCCCCC") == [entry(1)]
    assert sorted(await store.live_codes()) == ["AAAAAAA", "BBBBBBB", "CCCCCCC"]


# Players ------------------------------------------------------------------------------------


async def test_a_guest_is_kept_by_the_sha256_of_its_token_and_never_the_token(
    store: Store, backend: Backend
) -> None:
    token = "kb_" + "Zq7" * 15
    player = await store.create_guest("Ti Jan", token)
    await store.create_guest("Someone Else", "another-token")
    async with other_engine(backend.url) as engine, engine.connect() as conn:
        rows = (await conn.execute(sa.select(players))).mappings().all()
    assert len(rows) == 2
    for row in rows:
        assert all(token not in str(value) for value in row.values())
    mine = next(row for row in rows if row["id"] == player)
    assert mine["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert await store.player_by_token(token) == (player, "Ti Jan")
    assert await store.player_by_token(token + "x") is None
    assert await store.player_by_token(mine["token_hash"]) is None


# Ratings ------------------------------------------------------------------------------------


async def test_a_rated_hand_raises_its_winner_and_lowers_its_loser_by_openskill(
    store: Store,
) -> None:
    winner, loser = await guests(store, "Winner", "Loser")
    await store.append("RRRRRRR", entry(1), [
        HandRated("haitian", [[winner], [loser]], [1, 2], [winner])
    ])
    fresh = MODEL.rating()
    (up,), (down,) = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1.0, 2.0])
    rows = rows_by_player(await store.rankings("haitian", least_hands=1))
    assert rows[winner]["mu"] == pytest.approx(up.mu, abs=1e-3)
    assert rows[winner]["sigma"] == pytest.approx(up.sigma, abs=1e-3)
    assert rows[loser]["mu"] == pytest.approx(down.mu, abs=1e-3)
    assert rows[loser]["mu"] < fresh.mu < rows[winner]["mu"]
    assert (rows[winner]["hands"], rows[winner]["hands_won"]) == (1, 1)
    assert (rows[loser]["hands"], rows[loser]["hands_won"]) == (1, 0)
    assert await store.rankings("plaza", least_hands=1) == [], (
        "a hand counts for its own variant only")


async def test_partners_move_together_when_their_team_wins_or_loses(store: Store) -> None:
    a, b, c, d = await guests(store, "A", "B", "C", "D")
    await store.append("PPPPPPP", entry(1), [
        HandRated("haitian-partners", [[a, c], [b, d]], [1, 2], [a, c])
    ])
    rows = rows_by_player(await store.rankings("haitian-partners", least_hands=1))
    fresh = MODEL.rating().mu
    assert rows[a]["mu"] == rows[c]["mu"] > fresh
    assert rows[b]["mu"] == rows[d]["mu"] < fresh
    assert rows[a]["sigma"] == rows[c]["sigma"]
    assert [rows[p]["hands_won"] for p in (a, b, c, d)] == [1, 0, 1, 0]
    assert [rows[p]["hands"] for p in (a, b, c, d)] == [1, 1, 1, 1]


async def test_a_drawn_hand_with_equal_ranks_moves_nobody_up_or_down(store: Store) -> None:
    a, b, c = await guests(store, "A", "B", "C")
    await store.append("DDDDDDD", entry(1), [
        HandRated("haitian", [[a], [b], [c]], [1, 1, 1], [])
    ])
    fresh = MODEL.rating()
    rows = rows_by_player(await store.rankings("haitian", least_hands=1))
    for p in (a, b, c):
        assert rows[p]["mu"] == pytest.approx(fresh.mu, abs=1e-3)
        assert rows[p]["sigma"] < fresh.sigma, "a hand played is something learnt"
        assert (rows[p]["hands"], rows[p]["hands_won"]) == (1, 0)


async def test_a_player_appears_in_the_rankings_only_after_ten_rated_hands(
    store: Store,
) -> None:
    regular, newcomer = await guests(store, "Regular", "Newcomer")
    for seq in range(1, RANKED_AFTER_HANDS):
        await store.append("TTTTTTT", entry(seq), [
            HandRated("haitian", [[regular], [newcomer]], [2, 1], [newcomer])
        ])
    assert RANKED_AFTER_HANDS == 10
    assert await store.rankings("haitian") == [], "9 hands: nobody is ranked yet"
    other = await store.create_guest("Other", "token-of-other")
    await store.append("TTTTTTT", entry(RANKED_AFTER_HANDS), [
        HandRated("haitian", [[regular], [other]], [1, 2], [regular])
    ])
    rows = await store.rankings("haitian")
    assert [(row["player"], row["hands"]) for row in rows] == [(regular, 10)]
    for module in ("home.js", "rankings.js"):  # the pages say so, with this number
        page = Path(kabes.__file__).parent / "web" / module
        assert f"const RANKED_AFTER_HANDS = {RANKED_AFTER_HANDS};" in page.read_text(
            encoding="utf-8"), module


async def test_rankings_list_the_best_first(store: Store) -> None:
    a, b, c = await guests(store, "A", "B", "C")
    await store.append("OOOOOOO", entry(1), [
        HandRated("haitian", [[a], [b], [c]], [3, 2, 1], [c])
    ])
    rows = await store.rankings("haitian", least_hands=1)
    assert [row["player"] for row in rows] == [c, b, a]
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    assert [row["name"] for row in rows] == ["C", "B", "A"]


async def test_a_finished_match_counts_for_its_players_and_keeps_its_record_and_winners(
    store: Store,
) -> None:
    winner, loser = await guests(store, "Winner", "Loser")
    people = [(0, winner), (1, loser)]
    record = {"variant": "haitian", "players": 2, "options": {}, "hands": [],
              "result": {"finished": True, "winners": [0], "scores": [1, 0], "kochon": False}}
    codes = ["FIRSTMM", "SECONDM"]
    for code in codes:
        await store.append(code, entry(1), [
            TableStatus(code, "playing"), MatchStarted(code, "haitian", 2, people, True)
        ])
    assert sorted(await store.live_codes()) == codes
    assert await store.match_record("FIRSTMM") is None, "no record before the end"
    await store.append("FIRSTMM", entry(2), [
        HandRated("haitian", [[winner], [loser]], [1, 2], [winner]),
        MatchFinished("FIRSTMM", "haitian", [winner], record, True, [winner, loser]),
        TableStatus("FIRSTMM", "over"),
    ])
    assert await store.match_record("FIRSTMM") == record
    assert await store.live_codes() == ["SECONDM"]
    rows = rows_by_player(await store.rankings("haitian", least_hands=1))
    assert (rows[winner]["matches"], rows[winner]["matches_won"]) == (1, 1)
    assert (rows[loser]["matches"], rows[loser]["matches_won"]) == (1, 0)
    page = await store.player(winner, own=True)
    assert page is not None
    assert page["name"] == "Winner"
    assert [(m["code"], m["finished"], m["won"]) for m in page["matches"]] == [
        ("SECONDM", False, False), ("FIRSTMM", True, True)
    ], "newest first"
    assert page["matches"][0]["started"] >= page["matches"][1]["started"]
    assert page["ratings"]["haitian"] == rows[winner]["rating"]
    lost = await store.player(loser, own=True)
    assert lost is not None
    assert [(m["code"], m["won"]) for m in lost["matches"]] == [
        ("SECONDM", False), ("FIRSTMM", False)
    ]
    assert await store.player(loser + winner + 100) is None


async def test_a_match_with_computers_is_listed_but_changes_no_rating(store: Store) -> None:
    (person,) = await guests(store, "Person")
    record = {"variant": "haitian", "players": 2, "hands": []}
    await store.append("CMPUTER", entry(1), [
        MatchStarted("CMPUTER", "haitian", 2, [(0, person)], False)
    ])
    await store.append("CMPUTER", entry(2), [
        MatchFinished("CMPUTER", "haitian", [person], record, False, [person])
    ])
    assert await store.rankings("haitian", least_hands=1) == []
    page = await store.player(person, own=True)
    assert page is not None
    assert page["ratings"] == {}
    assert [(m["code"], m["won"]) for m in page["matches"]] == [("CMPUTER", True)]
    public = await store.player(person)
    assert public is not None, "to anyone else, the same page without the private code"
    assert [(m["code"], m["won"]) for m in public["matches"]] == [(None, True)]


# Tables -------------------------------------------------------------------------------------


async def test_load_gives_a_tables_log_in_order_and_live_codes_only_tables_not_over(
    store: Store,
) -> None:
    await store.append("WAITING", entry(1, "created"), [TableStatus("WAITING", "waiting")])
    await store.append("PLAYING", entry(1, "created"), [TableStatus("PLAYING", "waiting")])
    await store.append("OVERNOW", entry(1, "created"), [TableStatus("OVERNOW", "waiting")])
    for seq in range(2, 6):
        await store.append("PLAYING", entry(seq, deal=[["6-6", "0-1"]], note="é"), [])
        await store.append("OVERNOW", entry(seq), [])
    await store.append("PLAYING", entry(6), [TableStatus("PLAYING", "playing")])
    await store.append("OVERNOW", entry(6), [TableStatus("OVERNOW", "over")])
    await store.append("BETWEEN", Entry(1, "created", {}, 1.5), [
        TableStatus("BETWEEN", "between_hands")
    ])
    log = await store.load("PLAYING")
    assert log == [entry(1, "created")] + [
        entry(seq, deal=[["6-6", "0-1"]], note="é") for seq in range(2, 6)
    ] + [entry(6)]
    assert await store.load("BETWEEN") == [Entry(1, "created", {}, 1.5)]
    assert await store.load("NOTABLE") == []
    assert sorted(await store.live_codes()) == ["BETWEEN", "PLAYING", "WAITING"]


async def test_the_last_heartbeat_is_kept_once_the_heartbeat_starts(store: Store) -> None:
    assert await store.last_heartbeat() is None
    started = time.time()
    store.start_heartbeat()
    first = await _until(store.last_heartbeat, lambda beat: beat is not None)
    assert first is not None and started - 1 <= first <= time.time() + 1
    later = await _until(store.last_heartbeat, lambda beat: beat is not None and beat > first)
    assert later is not None and later > first


async def _until(read: Any, ok: Any, seconds: float = 10.0) -> Any:
    """Poll ``read()`` until ``ok`` of it holds (fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        value = await read()
        if ok(value):
            return value
        assert time.monotonic() < deadline, f"still {value!r} after {seconds} s"
        await asyncio.sleep(0.02)


# When the database is gone ------------------------------------------------------------------


async def test_an_append_to_a_database_that_is_gone_raises_store_error(
    store: Store, backend: Backend
) -> None:
    await store.append("GONEAWY", entry(1), [TableStatus("GONEAWY", "waiting")])
    await backend.gone(store)
    with pytest.raises(StoreError):
        await store.append("GONEAWY", entry(2), [])
    with pytest.raises(StoreError):
        await store.append("GONEAWY", entry(3), [])


async def test_an_append_during_an_outage_fails_and_the_store_works_again_after_it(
    store: Store, backend: Backend
) -> None:
    await store.append("OUTAGES", entry(1), [TableStatus("OUTAGES", "waiting")])
    await backend.cut(store)
    with pytest.raises(StoreError):
        await store.append("OUTAGES", entry(2), [])
    await backend.mend()
    await store.append("OUTAGES", entry(2, again=True), [])
    assert await store.load("OUTAGES") == [entry(1), entry(2, again=True)]


# The whole server on each store -------------------------------------------------------------


async def play_to_the_end(socks: dict[int, Socket], host: int) -> dict[str, Any]:
    """Play every person's seat by its first legal move (the host deals the next hand, and
    finishes an open-ended match after its first hand); the final view."""
    counter = 0
    view: dict[str, Any] = {}
    done = False
    give_up = time.monotonic() + MATCH_SECONDS
    while not done:
        assert time.monotonic() < give_up, f"no end after {MATCH_SECONDS} s, at {view}"
        for seat, sock in socks.items():
            for message in await sock.quiet(0.01):
                if message["type"] == "error":
                    raise AssertionError(f"seat {seat} got {message}")
                if message["type"] != "update":
                    continue
                view = message["view"]
                if view["result"] is not None:
                    done = True
                    break
                status = message["table"]["status"]
                counter += 1
                if status == "between_hands" and seat == host:
                    open_ended = message["table"]["options"].get("open_ended")
                    kind = "finish" if open_ended else "next_hand"
                    sock.send({"type": kind, "id": f"h{counter}"})
                elif status == "playing" and view["turn"] == seat and view["legal"]:
                    sock.send({"type": "play", "id": f"m{counter}", "move": view["legal"][0]})
            if done:
                break
    return view


async def test_a_match_against_computers_plays_out_and_is_kept_on_each_store(
    db_url: str,
) -> None:
    async with running(db_url) as server:
        player, token = await server.guest("Roselène")
        summary = await server.open_table(
            token, variant="haitian", players=4,
            computers={"1": "casual", "2": "skilled", "3": "beginner"},
        )
        code = summary["code"]
        sock, _ = await server.connect(code, token)
        sock.send({"type": "start", "id": "start"})
        view = await play_to_the_end({0: sock}, 0)
        assert view["result"]["finished"] is True
        record = (await server.http.get(f"/api/tables/{code}/record")).json()
        assert filled(record) == record, "the record replays to the results announced"
        assert record["result"] == view["result"]
        kept = await server.app.state.services.store.match_record(code)
        assert kept == record
        rows = (await server.http.get("/api/rankings/haitian")).json()["rows"]
        assert rows == [], "a match against computers is not rated"
        page = (await server.http.get(f"/api/players/{player}", headers=auth(token))).json()
        won = 0 in record["result"]["winners"]
        assert [(m["code"], m["finished"], m["won"]) for m in page["matches"]] == [
            (code, True, won)
        ]
        assert code not in await server.app.state.services.store.live_codes()


async def test_a_match_of_people_is_rated_alike_on_each_store(db_url: str) -> None:
    async with running(db_url) as server:
        host, host_token = await server.guest("Host")
        guest, guest_token = await server.guest("Guest")
        code = (await server.open_table(host_token, variant="haitian", players=2))["code"]
        assert await server.join(guest_token, code) == 1
        host_sock, _ = await server.connect(code, host_token)
        guest_sock, _ = await server.connect(code, guest_token)
        host_sock.send({"type": "start", "id": "start"})
        view = await play_to_the_end({0: host_sock, 1: guest_sock}, 0)
        record = (await server.http.get(f"/api/tables/{code}/record")).json()
        assert record["result"] == view["result"] and view["result"]["finished"]
        assert filled(record) == record
        hands = len(record["hands"])
        winners = {[host, guest][seat] for seat in record["result"]["winners"]}
        rows = await server.app.state.services.store.rankings("haitian", least_hands=1)
        assert {row["player"] for row in rows} == {host, guest}
        for row in rows:
            assert row["hands"] == hands
            assert (row["matches"], row["matches_won"]) == (1, int(row["player"] in winners))
        assert rows == sorted(rows, key=lambda row: -row["rating"])
        for player, token in ((host, host_token), (guest, guest_token)):
            page = (await server.http.get(f"/api/players/{player}", headers=auth(token))).json()
            assert [(m["code"], m["won"]) for m in page["matches"]] == [
                (code, player in winners)
            ]


async def test_a_move_the_store_cannot_keep_is_refused_as_unavailable_and_undone(
    backend: Backend,
) -> None:
    async with running(backend.url) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="haitian", players=2, computers={"1": "beginner"}
        ))["code"]
        sock, _ = await server.connect(code, token)
        sock.send({"type": "start", "id": "start"})
        while True:  # (the start's own update comes before its ack)
            update = await sock.until("update")
            if update["view"]["turn"] == 0 and update["view"]["legal"]:
                break
        await settle()
        table: Table = server.hub.tables[code]
        seq = table.seq
        before = table.view_json(0)
        move = update["view"]["legal"][0]
        store: Store = server.app.state.services.store

        await backend.cut(store)
        sock.send({"type": "play", "id": "lost", "move": move})
        refused = await sock.until("error")
        assert refused["id"] == "lost" and refused["code"] == "unavailable", refused
        sock.send({"type": "play", "id": "lost", "move": move})
        again = await sock.until("error")
        assert again["id"] == "lost" and again["code"] == "unavailable", again
        assert not [
            m for m in await sock.quiet() if m["type"] == "update" or m.get("id") == "lost"
        ], "nothing is acknowledged or shown of a move that was not kept"
        late = server.socket(code)
        late.send({"type": "hello", "token": token})
        refused_hello = await late.until("error")
        assert refused_hello["code"] == "unavailable"
        assert await late.closed() == 1013, "try again later"

        await backend.mend()
        sock.send({"type": "sync", "id": "look"})
        now = await sock.until("update")
        await sock.until("ack", id="look")
        assert table.seq == seq and now["seq"] == seq
        assert table.view_json(0) == before, "the table is back as it was before the move"
        sock.send({"type": "play", "id": "lost", "move": move})
        ack = await sock.until("ack", id="lost")
        assert ack["seq"] == seq + 1
        await settle()
        log = await store.load(code)
        assert [e.seq for e in log] == list(range(1, len(log) + 1))
        mine = [e for e in log if e.action == "lost"]
        assert len(mine) == 1 and mine[0].seq == seq + 1 and mine[0].data["move"] == move


async def test_a_move_whose_write_fails_is_refused_and_the_table_rebuilt_at_once(
    db_url: str,
) -> None:
    async with running(db_url) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="haitian", players=2, computers={"1": "beginner"}
        ))["code"]
        sock, _ = await server.connect(code, token)
        sock.send({"type": "start", "id": "start"})
        while True:
            update = await sock.until("update")
            if update["view"]["turn"] == 0 and update["view"]["legal"]:
                break
        await settle()
        table: Table = server.hub.tables[code]
        seq, before, summary = table.seq, table.view_json(0), table.summary()
        store: Store = server.app.state.services.store
        real_append = store.append

        async def refuse(*_: Any) -> None:
            raise StoreError("the disk is full")

        store.append = refuse  # type: ignore[method-assign, assignment]
        move = update["view"]["legal"][0]
        sock.send({"type": "play", "id": "full", "move": move})
        refused = await sock.until("error")
        assert refused["id"] == "full" and refused["code"] == "unavailable", refused
        # The store could still be read: the table is put back at once, from what it kept.
        assert table.seq == seq
        assert table.view_json(0) == before and table.summary() == summary
        store.append = real_append  # type: ignore[method-assign]
        sock.send({"type": "play", "id": "full", "move": move})
        ack = await sock.until("ack", id="full")
        assert ack["seq"] == seq + 1
        kept = [e for e in await store.load(code) if e.action == "full"]
        assert [e.seq for e in kept] == [seq + 1], "applied and kept, not a stale ack"


async def test_requests_while_the_store_is_unreachable_are_answered_unavailable(
    backend: Backend,
) -> None:
    async with running(backend.url) as server:
        player, token = await server.guest()
        store: Store = server.app.state.services.store
        await backend.cut(store)
        for reply in (
            await server.http.post("/api/tables", json={"variant": "haitian", "players": 2},
                                   headers=auth(token)),
            await server.http.get("/api/me", headers=auth(token)),
            await server.http.post("/api/guests", json={"name": "Ti Jan"}),
            await server.http.get("/api/rankings/haitian"),
            await server.http.get(f"/api/players/{player}"),
        ):
            assert reply.status_code == 503, reply.text
            assert reply.json()["code"] == "unavailable", reply.text
        await backend.mend()
        summary = await server.open_table(token, variant="haitian", players=2)
        assert summary["seats"][0]["player"] == player

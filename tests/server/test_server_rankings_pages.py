"""Rankings by the page (PROTOCOL.md, "Players, replays and rankings"): ``GET
/api/rankings/{variant}?page=N`` gives 50 rows a page from 1, best first, and with a token the
caller's ``"me": {"place", "rating"}`` once ranked, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from harness import Server, auth, running
from stores import backend_fixture, db_url_fixture  # noqa: F401

from kabes.table.effects import HandRated
from kabes.table.entries import Entry
from kabes.table.rankings import RANKED_AFTER_HANDS

PLAYERS = 57


def entry(seq: int) -> Entry:
    return Entry(seq, "move", {"seq": seq}, 1_700_000_000.0 + seq, 0, f"r{seq}")


async def ranked_field(server: Server, count: int, hands: int = RANKED_AFTER_HANDS
                       ) -> list[int]:
    """``count`` players (tokens ``token-N``) rated over ``hands`` hands, in pairs of equal
    ranks, so that ties must be ordered too."""
    store = server.app.state.services.store
    ids = [await store.create_guest(f"P{n}", f"token-{n}") for n in range(count)]
    for seq in range(1, hands + 1):
        await store.append("RANKPGS", entry(seq), [HandRated(
            "haitian", [[p] for p in ids], [n // 2 + 1 for n in range(count)], [ids[0]])])
    return ids


async def page(server: Server, query: str = "", token: str | None = None) -> dict[str, Any]:
    reply = await server.http.get(f"/api/rankings/haitian{query}",
                                  headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


async def test_rankings_come_50_a_page_best_first_with_the_callers_place(db_url: str) -> None:
    async with running(db_url) as server:
        ids = await ranked_field(server, PLAYERS)
        first, second, third = [await page(server, f"?page={n}") for n in (1, 2, 3)]
        assert await page(server) == first, "no page is page 1"
        assert len(first["rows"]) == 50 and len(second["rows"]) == PLAYERS - 50
        assert third == {"variant": "haitian", "rows": []}
        rows = first["rows"] + second["rows"]
        assert sorted(r["player"] for r in rows) == sorted(ids), "each player once"
        shown = [r["rating"] for r in rows]
        assert shown == sorted(shown, reverse=True), "best first"
        assert rows == await server.app.state.services.store.rankings(
            "haitian", limit=100), "the pages are the list, cut in 50s"
        assert "me" not in first, "no token, no place"
        for n in (0, 1, 2, 49, 50, PLAYERS - 1):
            mine = rows[n]
            token = f"token-{ids.index(mine['player'])}"
            at = await page(server, "?page=2", token)
            assert at["me"] == {"place": n + 1, "rating": mine["rating"]}
            assert at["rows"] == second["rows"], "the page is the same for everyone"


async def test_an_unranked_caller_has_no_place_and_bad_pages_are_refused(db_url: str) -> None:
    async with running(db_url) as server:
        await ranked_field(server, 2, hands=RANKED_AFTER_HANDS - 1)
        assert await page(server, token="token-0") == {"variant": "haitian", "rows": []}
        assert "me" not in await page(server, token="no-such-token"), "unknown reads as none"
        for bad in ("0", "-1", "x", "1.5", "", "\u0661", "+2", "99999999999999999999"):
            reply = await server.http.get("/api/rankings/haitian", params={"page": bad})
            assert reply.status_code == 422, (bad, reply.text)
            assert reply.json()["code"] == "bad_message"

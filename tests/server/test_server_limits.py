"""The rate limits' counting (kabes.server.common.limits): a sliding minute, refusals not counted,
memory bounded in one process; shared by every process through Redis (real processes on a
real Redis and PostgreSQL, the limit reached through two of them); and a failure no handler
knew answered as JSON, logged once."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture redis_space)
from harness import running, sqlite_url
from redis.asyncio import Redis
from starlette.requests import Request

from kabes.server.common.config import Edge
from kabes.server.common.limits import (
    GUESTS,
    LINK_CODES,
    Limit,
    Limits,
    LocalCounter,
    RedisCounter,
    SlowDown,
)

THREE = Limit("three", 3, 60.0, "things a minute")


class Clock:
    """Seconds, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_limit_holds_over_every_minute_not_only_calendar_ones() -> None:
    clock = Clock()
    counter = LocalCounter(clock)
    for at in (0.0, 30.0, 59.0):
        clock.now = 1000.0 + at
        assert await counter.hit(THREE, "a") == 0
    clock.now = 1000.0 + 59.5
    assert await counter.hit(THREE, "a") == pytest.approx(0.5)  # the first leaves at 60
    clock.now = 1000.0 + 60.0
    assert await counter.hit(THREE, "a") == 0
    assert await counter.hit(THREE, "a") == pytest.approx(30.0)
    assert await counter.hit(THREE, "b") == 0, "each key has its own count"


async def test_a_refused_request_is_not_counted() -> None:
    clock = Clock()
    counter = LocalCounter(clock)
    for _ in range(3):
        assert await counter.hit(THREE, "a") == 0
    for _ in range(50):
        assert await counter.hit(THREE, "a") > 0
    clock.now += 60.0
    assert await counter.hit(THREE, "a") == 0, "whoever waited gets through"


async def test_the_in_process_counter_forgets_quiet_keys_and_keeps_at_most_its_cap() -> None:
    clock = Clock()
    counter = LocalCounter(clock, max_keys=100)
    for n in range(1000):
        await counter.hit(THREE, f"10.0.{n // 256}.{n % 256}")
    assert len(counter) == 100
    clock.now += 61.0
    await counter.hit(THREE, "late")
    assert len(counter) == 1, "keys quiet for a whole window are dropped"


async def test_limits_refuse_with_slow_down_and_whole_seconds() -> None:
    clock = Clock()
    limits = Limits(LocalCounter(clock))
    request = Request({"type": "http", "headers": [], "client": ("192.0.2.9", 4000)})
    for _ in range(LINK_CODES.most):
        await limits.link_code(request)
    with pytest.raises(SlowDown) as caught:
        await limits.link_code(request)
    assert caught.value.code == "slow_down" and caught.value.status == 429
    assert caught.value.retry_after == 60
    await limits.guest(request)  # another limit, its own count
    off = Limits(None)
    for _ in range(100):
        await off.link_code(request)


async def test_limits_are_shared_by_every_process_through_redis(
    tmp_path: Path, redis_space: RedisSpace,
) -> None:
    async with nodes(tmp_path, 2, redis_space) as (a, b):
        address = {"X-Forwarded-For": "203.0.113.77"}
        async with httpx.AsyncClient(trust_env=False) as http:
            for n in range(GUESTS.most):
                node = (a, b)[n % 2]
                reply = await http.post(f"{node.base}/api/guests", json={"name": f"G{n}"},
                                        headers=address)
                assert reply.status_code == 201, reply.text
            for node in (a, b):
                refused = await http.post(f"{node.base}/api/guests", json={"name": "One more"},
                                          headers=address)
                assert refused.status_code == 429, refused.text
                assert refused.json()["code"] == "slow_down"
                assert 1 <= int(refused.headers["retry-after"]) <= 60
            stranger = {"X-Forwarded-For": "198.51.100.7"}
            health = (await http.get(f"{a.base}/healthz", headers=stranger)).json()
            assert health["ok"] and "process" not in health and "redis" not in health, \
                "a cluster's internal addresses are for this machine only"
            assert "process" in (await http.get(f"{a.base}/healthz")).json()


async def test_the_redis_counter_keeps_one_expiring_key_per_address(
    redis_space: RedisSpace,
) -> None:
    client: Redis = redis_space.client()
    try:
        counter = RedisCounter(client, redis_space.prefix)
        for _ in range(3):
            assert await counter.hit(THREE, "a") == 0
        wait = await counter.hit(THREE, "a")
        assert 59.0 < wait <= 60.0
        key = f"{redis_space.prefix}limit:three:a"
        assert await client.zcard(key) == 3
        assert 0 < await client.pttl(key) <= 60_000
    finally:
        await client.aclose()


async def test_a_failure_no_handler_knew_is_500_json_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    async with running(sqlite_url(tmp_path), edge=Edge()) as server:

        @server.app.get("/broken")
        async def broken() -> None:
            raise ZeroDivisionError("a bug")

        with caplog.at_level(logging.ERROR, logger="kabes.app"):
            reply = await server.http.get("/broken")
        assert reply.status_code == 500
        assert reply.json()["code"] == "unavailable"
        assert reply.headers["content-type"] == "application/json"
        assert reply.headers["x-content-type-options"] == "nosniff"
        failures = [r for r in caplog.records if r.exc_info is not None]
        assert len(failures) == 1 and "GET /broken" in failures[0].getMessage()

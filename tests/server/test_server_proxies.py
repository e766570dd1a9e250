"""Proxies (PROTOCOL.md, "Safe for strangers"; issue 24), against a real ``kabes serve``:
``--trusted-proxies`` takes addresses and networks, ``*`` stops the server at start saying
why, and a client behind a trusted proxy is the rightmost address of ``X-Forwarded-For`` that
is not itself a trusted proxy, so that no header a client writes reaches ``/metrics`` or
escapes a rate limit.

The tests connect from 127.0.0.1: a trusted proxy by default; with ``--trusted-proxies``
naming another network, 127.0.0.1 is a stranger whose headers count for nothing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import httpx
import pytest
from wsclient import HOST, KABES, WAIT, ServerProcess, free_port

from kabes.server.common.proxies import LOOPBACK, TrustedProxies

OPTIONS = ("--workers", "1", "--log-level", "warning")


def refused_at_start(tmp_path: Path, value: str) -> str:
    """Run ``kabes serve --trusted-proxies VALUE``; it must exit non-zero at once. Its
    standard error, as one line of words."""
    env = {key: text for key, text in os.environ.items() if not key.startswith("KABES_")}
    done = subprocess.run(
        [str(KABES), "serve", "--host", HOST, "--port", str(free_port()), "--db",
         f"sqlite:///{tmp_path / 'kabes.sqlite3'}", "--trusted-proxies", value],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**env, "COLUMNS": "200"}, check=False)
    assert done.returncode != 0, done.stdout
    assert "serving" not in done.stdout
    return " ".join(done.stderr.replace("│", " ").split())


def test_a_star_is_refused_at_start_saying_why(tmp_path: Path) -> None:
    said = refused_at_start(tmp_path, "*")
    assert "--trusted-proxies" in said
    assert "would trust every connection's X-Forwarded-For" in said
    assert "127.0.0.1" in said and "rate limit" in said
    assert not (tmp_path / "kabes.sqlite3").exists(), "nothing was started"


@pytest.mark.parametrize(("value", "says"), [
    ("10.0.0.1,*", "would trust every connection"),
    ("0.0.0.0/0", "would trust every connection"),
    ("::/0", "would trust every connection"),
    ("10.0.0.300", "neither an address nor a network"),
    ("proxy.example.org", "neither an address nor a network"),
    ("10.0.0.1/8", "host bits set: the network is 10.0.0.0/8"),
])
def test_a_trusted_proxy_that_is_everyone_or_unreadable_is_refused_at_start(
    tmp_path: Path, value: str, says: str,
) -> None:
    said = refused_at_start(tmp_path, value)
    assert "--trusted-proxies" in said and says in said, said


def test_the_variable_is_refused_as_the_flag_is(tmp_path: Path) -> None:
    env = {key: text for key, text in os.environ.items() if not key.startswith("KABES_")}
    done = subprocess.run(
        [str(KABES), "serve", "--port", str(free_port()), "--db",
         f"sqlite:///{tmp_path / 'kabes.sqlite3'}"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**env, "COLUMNS": "200", "KABES_TRUSTED_PROXIES": "*"}, check=False)
    assert done.returncode != 0
    assert "KABES_TRUSTED_PROXIES" in done.stderr and "would trust every" in done.stderr


async def serving(tmp_path: Path, *options: str) -> ServerProcess:
    server = ServerProcess(tmp_path, *OPTIONS, *options)
    await server.start()
    return server


async def metrics(server: ServerProcess, forwarded: str | None) -> int:
    """The status of ``GET /metrics`` sent with ``X-Forwarded-For: forwarded``."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=WAIT) as http:
        return (await http.get("/metrics", headers=headers)).status_code


async def test_metrics_see_the_rightmost_untrusted_address_not_what_the_client_wrote(
    tmp_path: Path,
) -> None:
    server = await serving(tmp_path)  # trusted: 127.0.0.1 and ::1, a proxy on this machine
    try:
        assert await metrics(server, None) == 200, "this machine itself"
        for forwarded in ("203.0.113.5", "127.0.0.1, 203.0.113.5",
                          "203.0.113.5, 127.0.0.1", "::1, 203.0.113.5, ::1",
                          "127.0.0.1, unknown", "127.0.0.1, ::ffff:203.0.113.5"):
            assert await metrics(server, forwarded) == 404, forwarded
        assert await metrics(server, "::ffff:127.0.0.1, 127.0.0.1") == 200, \
            "every hop a trusted proxy: the leftmost, which they vouch for, is the client"
    finally:
        server.kill()


async def test_an_untrusted_connection_is_its_own_client_whatever_it_forwards(
    tmp_path: Path,
) -> None:
    server = await serving(tmp_path, "--trusted-proxies", "192.0.2.0/24,2001:db8::7")
    try:
        assert await metrics(server, "203.0.113.5") == 200, \
            "127.0.0.1 is no trusted proxy here: its header is ignored, it is on this machine"
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as http:
            made = [await http.post("/api/guests", json={"name": f"G{n}"},
                                    headers={"X-Forwarded-For": f"203.0.113.{n + 1}"})
                    for n in range(11)]
            assert [reply.status_code for reply in made] == [201] * 10 + [429], \
                "a new X-Forwarded-For at every request escapes no limit"
    finally:
        server.kill()


async def test_a_trusted_network_forwards_its_clients_address(tmp_path: Path) -> None:
    server = await serving(tmp_path, "--trusted-proxies", "127.0.0.0/8")
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as http:
            for n in range(12):  # each client its own count, through a proxy of the network
                reply = await http.post("/api/guests", json={"name": f"G{n}"}, headers={
                    "X-Forwarded-For": f"203.0.113.{n + 1}, 127.0.0.9"})
                assert reply.status_code == 201, reply.text
            same = [await http.post("/api/guests", json={"name": "S"}, headers={
                "X-Forwarded-For": f"10.9.9.{n}, 198.51.100.4"}) for n in range(11)]
            assert [reply.status_code for reply in same] == [201] * 10 + [429], \
                "what the client wrote left of its address does not make it another client"
        assert await metrics(server, "127.0.0.5, 198.51.100.4") == 404
    finally:
        server.kill()


def test_the_walk_from_the_right() -> None:
    proxies = TrustedProxies.parse("10.0.0.0/8, 2001:db8::/32")
    assert proxies.client("203.0.113.1", ["127.0.0.1"]) == "203.0.113.1"
    assert proxies.client("10.1.2.3", ["1.1.1.1, 2.2.2.2", "10.0.0.4"]) == "2.2.2.2"
    assert proxies.client("10.1.2.3", ["[2001:db8::1]:443, 10.0.0.1:80"]) == "2001:db8::1"
    assert proxies.client("10.1.2.3", ["[2001:DB9:0::1]:443"]) == "2001:db9::1"
    assert proxies.client("10.1.2.3", [" , "]) == "10.1.2.3"
    assert proxies.client("::ffff:10.0.0.1", ["203.0.113.9"]) == "203.0.113.9"
    assert LOOPBACK.client("127.0.0.1", ["x" * 500]) == "x" * 64
    assert TrustedProxies.parse("").networks == ()

"""Safe for strangers: any JSON message of up to 4 KiB on a seated socket gets an answer from
the protocol's list, and never a traceback (PROTOCOL.md, "Bad input is refused, never
crashes").

Hypothesis builds JSON values shaped like the protocol's messages (its types, its field names,
values of every JSON kind, digits from other scripts) and sends each on the host's socket of a
started table against the computer. After each one a ``sync`` with an id of the test's own
marks the end of its answer: everything received before that sync's ack must be a message of
the protocol (an ``error`` with one of its codes, an ``ack``, an ``update``, a ``hint`` or a
``review``), the socket stays open, and nothing was logged at ERROR (a traceback).
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from harness import Pacer, Server, Socket, running, sqlite_url
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabes.server.common import protocol

TYPES = ["hello", "play", "start", "next_hand", "finish", "hint", "review", "sync", "leave",
         "play_again", "dance", "", "PLAY", "play ", "welcome", "error"]
"""Message types: the protocol's, those of the server's own messages, and near misses."""
FIELDS = ["type", "id", "move", "token", "seat", "hand", "level", "lang", "x", ""]
ODD_DIGITS = ["²", "٣", "\uff16", "\U0001d7d9", "⁴", "໒", "¹-²", "\uff16-\uff16", "6-6@²",
              "6-6@٣", "1-2@L", "0-0", "timeout", "6-6@R"]
"""Digits that are not ASCII (superscripts, Arabic-Indic, full-width, mathematical, Lao), in
tiles and places, beside ordinary moves."""

SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(ODD_DIGITS), st.sampled_from(TYPES),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), inner,
                        max_size=4),
    ),
    max_leaves=12,
)
MESSAGE = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={name: VALUE for name in FIELDS if name != "type"},
    ),
    VALUE,
)
ANSWERS = {"error", "ack", "update", "hint", "review"}
CODES = {code.value for code in protocol.ErrorCode}



class Errors(logging.Handler):
    """Every record at ERROR or above, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def answer_of(sock: Socket, pacer: Pacer, text: str, mark: str) -> list[dict[str, Any]]:
    """Send ``text``, then a sync marked ``mark``; what came back before the sync's ack."""
    await pacer.wait()
    sock.send_text(text)
    await pacer.wait()
    sock.send({"type": "sync", "id": mark})
    got: list[dict[str, Any]] = []
    while True:
        message = await sock.recv()
        if message.get("type") == "ack" and message.get("id") == mark:
            return got
        got.append(message)


def test_any_json_message_gets_an_answer_from_the_protocol_and_never_a_traceback(
    tmp_path: Path,
) -> None:
    errors = Errors()
    logging.getLogger().addHandler(errors)
    marks = iter(range(10**9))

    async def scenario(server: Server, messages: list[Any]) -> None:
        _, token = await server.guest("Wilner")
        summary = await server.open_table(token, variant="plaza", players=2,
                                          computers={"1": "beginner"}, options={"target": 50})
        sock, _ = await server.connect(summary["code"], token)
        pacer = Pacer(most=60)
        await pacer.wait()
        sock.send({"type": "start", "id": "go"})
        await sock.until("ack", id="go")
        for message in messages:
            text = json.dumps(message, ensure_ascii=False)
            mark = f"mark{next(marks)}"
            if isinstance(message, dict) and message.get("type") == "leave":
                continue  # leaving is an answer of its own: the seat is given up
            got = await answer_of(sock, pacer, text, mark)
            for reply in got:
                assert reply.get("type") in ANSWERS, (text, reply)
                if reply["type"] == "error":
                    assert reply.get("code") in CODES, (text, reply)
                    assert isinstance(reply.get("message"), str) and reply["message"], reply
            assert sock.close_code is None, (text, sock.close_code)

    fits = st.lists(MESSAGE, min_size=1, max_size=8).filter(
        lambda ms: all(len(json.dumps(m, ensure_ascii=False).encode())
                       <= protocol.MAX_MESSAGE_BYTES for m in ms))

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(fits)
    def check(messages: list[Any]) -> None:
        async def run() -> None:
            folder = tmp_path / f"run{next(marks)}"
            folder.mkdir()
            async with running(sqlite_url(folder)) as server:
                await scenario(server, messages)

        asyncio.run(run())

    try:
        check()
    finally:
        logging.getLogger().removeHandler(errors)
    assert [r.getMessage() for r in errors.records] == []


@pytest.mark.parametrize(
    "move", ["²-²", "6-6@²", "\uff16-\uff16", "1-2@٣", "\U0001d7d9-\U0001d7da"])
def test_a_move_with_digits_other_than_ascii_is_refused_as_illegal(
    tmp_path: Path, move: str
) -> None:
    async def run() -> None:
        async with running(sqlite_url(tmp_path)) as server:
            _, token = await server.guest("Darline")
            summary = await server.open_table(token, variant="plaza", players=2,
                                              computers={"1": "beginner"})
            sock, _ = await server.connect(summary["code"], token)
            sock.send({"type": "start", "id": "go"})
            await sock.until("ack", id="go")
            sock.send({"type": "play", "id": "odd", "move": move})
            refused = await sock.until("error", id="odd")
            assert refused["code"] in {"illegal_move", "bad_message"}, refused
            assert sock.close_code is None

    asyncio.run(run())

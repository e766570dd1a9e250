"""The server's structured logs (docs/server.md): one JSON line per table change, the same
line whether it goes through ``logging`` or straight to the configured handler."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from kabes.server.common.logs import JsonLines, LinesOnTheLoop, log_entry
from kabes.table.entries import Entry


@pytest.fixture
def lines() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A ``kabes.test`` logger under a parent set up as ``configure`` sets ``kabes``."""
    stream = io.StringIO()
    handler = LinesOnTheLoop(stream)
    handler.setFormatter(JsonLines())
    parent = logging.getLogger("kabes-logs-test")
    parent.handlers[:] = [handler]
    parent.setLevel(logging.INFO)
    parent.propagate = False
    yield logging.getLogger("kabes-logs-test.table"), stream
    parent.handlers[:] = []


def test_a_table_change_is_the_same_line_straight_or_through_logging(
    lines: tuple[logging.Logger, io.StringIO],
) -> None:
    log, stream = lines
    entry = Entry(7, "move", {"seat": 2, "move": "timeout"}, 12.5, 2, "a1", 1)
    log_entry(log, "ABCD", entry)  # straight to the handler: no filter, one handler
    log.addFilter(lambda record: True)  # a filter: through logging and its formatter
    log_entry(log, "ABCD", entry)
    straight, through = (json.loads(line) for line in stream.getvalue().splitlines())
    assert straight.pop("ts") > 0 and through.pop("ts") > 0
    assert straight == through == {"level": "info", "logger": "kabes-logs-test.table",
                                   "msg": "move", "table": "ABCD", "seq": 7, "event": "move",
                                   "seat": 2, "timeout": True}

"""The hub's requests about a table are types, and cross between processes as the same
frames as before they were (a name and a list of arguments)."""

from __future__ import annotations

import pytest

from kabes.server.table.table_requests import AskRecord, AskSeat, AskSummary, from_wire


def test_each_request_crosses_as_the_frames_it_always_did() -> None:
    assert AskSummary().wire() == ("summary", [])
    assert AskRecord().wire() == ("record", [])
    assert AskSeat(7, "Ana").wire() == ("join", [7, "Ana"])


@pytest.mark.parametrize("request_", [AskSummary(), AskRecord(), AskSeat(7, "Ana")])
def test_a_request_read_back_is_the_one_sent(request_: AskSummary | AskRecord | AskSeat) -> None:
    assert from_wire(*request_.wire()) == request_


@pytest.mark.parametrize(("name", "args"), [("nope", []), ("join", [7]), ("summary", [1])])
def test_an_unknown_request_is_refused(name: str, args: list[object]) -> None:
    with pytest.raises(ValueError, match="no such request"):
        from_wire(name, args)

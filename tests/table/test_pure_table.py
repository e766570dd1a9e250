"""The pure table (kabes.table) runs on the standard library alone, plays whole matches of
every variant with no server, shows no seat another's tiles, and its two encoders agree.

- In a fresh interpreter where the server's dependencies and the server itself cannot be
  imported (tests/table/pure_play.py), a match of every variant and seat count is played to
  its end through the pure table, every change sent to every seat and a watcher; nothing
  outside the standard library and ``kabes`` is imported.
- The same match encoded by the standard library's ``json`` (``kabes.table.encoding.JSON``)
  and by msgspec at the server (``kabes.server.common.protocol.MSGSPEC``) is the same JSON, message
  by message, so the server and a table run elsewhere send the same protocol.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pure_play import SEATINGS, play_match

from kabes.server.common.protocol import MSGSPEC
from kabes.table.encoding import JSON
from kabes.table.refusals import ErrorCode, Refused
from kabes.tiles import full_set

SCRIPT = Path(__file__).with_name("pure_play.py")


def test_the_pure_table_plays_every_variant_with_the_servers_imports_blocked() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["outside"] == [], "imported from outside the standard library"
    games = report["games"]
    assert {(g["variant"], g["players"]) for g in games} == {(v, p) for v, p, _ in SEATINGS}
    for game in games:
        name = f"{game['variant']} with {game['players']}"
        assert game["leaks"] == [], name
        assert game["result"] is not None and game["result"]["finished"], name
        assert game["result"]["winners"], name
        assert game["hands"] >= 1 and game["refused"] >= 1, name


class Leaky:
    """An encoder that writes every tile of the set into every message, as a table that
    leaked would."""

    def __init__(self, top: int) -> None:
        self.tiles = [str(t) for t in full_set(top)]

    def encode(self, message: object) -> bytes:
        out = json.loads(JSON.encode(message))
        out["leak"] = self.tiles
        return json.dumps(out).encode()

    def shared(self, part: object) -> object:
        return part

    hole = None


def test_the_leak_check_finds_a_tile_a_seat_may_not_see() -> None:
    played = play_match("plaza", 2, {}, 3, Leaky(6))
    assert played.leaks, "the check names the tiles of other hands and of the stock"


@pytest.mark.parametrize(("variant", "players", "computers"), [
    ("partnership", 4, {}),
    ("haitian", 3, {"2": "casual"}),
    ("mexican-train", 3, {"1": "beginner"}),
])
def test_json_and_msgspec_write_the_same_messages(
    variant: str, players: int, computers: dict[str, str]
) -> None:
    by_json: list[tuple[int | None, Any]] = []
    by_msgspec: list[tuple[int | None, Any]] = []
    play_match(variant, players, computers, 11, JSON,
               lambda seat, data: by_json.append((seat, json.loads(data))))
    play_match(variant, players, computers, 11, MSGSPEC,
               lambda seat, data: by_msgspec.append((seat, json.loads(data))))
    assert len(by_json) > 100
    assert by_json == by_msgspec


@pytest.mark.parametrize("encoder", [JSON, MSGSPEC], ids=["json", "msgspec"])
def test_an_error_names_a_reason_and_facts_only_when_the_refusal_has_them(
    encoder: Any,
) -> None:
    bare = json.loads(encoder.encode(Refused(ErrorCode.NOT_NOW, "not now").to_error("a1")))
    assert bare == {"type": "error", "id": "a1", "code": "not_now", "message": "not now"}
    assert list(bare) == ["type", "id", "code", "message"]
    worded = Refused(ErrorCode.NOT_YOUR_TURN, "it is seat 1's turn", "not_your_turn",
                     {"seat": 0, "turn": 1})
    told = json.loads(encoder.encode(worded.to_error(None)))
    assert list(told) == ["type", "id", "code", "message", "reason", "facts"]
    assert told["id"] is None and told["facts"] == {"seat": 0, "turn": 1}

"""The local table plays in Pyodide as in CPython, through its messages (issue 26: "Play with
no network"; kabes.local, docs/offline.md).

Node loads the offline pack and plays a whole match at a local table of every variant that
seats computers, at every seat count, every level seated at each variant
(local_matches.every_table), as the table page would: a hello, a start, the person's moves
from the view's ``legal``, hints, reviews, ``next_hand`` or the pause, each page reloaded
once mid-hand (a new worker rebuilds the table from the entries it kept, and shows the same
position). CPython plays the same tables with the same seeds: every message must be the
same, byte for byte (the expert searches a fixed number of worlds, so the same seeds make
the same moves anywhere). That the local table's messages are the server's is
tests/server/test_server_local_table.py's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from local_matches import every_table, play
from node_runs import run_in_pyodide

from kabes.ai import LEVELS
from kabes.local.table import LocalTable
from kabes.records import filled
from kabes.rules import VARIANTS

TABLES = Path(__file__).with_name("local_matches.py")
EXPERT = {"budget": 30.0, "worlds": 2}
"""The expert searching 2 worlds a move, whatever the time: repeatable, and quick."""


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """Node's run of every table: its timings and the matches played."""
    return run_in_pyodide(TABLES, "run", {"games": every_table(), "expert": EXPERT})


def test_every_variant_seat_count_and_level_plays_a_whole_match_at_a_local_table(
        played: dict[str, Any]) -> None:
    games = played["answer"]
    assert {(g["variant"], g["players"]) for g in games} == {
        (variant, players) for variant, rules in VARIANTS.items() if not rules.people_only
        for players in rules.seat_counts}
    for variant in {g["variant"] for g in games}:
        seated = {level for g in games if g["variant"] == variant
                  for level in g["computers"].values()}
        assert seated == set(LEVELS), variant
    for game in games:
        assert game["status"] == "over", game["variant"]
        assert game["record"]["result"]["finished"] and game["record"]["result"]["winners"]
        assert filled(game["record"]) == game["record"], "the engine's own results"
        assert game["reloads"] == 1 and game["moves"] > 3
        assert {"welcome", "update", "ack"} <= set(game["types"])
    assert sum(g["hints"] for g in games) > 0 and sum(g["reviews"] for g in games) > 0


def test_cpython_sends_the_same_messages_as_pyodide(played: dict[str, Any]) -> None:
    for game in played["answer"]:
        asked = {k: game[k] for k in ("variant", "players", "computers", "options", "seed")}
        here = play(asked, EXPERT, reload_at=3)
        assert here["digest"] == game["digest"], (game["variant"], game["players"])
        assert here["entries"] == game["entries"]


def test_the_entries_kept_rebuild_the_finished_match(played: dict[str, Any]) -> None:
    for game in played["answer"][:4]:
        table = LocalTable.rebuilt("L2345678", game["entries"])
        assert table.record() == game["record"]

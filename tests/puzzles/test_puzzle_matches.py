"""The computer's own matches for puzzles: whole, replayable, and the same from the same seed."""

from __future__ import annotations

from kabes.puzzles.matches import computer_records
from kabes.records import replay


def test_the_same_seed_plays_the_same_matches() -> None:
    assert list(computer_records("haitian", 2, 2, 5)) == list(computer_records("haitian", 2, 2, 5))


def test_record_i_of_a_seed_is_record_0_of_that_seed_plus_i() -> None:
    first, second = computer_records("haitian", 2, 2, 5)
    assert second == next(computer_records("haitian", 2, 1, 6))
    assert first != second


def test_every_record_is_a_finished_match_that_replays() -> None:
    for record in computer_records("plaza-partners", 4, 2, 3):
        match = replay(record)
        assert match.over
        assert record["result"]["finished"] is True

"""``kabes replay`` checks what a record claims: a stored result the rules contradict is
reported (hand, field, stored and computed value) and the exit status is 3; ``--json`` still
prints the computed record. Fields a record leaves out (``counts`` in the shared examples)
are not a disagreement.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from deals import with_counts
from kabes.cli.app import app
from kabes.records import Disagreement, disagreements, filled

RECORDS = Path(__file__).parent / "data" / "records"
runner = CliRunner()


def load(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return record


def written(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_wrong_stored_hand_result_is_reported_with_hand_field_and_both_values() -> None:
    record = load("haitian-2.json")
    record["hands"][1]["result"]["points"] = [99, 0]
    assert disagreements(record, filled(record)) == [
        Disagreement(2, "points", [99, 0], [0, 10])
    ]


def test_a_wrong_stored_match_result_is_reported() -> None:
    record = load("plaza-2.json")
    record["result"]["kochon"] = not record["result"]["kochon"]
    found = disagreements(record, filled(record))
    assert found == [Disagreement(None, "kochon", record["result"]["kochon"],
                                  not record["result"]["kochon"])]
    assert str(found[0]).startswith("the match result, kochon: the record says ")


def test_a_result_stored_for_a_hand_that_never_ended_is_reported() -> None:
    record = load("haitian-2.json")
    record["hands"] = record["hands"][:2]
    record["hands"][1]["moves"] = record["hands"][1]["moves"][:3]
    found = disagreements(record, filled(record))
    assert found[0].hand == 2 and found[0].field == "result" and found[0].computed is None


def test_the_shared_records_without_counts_agree_with_the_rules() -> None:
    for path in sorted(RECORDS.glob("*.json")):
        record = load(path.name)
        assert "counts" not in record["hands"][0]["result"]
        assert disagreements(record, filled(record)) == [], path.name


def test_stored_counts_are_checked_like_every_other_field() -> None:
    record = with_counts(load("partnership-4.json"))
    assert disagreements(record, filled(record)) == []
    record["hands"][0]["result"]["counts"] = [0, 0, 0, 0]
    (found,) = disagreements(record, filled(record))
    assert (found.hand, found.field, found.stored) == (1, "counts", [0, 0, 0, 0])


def test_replay_of_a_record_with_a_wrong_result_exits_3_and_says_where(
    tmp_path: Path,
) -> None:
    record = load("haitian-2.json")
    record["hands"][1]["result"]["points"] = [99, 0]
    result = runner.invoke(app, ["replay", str(written(tmp_path, record))])
    assert result.exit_code == 3, result.output
    assert "hand 2, points: the record says [99, 0], the rules give [0, 10]" in result.output


def test_replay_json_of_a_record_with_a_wrong_result_prints_the_computed_record_and_exits_3(
    tmp_path: Path,
) -> None:
    record = load("haitian-2.json")
    wrong = copy.deepcopy(record)
    wrong["hands"][1]["result"]["points"] = [99, 0]
    result = runner.invoke(app, ["replay", str(written(tmp_path, wrong)), "--json"])
    assert result.exit_code == 3
    assert json.loads(result.stdout) == with_counts(record)
    assert "hand 2, points: the record says [99, 0], the rules give [0, 10]" in result.stderr


def test_replay_of_a_record_with_no_stored_results_exits_0(tmp_path: Path) -> None:
    record = load("plaza-2.json")
    del record["result"]
    for hand in record["hands"]:
        del hand["result"]
    result = runner.invoke(app, ["replay", str(written(tmp_path, record)), "--json"])
    assert result.exit_code == 0, result.output

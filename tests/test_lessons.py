"""Lessons (docs/lessons.md): every shipped lesson holds up against the engine, each
variant's path teaches what its rules have, and the checker catches a lesson that claims what
the rules do not give."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.errors import KabesError
from kabes.events import Played
from kabes.lessons.check import problems
from kabes.lessons.library import lessons, next_lesson, path, read_file
from kabes.lessons.model import LANGUAGES, BadLesson, read_lesson
from kabes.lessons.position import position, read_on, step_records, try_choice, try_move
from kabes.rules import VARIANTS
from kabes.views import view

DATA = Path(__file__).parents[1] / "src" / "kabes" / "lessons" / "data"
EXAMPLE = "haitian-1"

TOPICS_OF = {
    "partnership": {"matching", "doubles", "leading", "must-play", "passes", "going-out",
                    "counting", "blocked", "clock", "reading"},
    "plaza": {"matching", "doubles", "leading", "must-play", "drawing", "going-out",
              "counting", "blocked", "capicu", "kochon"},
    "plaza-partners": {"leading", "going-out", "counting", "blocked", "capicu", "kochon"},
    "haitian": {"matching", "doubles", "leading", "must-play", "passes", "drawing",
                "going-out", "counting", "tonbe", "2-kabes", "blok", "wa"},
    "haitian-partners": {"leading", "counting", "tonbe", "2-kabes", "blok", "reading"},
    "mexican-train": {"engine", "own-train", "first-round", "satisfy-double", "marker",
                      "public-train", "drawing", "going-out", "counting", "blocked"},
}
"""What each variant's path must teach: the issue's topics, where the variant's rules have
them (capicú and kochon are plaza's, TONBE and the rest Haitian, Wa needs 3 or 4 players)."""


def example_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{EXAMPLE}.json").read_text(encoding="utf-8"))
    return data


def checked(data: dict[str, Any]) -> list[str]:
    return problems(read_lesson(data, "test.json"))


# The shipped lessons ------------------------------------------------------------------------


@pytest.mark.parametrize("lesson_id", list(lessons()))
def test_every_shipped_lesson_holds_up_against_the_engine(lesson_id: str) -> None:
    assert problems(lessons()[lesson_id]) == []


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_has_a_path_of_at_least_three_lessons(variant: str) -> None:
    taught = path(variant)
    assert len(taught) >= 3, f"{variant} has {len(taught)} lessons"
    assert [lesson.order for lesson in taught] == sorted({lesson.order for lesson in taught})


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variants_path_covers_the_topics_its_rules_have(variant: str) -> None:
    taught = {topic for lesson in path(variant) for topic in lesson.topics}
    assert TOPICS_OF[variant] - taught == set()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_first_three_lessons_of_a_path_each_let_a_learner_try_and_fail_once(
    variant: str,
) -> None:
    for lesson in path(variant)[:3]:
        assert any(_a_wrong_try(lesson.id, index) is not None
                   for index, step in enumerate(lesson.steps) if step.task.kind == "play"), \
            lesson.id


def _a_wrong_try(lesson_id: str, index: int) -> str | None:
    """A move a learner could try at a play step and get refused."""
    lesson = lessons()[lesson_id]
    match = position(lesson, index)
    seen = view(match, lesson.steps[index].seat)
    for tile in seen.hand:
        if not try_move(lesson, index, str(tile), match).correct:
            return str(tile)
    for legal in seen.legal:
        if not try_move(lesson, index, str(legal), match).correct:
            return str(legal)
    return None


def test_every_lesson_id_is_its_file_name_and_every_text_is_in_every_language() -> None:
    files = sorted(p.stem for p in DATA.glob("*.json"))
    assert sorted(lessons()) == files
    for lesson in lessons().values():
        texts = [lesson.title, lesson.summary, *lesson.remember]
        for step in lesson.steps:
            texts += [step.text, *(t for t in (step.task.hint, step.task.done,
                                               step.task.others) if t is not None)]
            texts += [w.text for w in step.task.wrong]
            texts += [c.text for c in step.task.choices] + [c.why for c in step.task.choices]
        for text in texts:
            assert sorted(text) == sorted(LANGUAGES)
            assert all(text[lang].strip() for lang in LANGUAGES)


def test_every_lesson_ends_with_points_to_remember() -> None:
    assert all(lesson.remember for lesson in lessons().values())


# Trying a move --------------------------------------------------------------------------


def test_a_right_move_gets_the_lessons_done_words_and_the_position_after_it() -> None:
    lesson = lessons()[EXAMPLE]
    answer = try_move(lesson, 0, "6-3")
    assert answer.correct and answer.text == lesson.steps[0].task.done
    assert answer.after is not None and answer.after.turn == 1
    played = answer.events[0]
    assert isinstance(played, Played) and (played.seat, str(played.tile)) == (0, "3-6")


def test_a_wrong_try_gets_the_lessons_words_and_the_engines_reason() -> None:
    lesson = lessons()[EXAMPLE]
    answer = try_move(lesson, 0, "2-4")
    assert not answer.correct
    assert answer.text == lesson.steps[0].task.wrong[0].text
    assert answer.reason == "does_not_fit" and answer.facts["ends"] == [6, 6]
    assert answer.after is None


def test_a_legal_move_the_step_does_not_ask_for_is_refused_with_the_lessons_words() -> None:
    lesson = lessons()[EXAMPLE]
    answer = try_move(lesson, 1, "4-2@R")
    assert not answer.correct and answer.reason is None
    assert answer.text == lesson.steps[1].task.wrong[0].text


def test_a_move_leaving_out_the_end_matches_where_the_tile_can_only_go() -> None:
    lesson = lessons()[EXAMPLE]
    assert try_move(lesson, 1, "5-5").correct
    assert try_move(lesson, 1, "5-5@L").correct
    assert not try_move(lesson, 1, "5-5@R").correct


def test_a_choice_gets_the_words_of_the_answer_picked() -> None:
    data = example_data()
    data["steps"][2]["task"] = {
        "kind": "choose",
        "choices": [{"text": _all("a 5"), "right": True, "why": _all("the double shows 5")},
                    {"text": _all("a 4"), "right": False, "why": _all("that is the other end")}],
        "hint": _all("look at the double"),
    }
    lesson = read_lesson(data, "test.json")
    assert problems(lesson) == []
    right = try_choice(lesson, 2, 0)
    assert right.correct and right.after is not None
    wrong = try_choice(lesson, 2, 1)
    assert not wrong.correct and wrong.text == _all("that is the other end")
    with pytest.raises(ValueError):
        try_choice(lesson, 2, 2)


def test_going_on_from_a_read_step_shows_the_table_moves_after_it() -> None:
    data = example_data()
    data["steps"][2]["task"]["then"] = ["5-3@L"]
    lesson = read_lesson(data, "test.json")
    assert problems(lesson) == []
    answer = read_on(lesson, 2)
    assert answer.correct and answer.after is not None
    assert [str(e.tile) for e in answer.events if isinstance(e, Played)] == ["3-5"]
    assert answer.after.turn == 0


def test_a_step_without_a_hand_goes_on_from_the_step_before_after_its_move() -> None:
    lesson = lessons()[EXAMPLE]
    records = step_records(lesson)
    assert records[2]["hands"][-1]["moves"] == (
        records[1]["hands"][-1]["moves"] + lesson.steps[1].task.accept[:1]
        + lesson.steps[1].task.then
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_try_never_changes_the_position(data: st.DataObject) -> None:
    lesson_id = data.draw(st.sampled_from(sorted(lessons())))
    lesson = lessons()[lesson_id]
    plays = [i for i, step in enumerate(lesson.steps) if step.task.kind == "play"]
    if not plays:
        return
    index = data.draw(st.sampled_from(plays))
    match = position(lesson, index)
    before = copy.deepcopy(match)
    top = match.rules.top
    a, b = data.draw(st.integers(0, top)), data.draw(st.integers(0, top))
    place = data.draw(st.sampled_from(["", "@L", "@R", "@0", "@1", "@M", "@9"]))
    try_move(lesson, index, f"{a}-{b}{place}", match)
    assert view(match, 0) == view(before, 0)
    assert match.log[-1].moves == before.log[-1].moves


# The checker ------------------------------------------------------------------------------


def test_a_claimed_outcome_the_engine_does_not_give_is_caught() -> None:
    data = example_data()
    data["steps"][1]["task"]["expect"] = {"hand": {"name": "tonbe"}}
    assert any("the hand is not over" in p for p in checked(data))
    data["steps"][1]["task"]["expect"] = {"match": {"scores": [10, 0]}}
    assert any("scores is [0, 0], the lesson says [10, 0]" in p for p in checked(data))


def test_an_accepted_move_the_rules_refuse_is_caught() -> None:
    data = example_data()
    data["steps"][0]["task"]["accept"] = ["5-5"]
    assert any("accepted move '5-5' is refused" in p for p in checked(data))


def test_a_legal_move_the_lesson_has_no_words_for_is_caught() -> None:
    data = example_data()
    del data["steps"][1]["task"]["wrong"][0]
    assert any("legal move 4-2@R has no words" in p for p in checked(data))


def test_a_wrong_move_refused_for_another_reason_than_the_lesson_says_is_caught() -> None:
    data = example_data()
    data["steps"][0]["task"]["wrong"][0]["reason"] = "not_held"
    assert any("refused for does_not_fit" in p for p in checked(data))


def test_a_position_the_rules_do_not_reach_is_caught_naming_the_step() -> None:
    data = example_data()
    data["steps"][1]["hand"]["moves"] = ["6-6", "4-2@L"]
    assert any(p.startswith("test, step 2") or "step 2" in p for p in checked(data))


def test_a_play_step_where_the_learner_is_not_to_move_is_caught() -> None:
    data = example_data()
    data["steps"][0]["seat"] = 1
    assert any("is not to play here" in p for p in checked(data))


# Reading files ------------------------------------------------------------------------------


def _all(text: str) -> dict[str, str]:
    return {lang: text for lang in LANGUAGES}


def test_a_text_missing_a_language_is_refused_naming_it() -> None:
    data = example_data()
    del data["steps"][0]["text"]["no"]
    with pytest.raises(BadLesson, match="step 1, text: no text in no"):
        read_lesson(data, "test.json")


def test_an_unknown_field_or_topic_is_refused_naming_it() -> None:
    data = example_data()
    data["steps"][0]["task"]["acept"] = ["6-3"]
    with pytest.raises(BadLesson, match="unknown field 'acept'"):
        read_lesson(data, "test.json")
    data = example_data()
    data["topics"] = ["matching", "juggling"]
    with pytest.raises(BadLesson, match="unknown topics 'juggling'"):
        read_lesson(data, "test.json")


def test_a_task_the_learner_can_get_wrong_needs_a_hint() -> None:
    data = example_data()
    del data["steps"][0]["task"]["hint"]
    with pytest.raises(BadLesson, match="needs a 'hint'"):
        read_lesson(data, "test.json")


def test_a_lesson_file_whose_id_is_not_its_name_or_is_not_json_is_refused(
    tmp_path: Path,
) -> None:
    wrong_name = tmp_path / "haitian-9.json"
    wrong_name.write_text(json.dumps(example_data()), encoding="utf-8")
    with pytest.raises(BadLesson, match="its id is 'haitian-1', not its file name"):
        read_file(wrong_name)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(BadLesson, match=r"broken\.json is not JSON"):
        read_file(broken)


def test_the_next_lesson_offered_is_the_first_of_the_path_not_finished() -> None:
    taught = path("haitian")
    assert next_lesson("haitian", []) is taught[0]
    assert next_lesson("haitian", [taught[0].id]) is (taught[1] if len(taught) > 1 else None)
    assert next_lesson("haitian", [lesson.id for lesson in taught]) is None


def test_a_bad_lesson_is_a_kabes_error_with_a_stable_code() -> None:
    assert issubclass(BadLesson, KabesError) and BadLesson.code == "bad_lesson"


def test_a_try_leaving_out_the_end_gets_the_words_listed_for_that_place() -> None:
    data = example_data()
    data["steps"][1]["task"]["wrong"][0]["moves"] = ["4-2@R"]
    lesson = read_lesson(data, "test.json")
    assert problems(lesson) == []
    assert try_move(lesson, 1, "4-2").text == lesson.steps[1].task.wrong[0].text
    assert try_move(lesson, 1, "2-4@R").text == lesson.steps[1].task.wrong[0].text


def test_a_read_step_with_words_for_after_but_no_table_moves_is_caught() -> None:
    data = example_data()
    data["steps"][2]["task"]["done"] = _all("and so on")
    assert any("a read step's 'done'" in p for p in checked(data))

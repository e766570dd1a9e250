"""``kabes learn``: the lessons taken in the terminal, progress kept per player, lesson checks.

The end-to-end runs type what a learner would, computed from each lesson's own data: at every
``play`` step one wrong try (a move the lesson has words for, else one the rules refuse) and
then an accepted move, at every ``choose`` step a wrong answer and then the right one.
"""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import kabes
from kabes.cli.app import app
from kabes.cli.learn import BadProgress, TerminalLesson, data_dir, load_progress
from kabes.cli.play import Quit, read_input
from kabes.cli.refusals import ASKS, refusal_of, word_refusal
from kabes.cli.words import Names
from kabes.errors import KabesError
from kabes.lessons.check import problems
from kabes.lessons.library import lessons, next_lesson, path
from kabes.lessons.model import Lesson, read_lesson
from kabes.lessons.position import position, try_move
from kabes.moves import Play
from kabes.rules import VARIANTS
from kabes.tiles import full_set
from kabes.views import view

runner = CliRunner()
SRC = Path(kabes.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its progress in a folder of its own, never the user's."""
    home = tmp_path / "home"
    monkeypatch.setenv("KABES_HOME", str(home))
    return home


def flat(text: str) -> str:
    """Text with every run of spaces and line breaks as one space (the terminal wraps)."""
    return " ".join(text.split())


def assert_in_order(shown: str, expected: Sequence[str]) -> None:
    """Each of ``expected`` is shown, in that order."""
    seen = flat(shown)
    at = 0
    for text in expected:
        found = seen.find(flat(text), at)
        assert found >= 0, f"not shown (after position {at}): {text!r}"
        at = found + len(flat(text))


def refused_words(lesson: Lesson, index: int, typed: str) -> str:
    """How the game words the engine's refusal of ``typed`` at this step: the move given to
    the rules directly, not through the lesson."""
    step = lesson.steps[index]
    match = position(lesson, index)
    move = read_input(typed, view(match, step.seat))
    assert isinstance(move, Play)
    try:
        match.apply(step.seat, move)
    except KabesError as err:
        names = Names(lesson.players, match.rules.teams, step.seat)
        return word_refusal(refusal_of(err, move.first), names)
    raise AssertionError(f"{typed} is not refused by the rules")


def wrong_try(lesson: Lesson, index: int) -> tuple[str, list[str]]:
    """A wrong move to type at a ``play`` step, and what the terminal must answer: the
    lesson's words for it, the engine's refusal where the rules refuse it."""
    step = lesson.steps[index]
    match = position(lesson, index)
    assert match.hand is not None
    held = set(view(match, step.seat).hand)
    listed = [text for wrong in step.task.wrong for text in wrong.moves]
    legal = [str(m) for m in match.hand.legal_moves()]
    absent = [str(t) for t in full_set(match.rules.top) if t not in held]
    for text in [*listed, *legal, *absent]:
        attempt = try_move(lesson, index, text, match)
        if attempt.correct or attempt.reason in ASKS:
            continue
        said = [attempt.text["en"]] if attempt.text is not None else []
        if attempt.reason is not None:
            said.insert(0, refused_words(lesson, index, text))
        return text, said
    raise AssertionError(f"{lesson.id}, step {index + 1}: no wrong move to try")


def right_move(lesson: Lesson, index: int) -> str:
    """A legal move the step accepts, written with its place (so nobody asks where)."""
    match = position(lesson, index)
    assert match.hand is not None
    return next(str(m) for m in match.hand.legal_moves()
                if try_move(lesson, index, str(m), match).correct)


def learner(lesson: Lesson) -> tuple[list[str], list[str]]:
    """What a learner types to finish ``lesson`` with one wrong try at each task (where a
    ``choose`` step has a wrong answer), and what the terminal must show them, in order."""
    typed: list[str] = []
    shown = [lesson.title["en"]]
    last = len(lesson.steps) - 1
    for index, step in enumerate(lesson.steps):
        task = step.task
        shown.append(step.text["en"])
        if task.kind == "play":
            wrong, answer = wrong_try(lesson, index)
            typed += [wrong, right_move(lesson, index)]
            shown += answer
        elif task.kind == "choose":
            right = next(k for k, c in enumerate(task.choices) if c.right)
            misses = [k for k, c in enumerate(task.choices) if not c.right][:1]
            typed += [*(str(k + 1) for k in misses), str(right + 1)]
            shown += [task.choices[k].why["en"] for k in [*misses, right]]
        if task.done is not None:
            shown.append(task.done["en"])
        if task.kind == "read" or index < last:
            typed.append("")  # Enter, to go on
    shown += ["Remember", *(point["en"] for point in lesson.remember), "Lesson finished"]
    return typed, shown


def first_lesson(variant: str) -> Lesson:
    """The first lesson of ``variant``'s path; the test fails when there is none."""
    taught = path(variant)
    if not taught:
        pytest.fail(f"{variant} has no lesson yet: `kabes learn {variant}` has nothing to "
                    "teach (lessons are files under src/kabes/lessons/data/)")
    return taught[0]


def learn(args: list[str], typed: Sequence[str] = ()) -> tuple[int, str]:
    result = runner.invoke(app, ["learn", *args], input="".join(f"{t}\n" for t in typed))
    return result.exit_code, result.output


def learn_in_a_new_process(home: Path, args: list[str], typed: Sequence[str] = ()) -> str:
    env = {**os.environ, "KABES_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", "from kabes.cli.app import main; main()", "learn", *args],
        input="".join(f"{t}\n" for t in typed), capture_output=True, text=True, env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def finished(home: Path, player: str) -> tuple[str, ...]:
    return load_progress(home / "lessons.json").of(player)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variants_first_lesson_is_taken_to_the_end_in_the_terminal(
    variant: str, own_home: Path
) -> None:
    lesson = first_lesson(variant)
    typed, shown = learner(lesson)
    status, output = learn([variant, "--player", "ana"], typed)
    assert status == 0, output
    assert_in_order(output, shown)
    assert finished(own_home, "ana") == (lesson.id,)
    upcoming = next_lesson(variant, [lesson.id])
    if upcoming is None:
        assert "You have finished every lesson of" in output
    else:
        assert f"Next lesson: {upcoming.title['en']} ({upcoming.id})" in flat(output)


def test_finished_lessons_are_kept_for_the_player_in_a_new_process(own_home: Path) -> None:
    lesson = first_lesson("haitian")
    typed, _shown = learner(lesson)
    learn_in_a_new_process(own_home, ["haitian", "--player", "ana"], typed)
    listing = learn_in_a_new_process(own_home, ["--player", "ana"])
    line = next(li for li in listing.splitlines() if f"({lesson.id})" in li)
    assert line.strip().startswith("✓"), listing
    others = learn_in_a_new_process(own_home, ["--player", "ben"])
    line = next(li for li in others.splitlines() if f"({lesson.id})" in li)
    assert line.strip().startswith("→"), others
    assert "next: kabes learn haitian" in others


def test_the_paths_offer_each_variants_first_lesson_before_any_is_finished() -> None:
    status, output = learn(["--lang", "fr"])
    assert status == 0, output
    for variant in VARIANTS:
        taught = path(variant)
        if taught:
            flat = " ".join(output.split())  # a long title wraps in a narrow terminal
            assert f"→ 1. ({taught[0].id}) {taught[0].title['fr']}" in flat
            assert f"next: kabes learn {variant}" in output


def test_stopping_mid_lesson_marks_nothing(own_home: Path) -> None:
    lesson = first_lesson("haitian")
    typed, _shown = learner(lesson)
    for stop in (["q"], []):  # q, or the input ends
        status, output = learn(["haitian"], typed[:1] + stop)
        assert status == 0, output
        assert "Lesson stopped; it is not marked as finished" in output
        assert not (own_home / "lessons.json").exists()


@pytest.mark.parametrize("content", ['{"players": {"ana": {"finished": "haitian-1"}}}',
                                     "{not json", '["haitian-1"]'])
def test_a_corrupt_progress_file_is_reported_and_left_as_it_is(
    own_home: Path, content: str
) -> None:
    own_home.mkdir()
    file = own_home / "lessons.json"
    file.write_text(content)
    lesson = first_lesson("haitian")
    typed, _shown = learner(lesson)
    for args in ([], ["haitian"]):
        status, output = learn(args, typed)
        assert status == 2
        assert f"{file} is not a lessons progress file" in flat(output)
        assert "left as it is" in flat(output)
        assert lesson.steps[0].text["en"] not in flat(output)  # no lesson started
        assert file.read_text() == content
    with pytest.raises(BadProgress):
        load_progress(file)


def test_the_progress_file_lives_in_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KABES_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data" / "kabes"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert data_dir() == Path.home() / ".local" / "share" / "kabes"
    monkeypatch.setenv("KABES_HOME", str(tmp_path / "elsewhere"))
    assert data_dir() == tmp_path / "elsewhere"


def test_lang_ht_shows_the_lesson_in_kreyol_and_the_terminals_words_in_english() -> None:
    lesson = first_lesson("haitian")
    typed, _shown = learner(lesson)
    status, output = learn(["haitian", "--lang", "ht"], typed)
    assert status == 0, output
    assert_in_order(output, [lesson.title["ht"], lesson.steps[0].text["ht"],
                             *(point["ht"] for point in lesson.remember)])
    assert lesson.steps[0].text["en"] not in flat(output)
    assert "Your move" in output


def test_an_unknown_language_or_lesson_is_refused_naming_what_there_is() -> None:
    status, output = learn(["haitian", "--lang", "de"])
    assert status == 2
    assert "no language 'de'; the languages are ht, en, fr, es, pt, no" in flat(output)
    status, output = learn(["haitian", "--lesson", "haitian-99"])
    assert status == 2
    assert "no lesson 'haitian-99' of haitian" in flat(output)
    for lesson in path("haitian"):
        assert lesson.id in output


def test_a_chosen_lesson_is_taken_even_when_finished(own_home: Path) -> None:
    lesson = first_lesson("haitian")
    typed, shown = learner(lesson)
    learn(["haitian"], typed)
    status, output = learn(["--lesson", lesson.id], typed)
    assert status == 0, output
    assert_in_order(output, shown)


def test_the_hint_comes_after_the_second_wrong_try() -> None:
    lesson = first_lesson("haitian")
    index = next(i for i, s in enumerate(lesson.steps) if s.task.kind == "play")
    task = lesson.steps[index].task
    assert task.hint is not None
    hint = task.hint["en"]
    wrong, _said = wrong_try(lesson, index)
    before = [""] * sum(1 for s in lesson.steps[:index] if s.task.kind == "read")
    _status, once = learn(["--lesson", lesson.id], [*before, wrong])
    assert hint not in flat(once)
    _status, twice = learn(["--lesson", lesson.id], [*before, wrong, wrong])
    assert flat(twice).count(hint) == 1
    _status, asked = learn(["--lesson", lesson.id], [*before, "hint"])
    assert hint in flat(asked)


# A lesson of the test's own: the learner holds 5-4 with the ends showing 5 and 4.
BOTH_ENDS: dict[str, Any] = {
    "id": "both-ends", "variant": "haitian", "order": 1, "players": 2, "topics": ["matching"],
    "title": {lang: "Both ends" for lang in ("ht", "en", "fr", "es", "pt", "no")},
    "summary": {lang: "A tile that fits both ends." for lang in ("ht", "en", "fr", "es", "pt",
                                                                 "no")},
    "steps": [{
        "text": {lang: "5-4 fits both ends." for lang in ("ht", "en", "fr", "es", "pt", "no")},
        "hand": {"deal": [["6-5", "5-4", "3-3", "2-1", "1-0", "0-0", "3-1"],
                          ["6-6", "6-4", "4-4", "2-2", "2-0", "3-2", "5-0"]],
                 "moves": ["6-6", "6-5@L", "6-4@R"]},
        "task": {
            "kind": "play", "accept": ["5-4@L"],
            "wrong": [{"moves": ["5-4@R"], "text": {lang: "Not on the 4: keep the 5 closed."
                                                    for lang in ("ht", "en", "fr", "es", "pt",
                                                                 "no")}}],
            "hint": {lang: "Play it on the 5." for lang in ("ht", "en", "fr", "es", "pt", "no")},
            "done": {lang: "Now both ends show 4." for lang in ("ht", "en", "fr", "es", "pt",
                                                                "no")},
        },
    }],
    "remember": [{lang: "A tile may fit both ends." for lang in ("ht", "en", "fr", "es", "pt",
                                                                 "no")}],
}


def test_a_tile_that_fits_both_ends_is_asked_where_as_in_a_game() -> None:
    lesson = read_lesson(copy.deepcopy(BOTH_ENDS), "both-ends.json")
    assert problems(lesson) == []
    answers = iter(["5-4", "x", "5-4", "R", "5-4", "L"])
    out = io.StringIO()
    TerminalLesson(lesson, "en", Console(file=out, width=100), lambda _p: next(answers)).run()
    shown = out.getvalue()
    assert_in_order(shown, ["Not played: answer L or R", "Not on the 4: keep the 5 closed.",
                            "Now both ends show 4.", "on the left end."])


def test_the_end_of_the_input_stops_a_lesson() -> None:
    lesson = read_lesson(copy.deepcopy(BOTH_ENDS), "both-ends.json")

    def ask(_prompt: str) -> str:
        raise EOFError

    with pytest.raises(Quit):
        TerminalLesson(lesson, "en", Console(file=io.StringIO()), ask).run()


def test_check_names_a_lessons_problem_and_exits_1(tmp_path: Path) -> None:
    good = tmp_path / "both-ends.json"
    good.write_text(json.dumps(BOTH_ENDS))
    status, output = learn(["--check", str(good)])
    assert status == 0, output
    broken_data = copy.deepcopy(BOTH_ENDS)
    broken_data["steps"][0]["task"]["accept"] = ["3-3"]
    broken = tmp_path / "broken" / "both-ends.json"
    broken.parent.mkdir()
    broken.write_text(json.dumps(broken_data))
    status, output = learn(["--check", str(good), str(broken)])
    assert status == 1
    assert "both-ends, step 1: accepted move '3-3' is refused" in output
    assert "both-ends, step 1: legal move" in output and "has no words" in output
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text(json.dumps({k: v for k, v in BOTH_ENDS.items() if k != "title"}))
    status, output = learn(["--check", str(shapeless)])
    assert status == 1
    assert "shapeless.json, the lesson: has no 'title'" in output


def test_check_says_exactly_what_python_m_kabes_lessons_says(tmp_path: Path) -> None:
    broken_data = copy.deepcopy(BOTH_ENDS)
    broken_data["steps"][0]["task"]["accept"] = ["3-3"]
    broken = tmp_path / "both-ends.json"
    broken.write_text(json.dumps(broken_data))
    files = [str(broken), *(str(Path(kabes.__file__).parent / "lessons" / "data" / f"{i}.json")
                            for i in lessons())]
    status, output = learn(["--check", *files])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH",
                                                                                  "")])}
    module = subprocess.run([sys.executable, "-m", "kabes.lessons", *files],
                            capture_output=True, text=True, env=env, timeout=120)
    assert (status, output) == (module.returncode, module.stdout)
    assert status == 1


def test_check_needs_files() -> None:
    status, output = learn(["--check"])
    assert status == 2
    assert "--check takes the lesson files to check" in output


RECORDS = Path(__file__).parent / "data" / "records"


def texts(words: str) -> dict[str, str]:
    return {lang: words for lang in ("ht", "en", "fr", "es", "pt", "no")}


def recorded_step(name: str, at: int | None) -> Lesson:
    """A one-step lesson on the first hand of a recorded game: play the move the record
    made at ``at`` (None: its last move), the record's next two moves then played by the
    table."""
    record = json.loads((RECORDS / name).read_text())
    hand = record["hands"][0]
    moves = hand["moves"]
    at = len(moves) - 1 if at is None else at
    data: dict[str, Any] = {
        "id": "recorded", "variant": record["variant"], "order": 1,
        "players": record["players"], "options": record.get("options", {}), "topics": [],
        "title": texts("A recorded move"), "summary": texts("As it was played."),
        "steps": [{
            "text": texts("Play what was played."),
            "hand": {"deal": hand["deal"], "stock": hand["stock"], "moves": moves[:at]},
            "task": {"kind": "play", "accept": [moves[at]], "then": moves[at + 1:at + 3],
                     "others": texts("Not what was played."), "hint": texts("Look again."),
                     "done": texts("As it was played.")},
        }],
        "remember": [texts("Records make lessons.")],
    }
    lesson = read_lesson(data, "recorded.json")
    seat = position(lesson, 0).turn
    assert seat is not None
    data["steps"][0]["seat"] = seat
    return read_lesson(data, "recorded.json")


@pytest.mark.parametrize(("record", "at", "shows"), [
    ("haitian-2.json", None, "Hands face up"),  # the move that ends the hand
    ("mexican-train-3-two-rounds.json", 17, "You play 6-10 on your train."),
])
def test_a_step_on_a_recorded_hand_is_taken_to_its_end(record: str, at: int | None,
                                                       shows: str) -> None:
    lesson = recorded_step(record, at)
    assert problems(lesson) == []
    typed, shown = learner(lesson)
    answers = iter(typed)
    out = io.StringIO()
    TerminalLesson(lesson, "en", Console(file=out, width=100), lambda _p: next(answers)).run()
    end = shown.index("Remember")
    assert_in_order(out.getvalue(), [*shown[:end], shows, *shown[end:-1]])  # not the CLI: no
    assert next(answers, None) is None  # "Lesson finished"; and every answer was asked for


def test_a_choose_step_takes_a_numbered_answer_after_the_tables_moves() -> None:
    data = copy.deepcopy(BOTH_ENDS)
    data["steps"][0]["task"]["then"] = ["4-4@R"]
    data["steps"].append({"text": texts("What do the ends show now?"), "task": {
        "kind": "choose", "hint": texts("Look at the line."),
        "choices": [{"text": texts("5 and 4"), "right": False, "why": texts("The 5 is covered.")},
                    {"text": texts("4 and 4"), "right": True, "why": texts("4 at both ends.")}],
    }})
    lesson = read_lesson(data, "both-ends.json")
    assert problems(lesson) == []
    typed, shown = learner(lesson)
    choose_at = len(typed) - 2  # the wrong answer, then the right one
    answers = iter([*typed[:choose_at], "3", "four", *typed[choose_at:]])
    out = io.StringIO()
    TerminalLesson(lesson, "en", Console(file=out, width=100), lambda _p: next(answers)).run()
    assert_in_order(out.getvalue(), [
        *shown[:shown.index("What do the ends show now?")], "Seat 1 plays 4-4 on the right end.",
        "What do the ends show now?", "1) 5 and 4", "2) 4 and 4",
        "Type the number of an answer, 1 to 2.", "Type the number of an answer, 1 to 2.",
        *shown[shown.index("What do the ends show now?") + 1:-1],
    ])
    assert next(answers, None) is None

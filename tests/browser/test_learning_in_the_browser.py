"""Lessons in the web client, taken the way people take them: a new person on a small phone
(360 x 740) finishes the first three lessons of `haitian` in Kreyòl and of `mexican-train` in
English by tapping tiles and lit ends, with a wrong try in each lesson (answered with the rules'
refusal and the lesson's own words, then another go), the hint after a second wrong try, the
"remember" points at the end; the finished lessons stay marked after a reload and on a second
phone of the same guest. Every step is driven by the lesson's own data (kabes.lessons): the
move it accepts, and a wrong try the engine finds (a tile that fits nowhere, else a legal move
the step does not accept); the page is only ever tapped, never its API called."""

from __future__ import annotations

import json
from typing import Any

from browsing import ROOT, shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for
from play import as_tap, tap, wrong_try

from kabes.lessons.library import path
from kabes.lessons.model import Lesson
from kabes.lessons.position import position, try_move

SMALL_PHONE = {"width": 360, "height": 740}
I18N = ROOT / "src" / "kabes" / "words" / "catalogs"
FIRST = 3
"""How many lessons of each path the person takes."""


def words(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def wait_text(page: Any, selector: str, text: str) -> None:
    """Wait until the element `selector` says exactly `text`."""
    wait_for(
        page, "([s, t]) => document.querySelector(s)?.textContent === t", arg=[selector, text]
    )


def check_screen(page: Any, name: str) -> None:
    page.wait_for_timeout(150)
    shot(page, name)
    problems = layout_problems(page)
    assert not problems, f"{name}: " + "; ".join(problems)
    assert not shown_keys(page), f"{name} shows translation keys: {shown_keys(page)}"
    bad = axe_violations(page)
    assert not bad, f"{name}: " + "; ".join(bad)


def take_lesson(page: Any, lesson: Lesson, lang: str, first: bool) -> None:
    """Every step of `lesson`, from its first step to its remember points; one wrong try at its
    first step with a task (two at the very first lesson: then the hint shows)."""
    say = words(lang)
    wrong_done = False
    for index, step in enumerate(lesson.steps):
        wait_text(page, "#step-text", step.text[lang])
        task = step.task
        if task.kind == "play":
            match = position(lesson, index)
            wrong = None if wrong_done else wrong_try(lesson, index, match)
            if wrong is not None:
                expected = try_move(lesson, index, wrong.move, match)
                for attempt in range(2 if first else 1):
                    tap(page, wrong)
                    page.wait_for_selector(".feedback.wrong")
                    if attempt == 1:
                        page.wait_for_selector(".feedback .hint-box")
                        hint = page.locator(".feedback .hint-box").inner_text()
                        assert task.hint is not None and task.hint[lang] in hint
                feedback = page.locator(".feedback.wrong")
                assert say["lesson.try_again"] in feedback.inner_text()
                if expected.text is not None:
                    assert feedback.locator(".lesson-words").inner_text() == expected.text[lang]
                if expected.reason is not None:
                    refusal = feedback.locator(".refusal").inner_text()
                    assert refusal and "{" not in refusal, refusal
                if first:
                    check_screen(page, f"lesson-wrong-{lang}")
                wrong_done = True
            tap(page, as_tap(match, task.accept[0]))
            page.wait_for_selector(".feedback.right")
            if task.done is not None:
                words_shown = page.locator(".feedback.right .lesson-words").inner_text()
                assert task.done[lang] in words_shown
        elif task.kind == "choose":
            right = next(k for k, c in enumerate(task.choices) if c.right)
            wrong_k = next((k for k, c in enumerate(task.choices) if not c.right), None)
            if wrong_k is not None and not wrong_done:
                page.click(f'[data-choice="{wrong_k}"]')
                page.wait_for_selector(".feedback.wrong")
                shown = page.locator(".feedback.wrong .lesson-words").inner_text()
                assert shown == task.choices[wrong_k].why[lang]
                wrong_done = True
            page.click(f'[data-choice="{right}"]')
            page.wait_for_selector(".feedback.right")
            assert task.choices[right].why[lang] in page.locator(".feedback.right").inner_text()
        elif task.then:
            page.click("[data-action=play-on]")
            page.wait_for_selector(".feedback.note, .results")
            if task.done is not None:
                assert task.done[lang] in page.locator(".feedback.note").inner_text()
        page.click("[data-action=next-step]")
    page.wait_for_selector(".remember")
    assert page.locator(".remember h2").inner_text() == say["lesson.remember"]
    points = page.locator(".remember li").all_inner_texts()
    assert points == [text[lang] for text in lesson.remember]
    assert wrong_done, f"{lesson.id}: no step where a wrong try could be made"


def marks(page: Any) -> dict[str, str | None]:
    return {
        item.get_attribute("data-lesson"): item.get_attribute("data-done")
        for item in page.locator(".lesson-item").all()
    }


def take_path(page: Any, server: str, variant: str, lang: str) -> list[Lesson]:
    """The first three lessons of `variant`: the first offered on the path, the second by the
    end screen's Next lesson, the third offered on the path again."""
    taught = path(variant)[:FIRST]
    assert len(taught) == FIRST, f"{variant} has {len(taught)} lessons, the test takes {FIRST}"
    page.goto(f"{server}/learn")
    page.wait_for_selector("#learn-variant")
    page.select_option("#learn-variant", variant)
    for n, lesson in enumerate(taught):
        if n != 1:
            offered = page.locator("[data-action=start-lesson]")
            assert offered.get_attribute("data-lesson") == lesson.id
            if n == 0:
                check_screen(page, f"learn-{variant}-{lang}")
            offered.click()
        page.wait_for_url(f"**/learn/{lesson.id}")
        take_lesson(page, lesson, lang, first=n == 0)
        if n == 0:
            check_screen(page, f"lesson-end-{lang}")
            page.click("[data-action=next-lesson]")
        else:
            page.click("[data-action=back-to-path]")
            page.wait_for_selector(".lesson-item")
            done = {lesson.id for lesson in taught[: n + 1]}
            assert {k for k, v in marks(page).items() if v == "true"} == done
    return taught


def test_a_new_person_on_a_phone_finishes_three_lessons_of_two_games_by_tapping(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(viewport=SMALL_PHONE, locale="ht-HT")
    page.goto(server + "/")
    page.fill("#name", "Wideline")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=learn]")
    assert page.evaluate("document.documentElement.lang") == "ht"
    page.click("[data-action=learn]")
    page.wait_for_url("**/learn")
    haitian = take_path(page, server, "haitian", "ht")

    # The language switch, on the path: every word comes again in English.
    page.select_option(".lang-field select", "en")
    wait_for(page, "document.documentElement.lang === 'en'")
    page.wait_for_selector(f"text={words('en')['learn.title']}")
    mexican = take_path(page, server, "mexican-train", "en")

    # Progress survives a reload, and a second phone of the same guest shows it too.
    page.reload()
    page.wait_for_selector("#learn-variant")
    for variant, taken in (("haitian", haitian), ("mexican-train", mexican)):
        page.select_option("#learn-variant", variant)
        page.wait_for_selector(f'.lesson-item[data-lesson="{taken[0].id}"]')
        shown = marks(page)
        assert all(shown[lesson.id] == "true" for lesson in taken), shown
        assert [k for k, v in shown.items() if v == "true"] == [lesson.id for lesson in taken]
    identity = page.evaluate("localStorage.getItem('kabes.identity')")
    other = new_page(viewport=SMALL_PHONE, locale="en-US")
    other.add_init_script(f"localStorage.setItem('kabes.identity', {json.dumps(identity)});")
    other.goto(server + "/learn")
    other.wait_for_selector("#learn-variant")
    other.select_option("#learn-variant", "haitian")
    other.wait_for_selector(f'.lesson-item[data-lesson="{haitian[0].id}"]')
    assert {k for k, v in marks(other).items() if v == "true"} == {x.id for x in haitian}
    assert not js_errors


def test_a_lesson_step_survives_a_reload_and_speaks_the_new_language(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    lesson = path("haitian")[0]
    page = new_page(viewport=SMALL_PHONE, locale="en-US")
    page.goto(server + "/")
    page.fill("#name", "Jean")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=learn]")
    page.goto(f"{server}/learn/{lesson.id}")
    page.wait_for_selector("#step-text")
    match = position(lesson, 0)
    wrong = wrong_try(lesson, 0, match)
    assert wrong is not None
    tap(page, wrong)
    page.wait_for_selector(".feedback.wrong")
    expected = try_move(lesson, 0, wrong.move, match)
    # A new language: the step's text and the answer to the last try come again in it.
    page.select_option(".lang-field select", "fr")
    wait_text(page, "#step-text", lesson.steps[0].text["fr"])
    if expected.text is not None:
        wait_text(page, ".feedback .lesson-words", expected.text["fr"])
    tap(page, as_tap(match, lesson.steps[0].task.accept[0]))
    page.wait_for_selector(".feedback.right")
    page.click("[data-action=next-step]")
    wait_text(page, "#step-text", lesson.steps[1].text["fr"])
    page.reload()
    wait_text(page, "#step-text", lesson.steps[1].text["fr"])
    assert not js_errors


def test_an_unknown_lesson_says_so_in_the_players_language(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(viewport=SMALL_PHONE, locale="pt-BR")
    page.goto(server + "/")
    page.fill("#name", "Ana")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=learn]")
    page.goto(f"{server}/learn/no-such-lesson")
    page.wait_for_selector(".problem")
    assert words("pt")["lesson.not_found"] in page.locator(".problem").inner_text()
    page.click("[data-action=back-to-path]")
    page.wait_for_url("**/learn")
    assert [e for e in js_errors if "404" not in e] == []


def drag(page: Any, tile: str, target: str) -> None:
    """Drag the hand's `tile` onto the element `target` (lit once the drag starts).

    The hand is drawn again after every answer, so the tile found may be replaced before it is
    measured (`bounding_box` is then None): measure again until the drawing has settled.
    """
    box = None
    for _ in range(50):
        box = page.locator(f'[data-tile="{tile}"]').bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None, f"the tile {tile} is not shown in the hand"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 30, steps=4)
    where = page.locator(target).first.bounding_box()
    page.mouse.move(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2, steps=6)
    page.mouse.up()


def test_a_lesson_takes_drags_and_the_keyboard_as_a_game_does(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    lesson = path("haitian")[0]
    first, second = (position(lesson, i) for i in (0, 1))
    wrong = wrong_try(lesson, 0, first)
    right = as_tap(first, lesson.steps[0].task.accept[0])
    assert wrong is not None and right.place is not None, "the first step: a tile for two ends"
    page = new_page(viewport=SMALL_PHONE, locale="en-US")
    page.goto(server + "/")
    page.fill("#name", "Sam")
    page.click("[data-action=save-name]")
    page.wait_for_selector("[data-action=learn]")
    page.goto(f"{server}/learn/{lesson.id}")
    page.wait_for_selector("[data-tile]")
    # A tile that fits nowhere, dropped on the table: the rules say why, and it goes back.
    drag(page, wrong.tile, ".board")
    page.wait_for_selector(".feedback.wrong")
    assert page.locator(f'[data-tile="{wrong.tile}"]').count() == 1
    drag(page, right.tile, f'[data-place="{right.place}"]')
    page.wait_for_selector(".feedback.right")
    page.click("[data-action=next-step]")
    wait_text(page, "#step-text", lesson.steps[1].text["en"])
    # The next step from the keyboard: to the hand, arrows to the tile, Enter (and Enter on a
    # lit end if it fits two).
    move = as_tap(second, lesson.steps[1].task.accept[0])
    for _ in range(20):
        if page.evaluate("!!document.activeElement.dataset?.tile"):
            break
        page.keyboard.press("Tab")
    for _ in range(len(page.locator("[data-tile]").all())):
        if page.evaluate("document.activeElement.dataset.tile") == move.tile:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.tile") == move.tile
    page.keyboard.press("Enter")
    if move.place is not None:
        page.wait_for_selector(f'[data-place="{move.place}"]')
        while page.evaluate("document.activeElement.dataset.place") != move.place:
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    page.wait_for_selector(".feedback.right")
    assert not js_errors

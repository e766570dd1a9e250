"""The lessons over HTTP (docs/lessons.md): paths, a lesson in a language, tries judged by
the engine, and a guest's progress kept on the server (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import msgspec
from harness import Server, auth, running
from stores import Backend, backend_fixture, db_url_fixture  # noqa: F401

from kabes.lessons.library import lessons, path
from kabes.lessons.model import LANGUAGES
from kabes.lessons.position import position
from kabes.rules import VARIANTS
from kabes.server.http.lesson_messages import LessonBody, LessonPaths, TryAnswer, openapi_schema
from kabes.views import view

FIRST = "haitian-1"


async def get(server: Server, url: str, token: str | None = None) -> Any:
    reply = await server.http.get(url, headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.text
    return reply.json()


async def try_step(server: Server, lesson: str, body: dict[str, Any], lang: str = "en") -> Any:
    return await server.http.post(f"/api/lessons/{lesson}/try?lang={lang}", json=body)


async def test_every_variant_has_a_path_listed_in_the_order_lessons_are_taught(
    server: Server,
) -> None:
    body = await get(server, "/api/lessons?lang=fr")
    assert body["languages"] == list(LANGUAGES)
    assert [p["variant"] for p in body["paths"]] == list(VARIANTS)
    for listed in body["paths"]:
        assert [entry["id"] for entry in listed["lessons"]] == [
            lesson.id for lesson in path(listed["variant"])
        ]
        for entry in listed["lessons"]:
            assert entry["title"] == lessons()[entry["id"]].title["fr"]
            assert entry["done"] is False
        first = listed["lessons"][0]["id"] if listed["lessons"] else None
        assert listed["next"] == first


async def test_a_lesson_comes_in_the_asked_language_with_each_step_as_the_learners_view(
    server: Server,
) -> None:
    body = await get(server, f"/api/lessons/{FIRST}?lang=ht")
    lesson = lessons()[FIRST]
    assert body["title"] == lesson.title["ht"]
    assert body["remember"] == [t["ht"] for t in lesson.remember]
    assert len(body["steps"]) == len(lesson.steps)
    for index, (sent, step) in enumerate(zip(body["steps"], lesson.steps, strict=True)):
        assert sent["text"] == step.text["ht"]
        assert sent["task"]["kind"] == step.task.kind
        seen = view(position(lesson, index), step.seat)
        assert sent["view"]["hand"] == [str(t) for t in seen.hand]
        assert sent["view"]["ends"] == (None if seen.ends is None else list(seen.ends))
        assert sent["view"]["clock"] is None and sent["view"]["pause"] is None


async def test_a_step_shows_the_learner_no_other_seats_tiles(server: Server) -> None:
    body = await get(server, f"/api/lessons/{FIRST}")
    lesson = lessons()[FIRST]
    for index, (sent, step) in enumerate(zip(body["steps"], lesson.steps, strict=True)):
        match = position(lesson, index)
        assert match.hand is not None
        hidden = {str(t) for seat, tiles in enumerate(match.hand.hands) if seat != step.seat
                  for t in tiles}
        laid = set(sent["view"]["line"] or [])
        text = str(sent["view"])
        assert not any(f"'{tile}'" in text for tile in hidden - laid)


async def test_a_right_move_gets_the_lessons_words_and_the_position_after_it(
    server: Server,
) -> None:
    reply = await try_step(server, FIRST, {"step": 0, "move": "6-3"}, "es")
    assert reply.status_code == 200, reply.text
    answer = reply.json()
    assert answer["correct"] is True
    assert answer["text"] == lessons()[FIRST].steps[0].task.done["es"]  # type: ignore[index]
    assert "3-6" not in answer["view"]["hand"]
    assert answer["events"][0]["kind"] == "played"


async def test_a_tile_that_fits_nowhere_is_refused_by_the_engine_with_the_lessons_words(
    server: Server,
) -> None:
    answer = (await try_step(server, FIRST, {"step": 0, "move": "4-2"}, "pt")).json()
    assert answer["correct"] is False
    assert answer["reason"] == "does_not_fit"
    assert answer["facts"] == {"tile": "2-4", "ends": [6, 6]}
    assert answer["text"] == lessons()[FIRST].steps[0].task.wrong[0].text["pt"]
    assert answer["view"] is None and answer["events"] == []


async def test_a_legal_move_the_step_does_not_ask_for_gets_the_lessons_words_only(
    server: Server,
) -> None:
    answer = (await try_step(server, FIRST, {"step": 1, "move": "4-2"})).json()
    assert answer["correct"] is False and answer["reason"] is None
    assert answer["text"] == lessons()[FIRST].steps[1].task.wrong[0].text["en"]


async def test_going_on_from_a_read_step_gives_the_position_after_its_table_moves(
    server: Server,
) -> None:
    answer = (await try_step(server, FIRST, {"step": 2})).json()
    assert answer["correct"] is True and answer["reason"] is None
    assert answer["view"]["ends"] == [5, 4]


async def test_a_tile_not_in_the_hand_is_refused_naming_the_reason(server: Server) -> None:
    answer = (await try_step(server, FIRST, {"step": 0, "move": "6-6"})).json()
    assert answer["correct"] is False and answer["reason"] == "not_held"


async def test_a_try_that_does_not_fit_the_step_is_refused_and_says_why(server: Server) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"step": 9, "move": "6-3"}, 400, "bad_step"),
        ({"step": 2, "move": "6-3"}, 400, "bad_step"),  # a read step: the step alone
        ({"step": 0, "choice": 1}, 400, "bad_step"),  # a play step
        ({"step": 0}, 400, "bad_step"),
        ({"step": -1, "move": "6-3"}, 422, "bad_message"),
        ({"move": "6-3"}, 422, "bad_message"),
    ]
    for body, status, code in cases:
        reply = await try_step(server, FIRST, body)
        assert (reply.status_code, reply.json()["code"]) == (status, code), body
    reply = await server.http.post(f"/api/lessons/{FIRST}/try", content=b"not json")
    assert reply.status_code == 422 and reply.json()["code"] == "bad_message"


async def test_an_unknown_lesson_or_language_is_refused_naming_it(server: Server) -> None:
    reply = await server.http.get("/api/lessons/nowhere-9")
    assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    assert "nowhere-9" in reply.json()["message"]
    reply = await server.http.get(f"/api/lessons/{FIRST}?lang=de")
    assert (reply.status_code, reply.json()["code"]) == (400, "bad_language")
    assert "'de'" in reply.json()["message"]


async def test_finishing_a_lesson_needs_a_guest_token(server: Server) -> None:
    reply = await server.http.post(f"/api/lessons/{FIRST}/done")
    assert (reply.status_code, reply.json()["code"]) == (401, "bad_token")
    reply = await server.http.post(f"/api/lessons/{FIRST}/done", headers=auth("forged"))
    assert (reply.status_code, reply.json()["code"]) == (401, "bad_token")
    reply = await server.http.get("/api/lessons", headers=auth("forged"))
    assert (reply.status_code, reply.json()["code"]) == (401, "bad_token")


async def test_a_finished_lesson_is_kept_for_the_guest_on_every_device(db_url: str) -> None:
    async with running(db_url) as server:
        _, token = await server.guest()
        _, other = await server.guest("Ingrid")
        reply = await server.http.post(f"/api/lessons/{FIRST}/done", headers=auth(token))
        assert reply.status_code == 200, reply.text
        assert reply.json() == {"id": FIRST, "done": True,
                                "next": path("haitian")[1].id if len(path("haitian")) > 1
                                else None}
        again = await server.http.post(f"/api/lessons/{FIRST}/done", headers=auth(token))
        assert again.status_code == 200
    async with running(db_url) as server:  # a restart, a second phone: the same progress
        mine = await get(server, "/api/lessons", token)
        theirs = await get(server, "/api/lessons", other)
    haitian = next(p for p in mine["paths"] if p["variant"] == "haitian")
    assert [e["done"] for e in haitian["lessons"]][:1] == [True]
    assert haitian["next"] != FIRST
    haitian = next(p for p in theirs["paths"] if p["variant"] == "haitian")
    assert not any(e["done"] for e in haitian["lessons"])


async def test_the_lesson_routes_are_in_the_openapi_document(server: Server) -> None:
    document = await get(server, "/openapi.json")
    for route in ("/api/lessons", "/api/lessons/{lesson_id}", "/api/lessons/{lesson_id}/try",
                  "/api/lessons/{lesson_id}/done"):
        assert route in document["paths"], route
    answer = document["paths"]["/api/lessons/{lesson_id}/try"]["post"]
    assert "requestBody" in answer
    assert "TryAnswer" in str(answer["responses"]["200"])


async def test_each_lesson_answer_decodes_as_the_struct_its_route_documents(
    server: Server,
) -> None:
    paths = await server.http.get("/api/lessons")
    msgspec.json.decode(paths.content, type=LessonPaths, strict=True)
    lesson = await server.http.get(f"/api/lessons/{FIRST}")
    msgspec.json.decode(lesson.content, type=LessonBody, strict=True)
    tried = await try_step(server, FIRST, {"step": 0, "move": "6-6"})
    msgspec.json.decode(tried.content, type=TryAnswer, strict=True)
    document = await get(server, "/openapi.json")
    answer = document["paths"]["/api/lessons/{lesson_id}"]["get"]["responses"]["200"]
    schema = answer["content"]["application/json"]["schema"]
    assert schema == openapi_schema(LessonBody)
    assert "$ref" not in str(schema), "every struct is written in place"

"""What a local table (kabes.local: a phone with no network) does where a server's would do
otherwise, or that a phone needs: one person against the computer, no clock played against
them, a person who leaves ends the match, its games handed to the page entry by entry, a
table opened again, and the worker's one call refusing what does not fit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kabes.local.computer import Budgets
from kabes.local.tables import Tables, is_local

CASUAL = {"variant": "haitian", "players": 2, "computers": {"1": "casual"}}
SHORT = {"variant": "plaza", "players": 2, "computers": {"1": "casual"}, "options": {"target": 50}}


class Phone:
    """One worker's tables on a fake clock, and one socket's messages."""

    def __init__(self) -> None:
        self.now = 5000.0
        self.tables = Tables(lambda: self.now, Budgets(computer_delay=1.0, worlds=2), seed=4)
        self.got: list[dict[str, Any]] = []
        self.closed: list[int] = []
        self.games: list[dict[str, Any]] = []
        self.code = ""
        self.due: float | None = None

    def call(self, **request: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.tables.call(json.dumps(request)))
        for out in answer["out"]:
            if "close" in out:
                self.closed.append(out["close"])
            else:
                self.got.append(json.loads(out["text"]))
        self.games += answer["games"]
        self.due = answer["due"]
        return answer

    def open(self, spec: dict[str, Any] = CASUAL) -> str:
        self.code = self.call(op="open", table=spec, player=3, name="Ana")["answer"]["code"]
        return self.code

    def say(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.call(op="send", code=self.code, socket=1, text=json.dumps(message))

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.got) if m["type"] == kind)

    def view(self) -> dict[str, Any]:
        return next(m for m in reversed(self.got) if m["type"] in ("welcome", "update"))

    def until_my_turn(self) -> None:
        """Let the computer move until the person is to move or the hand is over."""
        while (self.view()["table"]["status"] == "playing"
               and self.view()["view"]["turn"] != 0):
            assert self.due is not None
            self.now += self.due
            self.call(op="tick")

    def started(self, spec: dict[str, Any] = CASUAL) -> None:
        self.open(spec)
        self.say({"type": "hello", "token": "t"})
        self.say({"type": "start", "id": "s"})
        self.until_my_turn()


def test_a_local_code_is_never_a_server_s() -> None:
    phone = Phone()
    code = phone.open()
    assert is_local(code) and len(code) == 8
    assert "L" not in "23456789ABCDEFGHJKMNPQRSTVWXYZ"


def test_every_other_seat_is_a_computer_and_partnership_has_none() -> None:
    phone = Phone()
    free = phone.call(op="open", table={"variant": "haitian", "players": 3,
                                        "computers": {"1": "casual"}}, player=3, name="Ana")
    assert free["error"]["code"] == "bad_level"
    people = phone.call(op="open", table={"variant": "partnership", "players": 4,
                                          "computers": {"1": "casual"}}, player=3, name="Ana")
    assert people["error"]["code"] == "people_only"
    assert phone.tables.tables == {}


def test_no_clock_plays_for_the_person_but_a_computer_moves_after_its_second() -> None:
    phone = Phone()
    phone.started()
    view = phone.view()["view"]
    assert view["clock"]["seat"] == 0 and view["clock"]["total_ms"] == 45_000
    assert phone.due is None, "nothing happens until the person plays"
    phone.now += 3600
    phone.call(op="tick")
    assert phone.view()["view"]["turn"] == 0 and phone.view()["view"]["hand"] == view["hand"]
    phone.say({"type": "play", "id": "m1", "move": view["legal"][0]})
    assert phone.last("ack")["id"] == "m1"
    if phone.view()["view"]["turn"] == 1:
        assert phone.due == pytest.approx(1.0)


def test_the_pause_between_hands_deals_when_it_ends_or_at_next_hand() -> None:
    phone = Phone()
    phone.started()
    hands = 0
    while phone.view()["table"]["status"] != "over" and hands < 2:
        view = phone.view()
        if view["table"]["status"] == "between_hands":
            hands += 1
            assert phone.due == pytest.approx(30.0)
            if hands == 1:
                phone.now += 30.0
                phone.call(op="tick")
            else:
                phone.say({"type": "next_hand", "id": "n"})
            assert phone.view()["view"]["hand_number"] == view["view"]["hand_number"] + 1
            phone.until_my_turn()
        else:
            phone.say({"type": "play", "id": f"m{len(phone.got)}",
                       "move": view["view"]["legal"][0]})
            if phone.view()["table"]["status"] == "playing":
                phone.until_my_turn()


def test_a_person_who_leaves_a_match_ends_it_and_no_socket_speaks_for_them_after() -> None:
    phone = Phone()
    phone.started()
    phone.say({"type": "leave", "id": "bye"})
    assert phone.last("ack")["id"] == "bye"
    assert phone.got[-1] == {"type": "error", "id": None, "code": "not_seated",
                             "message": "you no longer hold this seat"}
    assert phone.closed == [4403]
    game = phone.games[-1]
    assert game["status"] == "over" and game["record"]["result"]["abandoned"] is True
    assert [e["kind"] for e in game["entries"]] == ["left", "abandoned"]
    again = phone.say({"type": "hello", "token": "t"})
    assert [json.loads(o["text"])["code"] for o in again["out"] if "text" in o] == ["not_seated"]


def test_a_hello_must_come_first_with_a_token_and_nobody_watches() -> None:
    phone = Phone()
    phone.open()
    phone.say({"type": "sync", "id": "x"})
    assert phone.got[-1]["code"] == "bad_message" and phone.got[-1]["id"] == "x"
    phone.say({"type": "hello"})
    assert phone.got[-1]["code"] == "bad_message"
    phone.say({"type": "hello", "watch": True})
    assert phone.got[-1]["code"] == "not_seated" and phone.closed == [4401]
    phone.say({"type": "nonsense", "id": "y"})
    assert phone.got[-1]["code"] == "bad_message" and phone.got[-1]["id"] == "y"


def test_each_change_hands_the_page_its_new_entries_only() -> None:
    phone = Phone()
    phone.started()
    kept: list[dict[str, Any]] = []
    for game in phone.games:
        assert game["since"] == len(kept)
        kept += game["entries"]
    assert [e["seq"] for e in kept] == list(range(1, len(kept) + 1))
    assert kept[0]["kind"] == "created" and kept[1]["kind"] == "started"
    assert phone.games[-1]["seats"][1]["level"] == "casual"


def test_a_table_rebuilt_from_its_entries_gets_its_clock_back_and_shows_the_same() -> None:
    phone = Phone()
    phone.started()
    kept = [e for game in phone.games for e in game["entries"]]
    before = phone.view()["view"]
    again = Phone()
    again.now = phone.now + 86_400
    again.code = phone.code
    resumed = again.call(op="resume", code=phone.code, entries=kept)
    assert resumed["answer"]["table"]["status"] == "playing"
    assert [e["kind"] for e in resumed["games"][0]["entries"]] == ["resumed"]
    assert resumed["games"][0]["since"] == len(kept)
    again.say({"type": "hello", "token": "t"})
    after = again.view()["view"]
    assert after["clock"]["remaining_ms"] == before["clock"]["remaining_ms"] == 45_000
    assert {k: v for k, v in after.items() if k != "clock"} == {
        k: v for k, v in before.items() if k != "clock"}
    assert again.call(op="resume", code="LNOTHERE", entries=[])["error"]["code"] == "not_found"


def test_play_again_opens_the_same_table_on_the_phone() -> None:
    phone = Phone()
    phone.started(SHORT)
    while phone.view()["table"]["status"] != "over":
        view = phone.view()
        if view["table"]["status"] == "between_hands":
            phone.say({"type": "next_hand", "id": f"n{len(phone.got)}"})
        else:
            phone.say({"type": "play", "id": f"m{len(phone.got)}",
                       "move": view["view"]["legal"][0]})
        if phone.view()["table"]["status"] == "playing":
            phone.until_my_turn()
    assert phone.games[-1]["record"]["result"]["finished"]
    phone.say({"type": "play_again", "id": "again"})
    following = phone.view()["table"]["next_table"]
    assert is_local(following) and following != phone.code
    assert phone.last("ack")["id"] == "again"
    table = phone.call(op="table", code=following)["answer"]
    assert table["status"] == "waiting" and table["seats"][1]["level"] == "casual"
    assert table["options"]["target"] == 50
    assert {g["code"] for g in phone.games} == {phone.code, following}


def test_a_table_that_fails_unforeseen_is_rebuilt_from_its_log_and_the_page_says_hello_again(
) -> None:
    phone = Phone()
    phone.started()
    table = phone.tables.tables[phone.code]

    def broken(*_: Any) -> str:
        raise RuntimeError("a fault in the computer's search")

    table.thinker = broken
    view = phone.view()["view"]
    kept = len(table.entries)
    phone.say({"type": "play", "id": "m", "move": view["legal"][0]})
    if phone.view()["view"]["turn"] != 1:
        pytest.skip("the computer had no turn after this move")
    phone.now += 1.0
    phone.call(op="tick")
    assert phone.closed == [1011]
    again = phone.tables.tables[phone.code]
    assert again is not table and again.thinker is None
    assert len(again.entries) == kept + 2  # the person's move, then the rebuild's resumed
    phone.say({"type": "hello", "token": "t"})
    assert phone.last("welcome")["view"]["hand"] == phone.view()["view"]["hand"]
    phone.until_my_turn()
    assert phone.view()["view"]["turn"] == 0 or phone.view()["table"]["status"] != "playing"

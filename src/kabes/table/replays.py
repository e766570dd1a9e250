"""A match's record as a replay: every position of one finished hand, face up, as a watcher's
VIEW (``GET /api/tables/{code}/replay?hand=N``, drawn by the web client's /r/CODE).

The client never plays the rules again: every position comes from the engine. The record is
replayed by :func:`kabes.records.replay` (the same code that checks a record file, so a
replay refuses what the rules refuse), and after the deal and after each move of the asked
hand the VIEW a watcher would have been sent at that moment is taken, built as the table's
outbox builds it (:func:`kabes.table.wire.view_messages`, then
:func:`~kabes.table.wire.watcher_view`): the line's tiles oriented as shown, the trains,
the scores, and at the hand's end its ``last_hand`` (every hand face up, the counts and the
engine's explanation), which the client words as at the table. Beside each VIEW stand every
seat's tiles at that moment (``hands``): a replay shows every hand face up from the first move,
which no seat's VIEW does while the hand is played.

One hand at a time, not the whole match: a Mexican Train match is thirteen rounds of up to
ninety-odd moves at eight seats, far more than a phone wants at once, while a hand is at most
one position per tile of the set (plus the deal). Only the hands up to the asked one are
replayed, and views are taken of that hand alone.

A record holds only finished hands (a match in play's record stops at its last finished hand:
``kabes.server.hub.hub.finished_record``), so nothing of a hand in progress can be shown.

Pure: the engine and this package only (no server), so that any driver (the server, a test,
a phone) turns a record into the same positions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kabes.events import Event, HandStarted
from kabes.match import Match
from kabes.records import replay
from kabes.table.messages import View as ViewMessage
from kabes.table.wire import view_messages, watcher_view
from kabes.views import views_of

__all__ = ["NoSuchHand", "hand_count", "hand_replay"]


class NoSuchHand(LookupError):
    """The record has no finished hand of that number."""


def hand_count(record: Mapping[str, Any]) -> int:
    """How many (finished) hands ``record`` holds."""
    hands = record.get("hands")
    return len(hands) if isinstance(hands, list) else 0


def hand_replay(record: Mapping[str, Any], number: int) -> dict[str, Any]:
    """Hand ``number`` (1 for the first) of ``record`` as positions, for the encoder the table
    uses (``kabes.table.encoding``): ``{"variant", "players", "hands", "hand", "over",
    "moves", "positions"}`` where ``hands`` is the number of hands the record holds, ``over``
    whether the match is over, ``moves`` the hand's moves in record notation and
    ``positions`` one ``{"view", "hands"}`` after the deal (move 0) and after each move (move
    k after the k-th): a watcher's VIEW and every seat's tiles then. At the last position of
    the match's last hand, the VIEW carries the match's ``result``. NoSuchHand for a number
    that is not a hand of the record; BadRecord for a record the rules refuse."""
    total = hand_count(record)
    if not 1 <= number <= total:
        raise NoSuchHand(f"no hand {number}: the record holds {total}")
    last = number == total
    # The hands after the asked one change nothing of it: they are not replayed. The record's
    # own result (a host's finish, an abandonment) matters only after its last hand.
    part = {**record, "hands": record["hands"][:number]}
    if not last:
        part["result"] = None
    moves = list(record["hands"][number - 1].get("moves") or [])
    positions: list[dict[str, Any]] = []
    held: list[Match] = []
    started = 0

    def take(events: list[Event]) -> None:
        nonlocal started
        if any(isinstance(e, HandStarted) for e in events):
            started += 1
        if started != number:
            return
        position = _position(held[0])
        if len(positions) > len(moves):
            # After the hand's last move: the match finished by its host, or abandoned.
            positions[-1] = position
        else:
            positions.append(position)

    match = replay(part, take, held.append)
    return {
        "variant": match.variant,
        "players": match.players,
        "hands": total,
        "hand": number,
        "over": match.over,
        "moves": moves,
        "positions": positions,
    }


def _position(match: Match) -> dict[str, Any]:
    """The match now as a watcher sees it, and every seat's tiles."""
    first, owns = views_of(match)
    seat_view: ViewMessage = view_messages(first, owns, None, None)[0]
    return {"view": watcher_view(seat_view), "hands": [[str(t) for t in own.hand] for own in owns]}

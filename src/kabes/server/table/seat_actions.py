"""What each action of a seat does at its table (PROTOCOL.md, "Client messages").

The table's actor (kabes.server.table.actor) first decides whether an action is heard at all (a
watcher's goes to kabes.server.table.watchers; a socket of a seat given up speaks for nobody; the
seat's rate; an id answered before is answered the same again) and then hands it to
:func:`act`, which checks it against the rules (kabes.table.actions), commits what it
changes through the actor, and acknowledges it. A refusal goes up as
:class:`~kabes.server.common.protocol.Refused`, which the actor answers and remembers. The actor is
seen here through :class:`Desk` only, so this module does not know the actor's insides.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from kabes.server.common.protocol import (
    Ack,
    Action,
    HintAction,
    LeaveAction,
    NextHandAction,
    PlayAction,
    PlayAgainAction,
    RemoveAction,
    ReviewAction,
    Said,
    SayAction,
    StartAction,
    SyncAction,
    encode,
)
from kabes.server.table.answers import Answers
from kabes.server.table.clock import Clock
from kabes.server.table.computer_seats import ComputerSeats
from kabes.server.table.inbox import Connection
from kabes.server.table.phrases import PhraseGate
from kabes.server.table.seat_sockets import GONE_CLOSE, SeatSockets
from kabes.server.table.watchers import Watchers
from kabes.table import actions, outbox
from kabes.table.entries import Entry
from kabes.table.state import TableState

REMOVED_CLOSE = GONE_CLOSE
"""The close code of the sockets of a player the host removed (as of one who left)."""


class Desk(Protocol):
    """The table's actor, as a seat's action needs it."""

    @property
    def state(self) -> TableState: ...
    @property
    def sockets(self) -> SeatSockets: ...
    @property
    def watchers(self) -> Watchers: ...
    @property
    def phrases(self) -> PhraseGate: ...
    @property
    def computer(self) -> ComputerSeats: ...
    @property
    def answers(self) -> Answers: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def watcher_count(self) -> int: ...

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a socket open here."""
        ...

    async def commit(self, kind: str, data: dict[str, Any], seat: int | None = None,
                     action: str | None = None) -> Entry:
        """Apply, store, then tell a new entry (Refused if it cannot be kept)."""
        ...

    async def open_again(self, seat: int) -> str:
        """Open the same table again with ``seat``'s person as host: the new code."""
        ...


async def act(desk: Desk, conn: Connection, action: Action) -> None:
    """Do ``action`` of ``conn``'s seat, answering ``conn`` (Refused goes up)."""
    seat = conn.seat
    state = desk.state
    if isinstance(action, SyncAction):
        conn.send(encode(outbox.update(state, seat, desk.connected, desk.clock.now(),
                                       desk.watcher_count)))
        conn.send(encode(Ack(action.id, state.seq)))
    elif isinstance(action, SayAction):
        say(desk, conn, action)
    elif isinstance(action, HintAction):
        desk.computer.hint(conn, action.id, state, desk.answers.remember)
    elif isinstance(action, ReviewAction):
        desk.computer.review(conn, action.id, state, desk.answers.remember)
    elif isinstance(action, PlayAgainAction):
        actions.play_again(state)
        if state.next_table is None:
            code = await desk.open_again(seat)
            await desk.commit("next_table", {"code": code}, seat, action.id)
        conn.send(encode(Ack(action.id, desk.state.seq)))
    elif isinstance(action, LeaveAction):
        kind, data = actions.leave(state, seat)
        # Every socket of the seat goes (the commit takes them out before telling the
        # change, the actor closes them with 4403 after this ack: SeatSockets.evict): before
        # the start the seat is free for another person, whose updates none may see.
        await desk.commit(kind, data, seat, action.id)
        conn.send(encode(Ack(action.id, desk.state.seq)))
    elif isinstance(action, RemoveAction):
        kind, data = actions.remove(state, seat, action.seat)
        entry = await desk.commit(kind, data, seat, action.id)  # the removed seat's sockets
        conn.send(encode(Ack(action.id, entry.seq)))  # go as a leaver's do, told `removed`
    else:
        if isinstance(action, PlayAction):
            kind, data = actions.play(state, seat, action.move)
        elif isinstance(action, StartAction):
            kind, data = actions.start(state, seat, desk.rng)
        elif isinstance(action, NextHandAction):
            kind, data = actions.next_hand(state, seat, desk.rng)
        else:
            kind, data = actions.finish(state, seat)
        entry = await desk.commit(kind, data, seat, action.id)
        conn.send(encode(Ack(action.id, entry.seq)))


def say(desk: Desk, conn: Connection, action: SayAction) -> None:
    """Tell every socket here, watchers included, that ``conn``'s seat said a phrase; no
    change of the table: nothing logged, no new seq (kabes.server.table.phrases)."""
    now = desk.clock.now()
    seq = desk.state.seq
    desk.phrases.check(conn.seat, action.phrase, now)
    said = encode(Said(seq, conn.seat, action.phrase, round(now * 1000)))
    desk.sockets.send_all(said)
    desk.watchers.send(said)
    ack = Ack(action.id, seq)
    desk.answers.remember(conn.seat, action.id, ack)
    conn.send(encode(ack))

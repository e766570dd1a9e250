"""A local table: the pure table (kabes.table) driven on a phone, for one person against the
computer, answering the page with exactly the messages of ``/api/tables/{code}/ws``.

:class:`LocalTable` does what the server's actor does (kabes.server.table.actor, seat_actions,
computer_seats), with the same parts: an action is checked by ``kabes.table.actions``, its
entry applied (``TableState.apply``), kept in the table's log and only then told, each
message built by ``kabes.table.outbox`` and encoded by ``kabes.table``'s JSON encoder; a
computer seat waits ``computer_delay`` and then thinks by its level; hints and reviews are
the expert's, once a turn and once a hand. What the server has and a phone does not:

- **no clock against the person**: the turn's clock runs in the messages as at the server,
  but nobody is played for by ``timeout`` (there is nobody to wait for). The pause between
  hands runs as at the server (``next_hand`` deals at once), and a rebuilt table gives its
  clocks back the time they had left, as a server's restart does (a ``resumed`` entry);
- **no store**: the log's entries are the table's, as JSON (:attr:`LocalTable.entries`);
  the page keeps them (IndexedDB) after every change and rebuilds the table from them
  (:meth:`LocalTable.rebuilt`), at the same move;
- **one person**: any hello with a token is the person at seat 0 (the phone is theirs),
  nobody watches, nothing is rated, and a person who leaves a match in play ends it: the
  table logs ``abandoned`` at once, as a server does once no person is left.

Time comes from the ``clock`` it is given (seconds), so tests run it as the server's fake
clock runs its tables. Nothing here blocks but the searches, which the page's worker runs
one after another. :meth:`LocalTable.due` says when the table next acts by itself (a computer
seat's move, the pause's end) and :meth:`LocalTable.tick` does it; what a call sends goes to
:attr:`LocalTable.out`, socket by socket, until the caller takes it (:meth:`take`).
"""

from __future__ import annotations

import json
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, Final

from kabes.errors import KabesError
from kabes.local import computer
from kabes.local.client import Action, BadInput, Hello, decode
from kabes.local.computer import PHONE, Budgets
from kabes.local.phrases import PhraseGate
from kabes.records import to_record
from kabes.table import JSON, actions, outbox, presence
from kabes.table.creation import NewTable, created
from kabes.table.entries import Entry
from kabes.table.messages import Ack, Hint, Review, Said
from kabes.table.presence import Presence
from kabes.table.refusals import ErrorCode, Refused
from kabes.table.state import Change, Status, TableState, Timing
from kabes.views import view

TIMING: Final = Timing(turn_seconds=45.0, away_seconds=5.0, pause_seconds=30.0)
"""The server's default clocks (kabes.server.common.config): the messages show the same."""
PERSON: Final = 0
"""The person's seat: they open the table, as a host sits at seat 0."""
NOT_SEATED_CLOSE: Final = 4401
"""A hello that holds no seat here is told why and closed with it, as at the server."""
GONE_CLOSE: Final = 4403
"""The sockets of a person who left are closed with it after their ``leave``'s ack."""
ANSWERS_KEPT: Final = 512
"""Answers that the log does not hold (refusals, hints, reviews) kept for retried ids."""

Opener = Callable[["LocalTable"], str]
"""Opens the same table again (``play_again``): the new table's code."""
Dealer = Callable[[TableState], dict[str, Any]]
"""The next deal's entry data (``actions.new_deal`` with the table's generator)."""
Thinker = Callable[[TableState, int, str], str]
"""A computer seat's move: the state, the seat and its level in; the move out."""
Out = tuple[int, bytes | int]
"""What a socket is sent: a message, or the code it is closed with."""


def entry_json(entry: Entry) -> dict[str, Any]:
    """An entry as the page keeps it."""
    return {"seq": entry.seq, "kind": entry.kind, "data": entry.data, "at": entry.at,
            "seat": entry.seat, "action": entry.action}


def entry_from(kept: dict[str, Any]) -> Entry:
    """An entry the page kept (:func:`entry_json`)."""
    return Entry(int(kept["seq"]), str(kept["kind"]), dict(kept["data"]), float(kept["at"]),
                 kept.get("seat"), kept.get("action"))


class LocalTable:
    """One table on the phone: its state, its log and the page's sockets."""

    def __init__(
        self,
        code: str,
        *,
        clock: Callable[[], float] = time.time,
        budgets: Budgets = PHONE,
        seed: int | None = None,
        opener: Opener | None = None,
        dealer: Dealer | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        """``seed``: where the deals and the computer's chances come from (the system's
        random source if None); ``dealer`` and ``thinker`` replace them (tests that make
        the server's deals and moves again); ``opener`` opens the table again."""
        self.code = code
        self.clock = clock
        self.budgets = budgets
        self.state = TableState(code, TIMING)
        self.entries: list[str] = []
        """The log, each entry as JSON text (:func:`entry_json`)."""
        self.out: list[Out] = []
        self.sockets: list[int] = []
        """The sockets at the person's seat, in order of their hello."""
        self.presence = Presence()
        self.phrases = PhraseGate()
        self.answers: dict[str, Any] = OrderedDict()
        self.rng = random.Random(
            seed if seed is not None else random.SystemRandom().getrandbits(128))
        self.dealer = dealer
        self.thinker = thinker
        self.opener = opener
        self._leaving: list[int] = []
        """Sockets of a person who left, closed once the leave is answered."""
        self._thinking = -1
        """The turn a computer seat was woken for (once a turn)."""
        self._think_at: float | None = None
        self._hints: tuple[int, str, str] | None = None
        self._reviews: tuple[int, list[Any]] | None = None

    # Opening and rebuilding ----------------------------------------------------------------

    @classmethod
    def opened(cls, code: str, request: NewTable, player: int, name: str,
               **given: Any) -> LocalTable:
        """A new table with ``player`` (``name``) at seat 0, as ``request`` asks (checked as
        ``POST /api/tables`` checks it: Refused with its code)."""
        table = cls(code, **given)
        table.commit("created", created(request, player, name))
        return table

    @classmethod
    def rebuilt(cls, code: str, kept: Iterable[dict[str, Any]], **given: Any) -> LocalTable:
        """The table its kept entries make; a clock that ran when the page stopped gets back
        the time it had left then (a ``resumed`` entry), as after a server's restart."""
        table = cls(code, **given)
        state = table.state
        for entry in map(entry_from, kept):
            state.apply(entry)
            table.entries.append(_text(entry_json(entry)))
        if state.status in (Status.PLAYING, Status.BETWEEN_HANDS):
            remaining, paused = state.left_at(state.changed_at)
            table.commit("resumed", {"remaining_ms": round(remaining * 1000),
                                     "pause_ms": round(paused * 1000)})
        table._wake()
        return table

    # The page's sockets --------------------------------------------------------------------

    def take(self) -> list[Out]:
        """What was sent since the last call, in order."""
        out, self.out = self.out, []
        return out

    @property
    def _player(self) -> int:
        """The person's player id (the ``created`` entry's)."""
        sitter = self.state.seats[PERSON] if self.state.seats else None
        return -1 if sitter is None or sitter.player is None else sitter.player

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a socket open here (only the person's can)."""
        return seat == PERSON and bool(self.sockets)

    def receive(self, conn: int, text: str) -> None:
        """A message from socket ``conn`` (a hello first, then actions)."""
        try:
            message = decode(text)
        except BadInput as err:
            self._send(conn, err.to_error(err.action_id))
            return
        if isinstance(message, Hello):
            self._hello(conn, message)
        elif conn not in self.sockets:
            self._send(conn, Refused(ErrorCode.BAD_MESSAGE, "say hello first").to_error(message.id))
        else:
            self._act(conn, message)
        self._wake()

    def close(self, conn: int) -> None:
        """Socket ``conn`` closed (the page left the table, or closed it)."""
        if conn not in self.sockets:
            return
        self.sockets.remove(conn)
        sitter = self.state.seats[PERSON] if self.state.seats else None
        if not self.sockets and sitter is not None and not sitter.left:
            self._presence(False)
        self._wake()

    def _hello(self, conn: int, hello: Hello) -> None:
        if conn in self.sockets or (hello.token is None and not hello.watch):
            again = "already said hello" if conn in self.sockets else "a hello needs a token"
            self._send(conn, Refused(ErrorCode.BAD_MESSAGE, again).to_error(None))
            return
        sitter = self.state.seats[PERSON] if self.state.seats else None
        if hello.watch or sitter is None or sitter.left:
            why = "this table may not be watched" if hello.watch else \
                "you hold no seat at this table"
            self._send(conn, Refused(ErrorCode.NOT_SEATED, why).to_error(None))
            self.out.append((conn, NOT_SEATED_CLOSE))
            return
        # The welcome first, showing the table without this socket; its coming is told after.
        self._send(conn, outbox.welcome(self.state, PERSON, self.connected, self.clock()))
        self.sockets.append(conn)
        if len(self.sockets) == 1:
            self._presence(True)

    def _presence(self, here: bool) -> None:
        """The person's first socket came or their last went: logged, or only told."""
        found = self.presence.change(self.state, PERSON, here, self.clock())
        if found is not None:
            self.commit(*found)
        elif self.sockets:
            news = {"kind": "connected" if here else "disconnected", "seat": PERSON}
            self._tell(Change(news=[news]))

    # Actions -------------------------------------------------------------------------------

    def _act(self, conn: int, action: Action) -> None:
        answered = self._answered(action.id)
        if answered is not None:
            self._send(conn, answered)
            return
        try:
            self._do(conn, action)
        except Refused as err:
            answer = err.to_error(action.id)
            if err.code not in (ErrorCode.UNAVAILABLE, ErrorCode.SLOW_DOWN):
                self._remember(action.id, answer)
            self._send(conn, answer)

    def _do(self, conn: int, action: Action) -> None:
        """What ``action`` does (kabes.server.table.seat_actions.act); Refused goes up."""
        state, kind = self.state, action.type
        if kind == "sync":
            self._send(conn, outbox.update(state, PERSON, self.connected, self.clock()))
            self._send(conn, Ack(action.id, state.seq))
        elif kind == "say":
            self.phrases.check(PERSON, action.phrase, self.clock())
            self._send_all(Said(state.seq, PERSON, action.phrase, round(self.clock() * 1000)))
            self._remember(action.id, Ack(action.id, state.seq))
            self._send(conn, Ack(action.id, state.seq))
        elif kind == "hint":
            self._send(conn, self._hint(action.id))
        elif kind == "review":
            self._send(conn, self._review(action.id))
        elif kind == "play_again":
            actions.play_again(state)
            if state.next_table is None:
                if self.opener is None:
                    raise Refused(ErrorCode.NOT_NOW, "this table cannot be opened again here")
                self.commit("next_table", {"code": self.opener(self)}, PERSON, action.id)
            self._send(conn, Ack(action.id, self.state.seq))
        elif kind == "leave":
            self.commit(*actions.leave(state, PERSON), PERSON, action.id)
            self._send(conn, Ack(action.id, self.state.seq))
            self._send_off()
        elif kind == "remove":
            entry = self.commit(*actions.remove(state, PERSON, action.seat), PERSON, action.id)
            self._send(conn, Ack(action.id, entry.seq))
        else:
            if kind == "play":
                found = actions.play(state, PERSON, action.move)
            elif kind == "start":
                found = self._dealt(actions.start(state, PERSON, self.rng))
            elif kind == "next_hand":
                found = self._dealt(actions.next_hand(state, PERSON, self.rng))
            else:
                found = actions.finish(state, PERSON)
            entry = self.commit(*found, PERSON, action.id)
            self._send(conn, Ack(action.id, entry.seq))

    def _dealt(self, found: actions.EntryData) -> actions.EntryData:
        """A deal's entry, with the dealer's deal when the table was given one."""
        return found if self.dealer is None else (found[0], self.dealer(self.state))

    def _send_off(self) -> None:
        """After a leave's ack: the person holds the seat no more, so its sockets are told
        and closed, and a match in play ends (nobody is left to play it)."""
        for conn in self._leaving:
            gone = Refused(ErrorCode.NOT_SEATED, "you no longer hold this seat")
            self._send(conn, gone.to_error(None))
            self.out.append((conn, GONE_CLOSE))
        self._leaving.clear()
        if self.state.status != Status.OVER:
            self.commit("abandoned", {})

    def _hint(self, action_id: str) -> Hint:
        """The expert's move on the person's turn, searched once a turn."""
        state = self.state
        if not state.against_computers(PERSON):
            raise Refused(ErrorCode.NO_HINTS,
                          "hints are given only at a table against the computer")
        if state.turn != PERSON or state.match is None:
            raise Refused(ErrorCode.NOT_YOUR_TURN, "a hint is given on your turn")
        if self._hints is None or self._hints[0] != state.turn_id:
            move, reason = computer.advise(view(state.match, PERSON), self.rng.getrandbits(64),
                                           self.budgets)
            self._hints = (state.turn_id, move, reason)
        answer = Hint(action_id, self._hints[1], self._hints[2])
        self._remember(action_id, answer)
        return answer

    def _review(self, action_id: str) -> Review:
        """The person's moves of the hand just ended that the expert would change, searched
        once a hand."""
        state, match = self.state, self.state.match
        if not state.against_computers(PERSON):
            raise Refused(ErrorCode.NO_HINTS,
                          "reviews are given only at a table against the computer")
        if (state.status not in (Status.BETWEEN_HANDS, Status.OVER) or match is None
                or not match.log or match.log[-1].result is None):
            raise Refused(ErrorCode.NOT_NOW, "a hand is reviewed once it is over")
        hand = len(match.log)
        if self._reviews is None or self._reviews[0] != hand:
            moves = computer.second_opinions(to_record(match), PERSON, hand,
                                             self.rng.getrandbits(64), self.budgets)
            self._reviews = (hand, moves)
        answer = Review(action_id, hand, self._reviews[1])
        self._remember(action_id, answer)
        return answer

    def _answered(self, action_id: str) -> Any:
        seq = self.state.acked(PERSON, action_id)
        return Ack(action_id, seq) if seq is not None else self.answers.get(action_id)

    def _remember(self, action_id: str, answer: Any) -> None:
        self.answers[action_id] = answer
        while len(self.answers) > ANSWERS_KEPT:
            self.answers.pop(next(iter(self.answers)))

    # Changes: applied, kept, then told -----------------------------------------------------

    def commit(self, kind: str, data: dict[str, Any], seat: int | None = None,
               action: str | None = None) -> Entry:
        """Apply a new entry, keep it in the log, then tell the sockets."""
        state = self.state
        data = self.presence.stamp(kind, data, self.connected, state)
        entry = Entry(state.seq + 1, kind, data, self.clock(), seat, action)
        try:
            change = state.apply(entry)
        except KabesError as err:  # the engine checks a move wholly before it changes it
            raise Refused(ErrorCode.ILLEGAL_MOVE, err.message, err.reason, err.facts) from None
        self.entries.append(_text(entry_json(entry)))
        if self.sockets and state.seat_of(self._player) is None:
            # The person holds the seat no more (they left): their sockets are not told the
            # change, and are closed after the leave's ack (as kabes.server.table.seat_sockets).
            self._leaving, self.sockets = self.sockets, []
        if self.sockets:
            self._tell(change)
        return entry

    def _tell(self, change: Change) -> None:
        for _, data in outbox.updates(self.state, change.news, change.events, [PERSON],
                                      self.connected, self.clock(), JSON):
            for conn in self.sockets:
                self.out.append((conn, data))

    def _send(self, conn: int, message: object) -> None:
        self.out.append((conn, JSON.encode(message)))

    def _send_all(self, message: object) -> None:
        data = JSON.encode(message)
        self.out.extend((conn, data) for conn in self.sockets)

    # What the table does by itself -----------------------------------------------------------

    def _wake(self) -> None:
        """If a computer seat is to move, have it move ``computer_delay`` from now (once a
        turn), as the server's ComputerSeats.wake does."""
        state = self.state
        if not state.computer_to_think(self._thinking):
            return
        self._thinking = state.turn_id
        self._think_at = self.clock() + self.budgets.computer_delay

    def due(self) -> float | None:
        """When the table next acts by itself (clock time), if it will: a computer seat's
        move, the pause's end, a connection change held back (kabes.table.presence)."""
        state = self.state
        times = [self.presence.due(state, self.connected)]
        if state.status == Status.BETWEEN_HANDS:
            times.append(presence.deadline(state, self.connected))
        if self._think_at is not None and self._thinking == state.turn_id:
            times.append(self._think_at)
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def tick(self) -> None:
        """Do what is due now (see :meth:`due`)."""
        state, now = self.state, self.clock()
        for kind, data in self.presence.flush(state, self.connected, now):
            self.commit(kind, data)
        deadline = presence.deadline(self.state, self.connected)
        if self.state.status == Status.BETWEEN_HANDS and deadline is not None and now >= deadline:
            self.commit(*self._dealt(("dealt", actions.new_deal(self.state, self.rng))))
        state = self.state
        if (self._think_at is not None and now >= self._think_at
                and self._thinking == state.turn_id and state.turn is not None):
            self._think_at = None
            self.commit("move", {"seat": state.turn, "move": self._think(state, state.turn)})
        self._wake()

    def _think(self, state: TableState, seat: int) -> str:
        level = state.seat(seat).level
        assert level is not None and state.match is not None
        if self.thinker is not None:
            return self.thinker(state, seat, level)
        return computer.think(level, view(state.match, seat), self.rng.getrandbits(64),
                              self.budgets)

    # What the page keeps -------------------------------------------------------------------

    def record(self) -> dict[str, Any] | None:
        """The match's record (DESIGN.md) once it is over, else None."""
        match = self.state.match
        return to_record(match) if match is not None and match.over else None

    def game(self, since: int = 0) -> str:
        """The game as the page keeps it (web/games.js), as JSON text: the table's code,
        variant, seats and status, when it opened (ms), and once the match is over its
        record and result; then ``since`` and its entries from that one on (the page has
        those before: a change hands it the new ones only)."""
        state = self.state
        seats = outbox.summary(state, self.connected).seats
        record = self.record()
        head = {
            "code": state.code, "variant": state.variant, "players": state.players,
            "seats": seats, "started": round(state.opened_at * 1000), "status": str(state.status),
            "record": record, "result": None if record is None else record["result"],
        }
        text = JSON.encode(head).decode()
        return f'{text[:-1]},"since":{since},"entries":[{",".join(self.entries[since:])}]}}'


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

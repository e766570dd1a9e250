"""What a table sends: its summary, each seat's view with the clocks, welcomes and updates.

Every message to a seat is built here from the table's state and the engine's view of that
seat (``kabes.views.view``, the one place that hides), so nothing reaches a socket that its
seat may not see. The parts every seat is shown alike (the summary, the public events, the
clocks, the line and plays) are built once per change, not once per seat; the summary, the
public events, the last hand and the options are encoded once where the encoder that the
table's driver hands :func:`updates` can splice them in (``kabes.table.encoding``: msgspec's
at the server), and the summary and options not again while they stay the same
(``TableState.memo``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kabes.events import Event
from kabes.table import presence, wire
from kabes.table.encoding import HOLE, Encoder
from kabes.table.messages import Clock, Pause, SeatInfo, Summary, Update, View, Welcome
from kabes.table.state import Status, TableState
from kabes.views import view, views_of

Connected = Callable[[int], bool]
"""Whether a seat has a socket open now (the actor's to say: sockets are not state)."""

SeatRow = tuple[int, str, int | None, str, str | None, bool, bool]
"""A seat's :class:`SeatInfo`, as its fields."""
SummaryFields = tuple[str, str, int, dict[str, Any], int, str, tuple[SeatRow | None, ...],
                      str | None, str | None, int | None, bool, bool, int]
"""A :class:`Summary`, as its fields (the seats as their fields)."""


def summary(
    state: TableState, connected: Connected, seated: bool = False, watchers: int = 0
) -> Summary:
    """The table summary of PROTOCOL.md. ``next_table`` (the rematch's code) only for the
    table's ``seated`` (its welcomes and updates): a private table's code stays private, so
    a stranger who learned this table's code does not learn the next one's. ``watchers``:
    the sockets watching now (the actor's to count: sockets are not state)."""
    return _summary(_summary_fields(state, connected, seated, watchers))


def _summary_fields(
    state: TableState, connected: Connected, seated: bool, watchers: int
) -> SummaryFields:
    """Every value the summary shows, in its fields' order: the summary itself, as a key."""
    match = state.rules_match
    options = wire.reuse(state.memo, "summary_options", match.options,
                         lambda: {name: getattr(match.options, name) for name in match.specs})
    seats = tuple([
        None if s is None
        else (n, s.name, s.player, s.kind, s.level, not s.person or connected(n), s.left)
        for n, s in enumerate(state.seats)
    ])
    return (state.code, state.variant, state.players, options, state.host, str(state.status),
            seats, state.next_table if seated else None, state.tournament,
            state.tournament_round, state.public, state.watch, watchers)


def _summary(fields: SummaryFields) -> Summary:
    (code, variant, players, options, host, status, seats, next_table, tournament, round_,
     public, watch, watchers) = fields
    return Summary(code, variant, players, options, host, status,
                   [None if row is None else SeatInfo(*row) for row in seats],
                   next_table, tournament, round_, public, watch, watchers)


def shared_summary(
    state: TableState, connected: Connected, seated: bool, watchers: int, encoder: Encoder
) -> object:
    """:func:`summary`, prepared by ``encoder`` for many messages (``Encoder.shared``), and
    not again while it shows the same (``TableState.memo``): a summary changes with a seat,
    the host, the status or a connection, not with a move, so most changes reuse the last.
    The key is the summary's every value, so that nothing it shows can change unseen."""
    fields = _summary_fields(state, connected, seated, watchers)
    return wire.reuse(state.memo, "summary" if seated else "summary_anyone", (fields, encoder),
                      lambda: encoder.shared(_summary(fields)))


def clocks(
    state: TableState, now: float, connected: Connected
) -> tuple[Clock | None, Pause | None]:
    """The running clock (a turn's, or the pause between hands), as every seat sees it and
    as the table runs it (kabes.table.presence: a seat back whose return is not yet logged
    is not on the away clock)."""
    deadline = presence.deadline(state, connected)
    if deadline is None:
        return None, None
    left = max(0, round((deadline - now) * 1000))
    turn = state.turn
    if turn is not None:
        away = presence.away(state, connected, turn)
        total = state.turn_budget
        if away:
            total = min(total, state.timing.away_seconds)
        return Clock(turn, left, away, round(total * 1000)), None
    if state.status == Status.BETWEEN_HANDS:
        return None, Pause(left, round(state.pause_budget * 1000))
    return None, None


def seat_view(
    state: TableState, seat: int, running: tuple[Clock | None, Pause | None]
) -> View:
    """``seat``'s VIEW with the running clocks (before the start: a match not yet dealt)."""
    clock, pause = running
    return wire.view_message(view(state.rules_match, seat), clock, pause)


def watcher_view(state: TableState, running: tuple[Clock | None, Pause | None]) -> View:
    """The VIEW from no seat, a watcher's: what every seat is shown alike."""
    return wire.watcher_view(seat_view(state, 0, running))


def watcher_welcome(
    state: TableState, connected: Connected, now: float, watchers: int = 0
) -> Welcome:
    """The answer to a watcher's hello: no seat, the summary as anyone reads it."""
    return Welcome(state.seq, None, summary(state, connected, watchers=watchers),
                   watcher_view(state, clocks(state, now, connected)))


def watcher_update(
    state: TableState, connected: Connected, now: float, watchers: int = 0
) -> Update:
    """A fresh update for a watcher, with no events (``sync``)."""
    return Update(state.seq, summary(state, connected, watchers=watchers), [],
                  watcher_view(state, clocks(state, now, connected)))


def welcome(
    state: TableState, seat: int, connected: Connected, now: float, watchers: int = 0
) -> Welcome:
    """The answer to a seat's hello: the table as it is at its seq."""
    return Welcome(state.seq, seat, summary(state, connected, True, watchers),
                   seat_view(state, seat, clocks(state, now, connected)))


def update(
    state: TableState, seat: int, connected: Connected, now: float, watchers: int = 0
) -> Update:
    """A fresh update for one seat, with no events (``sync``)."""
    return Update(state.seq, summary(state, connected, True, watchers), [],
                  seat_view(state, seat, clocks(state, now, connected)))


def updates(
    state: TableState,
    news: list[dict[str, Any]],
    events: list[Event],
    seats: list[int],
    connected: Connected,
    now: float,
    encoder: Encoder,
    watchers: int = 0,
    watching: bool = False,
) -> Iterator[tuple[int | None, bytes]]:
    """Each of ``seats``' update after a change: the change's events that seat may see
    (``news``: the table's own, all public; ``events``: the engine's, public or one seat's)
    and its whole view, encoded by ``encoder``. With ``watching``, last, under seat None, the
    one update every watcher gets: the public events, the view from no seat. ``watchers``:
    how many watch now (the summary's count).

    The seats' updates differ only in the events and a seat's own fields of the view. Where
    the encoder has a ``hole`` (msgspec's, at the server), the update is encoded once with a
    hole in each of those fields, from nothing of any seat's own, and each seat's is those
    bytes with its own fields' bytes put in the holes: what encoding it whole writes, for a
    fraction of the work (``tests/table/test_outbox.py`` holds the two equal)."""
    encode, shared = encoder.encode, encoder.shared
    table = shared_summary(state, connected, True, watchers, encoder)
    public = news + [wire.event_json(e) for e in events if e.to is None]
    clock, pause = clocks(state, now, connected)
    first, owns = views_of(state.rules_match)
    values = wire.view_values(first, clock, pause, encoder, state.memo)
    hole = encoder.hole
    pieces = None if hole is None else _pieces(
        encode, Update(state.seq, table, hole, wire.holed_view(values, hole)))
    public_once = shared(public) if pieces is None or watching else None
    public_bytes = encode(public) if pieces is not None else b""
    for seat in seats:
        own = [wire.event_json(e) for e in events if e.to == seat]
        seat_number, hand, legal, forced_lead = wire.own_fields(first, owns[seat])
        if pieces is None:
            yield seat, encode(Update(state.seq, table, public + own if own else public_once,
                                      wire.with_own(values, seat_number, hand, legal,
                                                    forced_lead)))
            continue
        head, at_seat, at_hand, at_legal, at_forced, tail = pieces
        yield seat, b"".join((head, encode(public + own) if own else public_bytes, at_seat,
                              encode(seat_number), at_hand, encode(hand), at_legal,
                              encode(legal), at_forced, encode(forced_lead), tail))
    if watching:
        anyone = shared_summary(state, connected, False, watchers, encoder)
        yield None, encode(Update(state.seq, anyone, public_once,
                                  wire.watcher_view_of(values)))


def _pieces(
    encode: Callable[[object], bytes], holed: Update
) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes] | None:
    """``holed`` (an update with the encoder's hole in its events and in each of a seat's own
    fields of its view) encoded and cut at the holes: the six pieces around them, in order.
    None where the bytes hold other than those five holes (they cannot: ``Encoder.hole``), so
    that each update is then written whole."""
    cut = encode(holed).split(HOLE)
    if len(cut) != 6:
        return None
    return cut[0], cut[1], cut[2], cut[3], cut[4], cut[5]

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
from kabes.table.encoding import Encoder
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
    how many watch now (the summary's count)."""
    encode, shared = encoder.encode, encoder.shared
    table = shared_summary(state, connected, True, watchers, encoder)
    public = news + [wire.event_json(e) for e in events if e.to is None]
    public_once = shared(public)
    clock, pause = clocks(state, now, connected)
    seen_by = wire.view_messages(*views_of(state.rules_match), clock, pause, encoder,
                                 state.memo)
    for seat in seats:
        own = [wire.event_json(e) for e in events if e.to == seat]
        seen = public + own if own else public_once
        yield seat, encode(Update(state.seq, table, seen, seen_by[seat]))
    if watching:
        anyone = shared_summary(state, connected, False, watchers, encoder)
        yield None, encode(Update(state.seq, anyone, public_once,
                                  wire.watcher_view(seen_by[0])))

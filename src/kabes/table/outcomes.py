"""What follows from a table's change besides its log entry: its status, a match begun or
finished, a hand to rate.

Rankings count real play (PROTOCOL.md, "Safe for strangers"): a hand at a table of people is
rated only if every person made a move of their own in it (the clock's ``timeout`` is not
theirs) and no seat has left, so that nobody climbs on hands the clock played for them; a
match counts in the matches played and won only on the same terms, over the whole match,
and never once abandoned.

The actor asks :func:`effects_of` after applying an entry, and hands the effects to the store
with the entry, so they are kept in the same transaction (``kabes.table.effects``).
"""

from __future__ import annotations

from kabes.events import Event, HandEnded
from kabes.records import to_record
from kabes.table.effects import (
    Effect,
    HandRated,
    MatchFinished,
    MatchScored,
    MatchStarted,
    SeatsFreed,
    TableStatus,
)
from kabes.table.entries import Entry
from kabes.table.rankings import hand_ranks
from kabes.table.state import Status, TableState


def effects_of(
    state: TableState, entry: Entry, events: list[Event], before: Status
) -> list[Effect]:
    """What the store must do besides keeping ``entry``, just applied to ``state`` (whose
    status was ``before``): status, matches, ratings."""
    effects: list[Effect] = []
    if state.status != before or entry.kind == "created":
        effects.append(TableStatus(state.code, str(state.status)))
    if state.tournament is None and before == Status.WAITING:
        # Seats held at tables waiting to start (kabes.server.table.seat_holds) end with the entry
        # that ends them, in its transaction: a seat given up, or every seat of a table that
        # started or closed.
        if state.status != Status.WAITING:
            effects.append(SeatsFreed(state.code, None))
        elif entry.kind in ("left", "removed") and entry.data.get("player") is not None:
            effects.append(SeatsFreed(state.code, [int(entry.data["player"])]))
    if entry.kind == "started":
        people = [(n, s.player) for n, s in enumerate(state.seats) if s and s.player is not None]
        seats: list[tuple[int | None, str | None]] = [
            (s.player, s.name) if s is not None and s.person else (None, None)
            for s in state.seats]
        effects.append(MatchStarted(state.code, state.variant, state.players, people,
                                    state.people_only, state.public, seats))
    match = state.match
    if match is None:
        return effects
    ended = [e for e in events if isinstance(e, HandEnded)]
    if ended and state.people_only and real_play(state, len(match.log)):
        effects += [rating(state, e) for e in ended]
    if ended and not match.over:  # the end of a match keeps its scores with its record
        effects.append(MatchScored(state.code, list(match.state.scores)))
    if match.over and before != Status.OVER:
        result = match.current_result()
        players = [s.player if s else None for s in state.seats]
        winners = [
            p for n, p in enumerate(players)
            if p is not None and match.state.party(n) in result.winners
        ]
        # An abandoned match counts in nobody's matches: its hands played for real are rated
        # one by one above, but leaving must neither win nor lose a match.
        rated = state.people_only and real_play(state, None) and not result.abandoned
        effects.append(MatchFinished(state.code, state.variant, winners, to_record(match),
                                     rated, [p for p in players if p is not None]))
    return effects


def real_play(state: TableState, hand: int | None) -> bool:
    """Whether no seat has left and every person made a move of their own in ``hand`` (the
    hand's number, 1 for the first), or in the match at all when ``hand`` is None."""
    people = [(n, s) for n, s in enumerate(state.seats) if s is not None and s.person]
    if any(s.left for _, s in people):
        return False
    if hand is None:
        return all(n in state.moved for n, _ in people)
    return all(state.moved.get(n) == hand for n, _ in people)


def rating(state: TableState, event: HandEnded) -> HandRated:
    """The hand's sides as openskill teams (players only), their ranks, and who won."""
    match = state.match
    assert match is not None
    players = [s.player for s in state.seats if s is not None and s.player is not None]
    if match.state.teams:
        sides = [[players[0], players[2]], [players[1], players[3]]]
    else:
        sides = [[p] for p in players]
    ranks = hand_ranks(event.result, event.hands, match.state.teams,
                       match.rules.penalties(state.players))
    winner = event.result.winner
    return HandRated(state.variant, sides, ranks, [] if winner is None else sides[winner])

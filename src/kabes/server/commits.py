"""What one group commit writes: the entries of many tables, their effects, the heartbeat.

The store's writer (``kabes.server.store``) gathers every entry waiting and calls
:func:`write` in one transaction. Everything here runs inside that transaction, so a table's
status, its matches and its players' ratings are kept together with the entry that caused
them or not at all. The statements a busy server runs at every commit are built once, here,
and run with many rows at a time where they can be.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import msgspec
import sqlalchemy as sa
from openskill.models import PlackettLuce

from kabes.server.effects import Effect, HandRated, MatchFinished, MatchStarted, TableStatus
from kabes.server.schema import match_players, matches, ratings, servers, table_events, tables
from kabes.server.tablelog import Entry

_JSON = msgspec.json.Encoder().encode
"""An entry's data as compact JSON (the log is read back with any JSON reader)."""

MODEL = PlackettLuce()
"""The rating model (openskill's Plackett-Luce): partners are one team in team variants."""


@dataclass(slots=True)
class Pending:
    """An entry of table ``code`` waiting to be committed, with its effects, and the future
    its writer awaits; with no entry, a heartbeat."""

    code: str | None
    entry: Entry | None
    effects: list[Effect]
    done: asyncio.Future[None]


_RATINGS_OF = (
    sa.select(ratings.c.player, ratings.c.mu, ratings.c.sigma)
    .where(ratings.c.variant == sa.bindparam("variant"),
           ratings.c.player.in_(sa.bindparam("players", expanding=True)))
)
_RATE_HAND = (
    ratings.update()
    .where(ratings.c.player == sa.bindparam("who"), ratings.c.variant == sa.bindparam("game"))
    .values(mu=sa.bindparam("new_mu"), sigma=sa.bindparam("new_sigma"),
            hands=ratings.c.hands + 1, hands_won=ratings.c.hands_won + sa.bindparam("won"))
)
_COUNT_MATCH = (
    ratings.update()
    .where(ratings.c.player == sa.bindparam("who"), ratings.c.variant == sa.bindparam("game"))
    .values(matches=ratings.c.matches + 1,
            matches_won=ratings.c.matches_won + sa.bindparam("won"))
)
_SET_STATUS = (
    tables.update().where(tables.c.code == sa.bindparam("table"))
    .values(status=sa.bindparam("new_status"), updated_at=sa.bindparam("now"))
)


def write(conn: sa.Connection, batch: list[Pending], server: str) -> dict[int, int]:
    """The entries of ``batch`` whose epoch is their table's, their effects, and the
    heartbeat if one is asked for; the refused: {index in batch: the table's epoch}.

    The tables' epochs are read under a shared lock (PostgreSQL ``FOR SHARE``; SQLite has one
    writer at a time), so no claim can raise one between this check and the commit. A table
    with no row yet is one being created: its first entry's effects make its row."""
    codes = sorted({item.code for item in batch if item.entry is not None and item.code})
    epochs: dict[str, int] = {}
    for start in range(0, len(codes), 500):
        part = codes[start:start + 500]
        epochs.update((str(c), int(e)) for c, e in conn.execute(
            sa.select(tables.c.code, tables.c.epoch).where(tables.c.code.in_(part))
            .order_by(tables.c.code).with_for_update(read=True)
        ))
    rows = []
    refused: dict[int, int] = {}
    kept: list[Pending] = []
    beat = False
    for index, item in enumerate(batch):
        if item.entry is None:
            beat = True
            continue
        entry = item.entry
        assert item.code is not None
        current = epochs.get(item.code)
        if current is not None and current != entry.epoch:
            refused[index] = current
            continue
        kept.append(item)
        rows.append({
            "code": item.code,
            "seq": entry.seq,
            "kind": entry.kind,
            "data": _JSON(entry.data).decode(),
            "at": entry.at,
            "seat": entry.seat,
            "action": entry.action,
            "epoch": entry.epoch,
        })
    if rows:
        conn.execute(table_events.insert(), rows)
    now = time.time()
    statuses: list[dict[str, object]] = []
    born: dict[str, dict[str, object]] = {}
    """The tables with no row yet (being created: a round's 500 at once), their row as this
    batch leaves it: one insert each, all in one statement."""
    for item in kept:
        assert item.entry is not None
        for effect in item.effects:
            if isinstance(effect, TableStatus) and effect.code in epochs:
                statuses.append({"table": effect.code, "new_status": effect.status, "now": now})
            elif isinstance(effect, TableStatus):
                born[effect.code] = {"code": effect.code, "status": effect.status,
                                     "created_at": now, "updated_at": now,
                                     "epoch": item.entry.epoch, "owner": server}
            else:
                _carry_out(conn, effect, now)
    if born:
        conn.execute(tables.insert(), list(born.values()))
    if statuses:  # tables whose row exists: one statement for all of them
        conn.execute(_SET_STATUS, statuses)
    if beat:
        _beat(conn, now, server)
    return refused


def _carry_out(conn: sa.Connection, effect: Effect, now: float) -> None:
    """One effect (not a status: :func:`write` keeps those), inside the transaction that
    keeps its entry."""
    if isinstance(effect, MatchStarted):
        conn.execute(matches.insert().values(
            code=effect.code, variant=effect.variant, players=effect.players,
            rated=effect.rated, started_at=now, finished=False))
        if effect.people:
            conn.execute(match_players.insert(), [
                {"code": effect.code, "seat": seat, "player": player, "won": False}
                for seat, player in effect.people
            ])
    elif isinstance(effect, HandRated):
        _rate_hand(conn, effect)
    elif isinstance(effect, MatchFinished):
        _finish_match(conn, effect, now)


def _finish_match(conn: sa.Connection, effect: MatchFinished, now: float) -> None:
    conn.execute(
        matches.update().where(matches.c.code == effect.code).values(
            finished=True, finished_at=now,
            record=json.dumps(effect.record, separators=(",", ":")))
    )
    if effect.winners:
        conn.execute(
            match_players.update()
            .where(match_players.c.code == effect.code)
            .where(match_players.c.player.in_(effect.winners))
            .values(won=True)
        )
    if effect.rated:
        people = sorted(set(effect.players))
        _ratings_of(conn, people, effect.variant)
        conn.execute(_COUNT_MATCH, [
            {"who": p, "game": effect.variant, "won": int(p in effect.winners)} for p in people
        ])


def _ratings_of(
    conn: sa.Connection, people: list[int], variant: str
) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) in ``variant``, a new player's row made at the model's
    starting rating."""
    found = {int(p): (float(mu), float(sigma)) for p, mu, sigma in conn.execute(
        _RATINGS_OF, {"variant": variant, "players": people})}
    missing = sorted(set(people) - set(found))
    if missing:
        fresh = MODEL.rating()
        conn.execute(ratings.insert(), [
            {"player": p, "variant": variant, "mu": fresh.mu, "sigma": fresh.sigma,
             "hands": 0, "hands_won": 0, "matches": 0, "matches_won": 0}
            for p in missing
        ])
        found.update((p, (float(fresh.mu), float(fresh.sigma))) for p in missing)
    return found


def _rate_hand(conn: sa.Connection, effect: HandRated) -> None:
    """openskill (Plackett-Luce) over the hand's teams and ranks, plus the hand counts."""
    known = _ratings_of(conn, sorted({p for team in effect.teams for p in team}),
                        effect.variant)
    teams = [[MODEL.rating(*known[p]) for p in team] for team in effect.teams]
    rated = MODEL.rate(teams, ranks=[float(r) for r in effect.ranks])
    conn.execute(_RATE_HAND, [
        {"who": player, "game": effect.variant, "new_mu": rating.mu,
         "new_sigma": rating.sigma, "won": int(player in effect.won)}
        for team, new in zip(effect.teams, rated, strict=True)
        for player, rating in zip(team, new, strict=True)
    ])


def _beat(conn: sa.Connection, now: float, server: str) -> None:
    updated = conn.execute(
        servers.update().where(servers.c.id == server).values(heartbeat_at=now)
    )
    if updated.rowcount == 0:
        conn.execute(servers.insert().values(id=server, heartbeat_at=now))

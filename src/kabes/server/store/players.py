"""A player's page (``GET /api/players/{id}``; PROTOCOL.md, "Rankings over HTTP" and "Players,
replays and rankings"): name, ratings and the counts behind them, rating history, the latest
matches (each with its result in a word, the others at the table and the score) and the
tournaments entered with their places.

Bounded: the newest :data:`MATCHES_SHOWN` matches and :data:`TOURNAMENTS_SHOWN` tournaments,
a handful of indexed queries whatever the player has played.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kabes.rules import VARIANTS
from kabes.server.store.history import history_of, rating
from kabes.server.store.puzzles import card_of
from kabes.server.store.schema import (
    match_players,
    matches,
    players,
    ratings,
    tournament_players,
    tournaments,
)

MATCHES_SHOWN = 200
"""A player's matches on their page (the newest)."""
TOURNAMENTS_SHOWN = 50
"""A player's tournaments on their page (the newest)."""


async def player_page(conn: AsyncConnection, player: int, own: bool) -> dict[str, Any] | None:
    """A player's name, ratings, counts and history by variant, matches and tournaments,
    newest first (PROTOCOL.md). A private table's code (and a private tournament's id)
    is shown only on the player's ``own`` page: to anyone else it is null; a public
    table's code is shown to anyone, so that its replay can be opened."""
    row = (await conn.execute(
        sa.select(players.c.name).where(players.c.id == player)
    )).first()
    if row is None:
        return None
    rated = (await conn.execute(
        sa.select(ratings.c.variant, ratings.c.mu, ratings.c.sigma, ratings.c.hands,
                  ratings.c.hands_won, ratings.c.matches, ratings.c.matches_won)
        .where(ratings.c.player == player)
    )).all()
    # The newest matches from the index of (player, start) alone, then their rows.
    newest = (
        sa.select(match_players.c.code, match_players.c.won, match_players.c.seat,
                  match_players.c.started_at)
        .where(match_players.c.player == player)
        .order_by(match_players.c.started_at.desc())
        .limit(MATCHES_SHOWN)
    ).subquery()
    played = (await conn.execute(
        sa.select(newest.c.code, matches.c.variant, matches.c.finished, newest.c.won,
                  matches.c.started_at, matches.c.public, matches.c.abandoned,
                  matches.c.scores, matches.c.seats, newest.c.seat)
        .join(matches, matches.c.code == newest.c.code)
        .order_by(newest.c.started_at.desc())
    )).all()
    history = await history_of(conn, player)
    unseated = [str(m[0]) for m in played if m[8] is None]
    people = await _people_of(conn, unseated) if unseated else {}
    entered = (await conn.execute(
        sa.select(tournaments.c.id, tournaments.c.variant, tournaments.c.status,
                  tournaments.c.public, tournaments.c.host, tournaments.c.host_name,
                  tournaments.c.created_at, tournament_players.c.place,
                  tournament_players.c.entrants)
        .join(tournament_players, tournament_players.c.tournament == tournaments.c.id)
        .where(tournament_players.c.player == player)
        .order_by(tournaments.c.created_at.desc())
        .limit(TOURNAMENTS_SHOWN)
    )).all()
    return {
        "player": player,
        "name": row[0],
        "ratings": {v: rating(mu, sigma) for v, mu, sigma, *_ in rated},
        "stats": {v: {"hands": int(h), "hands_won": int(hw), "matches": int(m),
                      "matches_won": int(mw)}
                  for v, _mu, _sigma, h, hw, m, mw in rated},
        "history": history,
        "puzzles": await card_of(conn, player),
        "matches": [_match_row(m, own, people) for m in played],
        "tournaments": [
            {"id": tid if own or public else None, "variant": variant,
             "status": status, "public": bool(public), "host": host,
             "host_name": host_name, "created": created, "place": place,
             "of": entrants}
            for tid, variant, status, public, host, host_name, created, place, entrants
            in entered
        ],
    }


async def _people_of(conn: AsyncConnection, codes: list[str]
                     ) -> dict[str, list[tuple[int, int, str]]]:
    """(seat, player, name) of the people of each match of ``codes`` (matches begun before
    their seats were kept with them): one query."""
    found: dict[str, list[tuple[int, int, str]]] = {}
    rows = (await conn.execute(
        sa.select(match_players.c.code, match_players.c.seat, match_players.c.player,
                  players.c.name)
        .join(players, players.c.id == match_players.c.player)
        .where(match_players.c.code.in_(codes)))).all()
    for code, seat, who, name in rows:
        found.setdefault(str(code), []).append((int(seat), int(who), str(name)))
    return found


def _match_row(m: Any, own: bool, people: dict[str, list[tuple[int, int, str]]]
               ) -> dict[str, Any]:
    """One match of a player's page: its code if public or ``own``, its result in a word,
    the others at the table (partners, opponents), and the score (own party's first)."""
    code, variant, finished, won, started, public, abandoned, scores, seats, seat = m
    if not finished:
        result = "playing"
    elif abandoned:
        result = "abandoned"
    else:
        result = "won" if won else "lost"
    rules = VARIANTS.get(variant)
    teams = rules is not None and rules.teams

    def party(n: int) -> int:
        return n % 2 if teams else n

    if seats is not None:
        sat = [(n, who, name) for n, (who, name) in enumerate(json.loads(seats))]
    else:
        sat = [(n, who, name) for n, who, name in people.get(str(code), [])]
    mine = party(int(seat))
    partners: list[dict[str, Any]] = []
    opponents: list[dict[str, Any]] = []
    for n, who, name in sat:
        if n == seat:
            continue
        person = {"player": who, "name": name, "computer": who is None}
        (partners if party(n) == mine else opponents).append(person)
    score = None
    if scores is not None:
        by_party = [int(x) for x in json.loads(scores)]
        if 0 <= mine < len(by_party):
            score = {"own": by_party[mine],
                     "others": [x for n, x in enumerate(by_party) if n != mine]}
    return {"code": code if own or public else None, "variant": variant,
            "finished": bool(finished), "won": bool(won), "started": started,
            "result": result, "public": bool(public), "partners": partners,
            "opponents": opponents, "score": score}

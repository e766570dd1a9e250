"""Whole matches played with the engine's own API, by code that runs the same in CPython and
in Pyodide (the offline pack, run by Node through offline/run.mjs): the offline tests and
bench/offline.py play them in both and compare.

Standard library and the pack's ``kabes`` packages only: this file is run inside Pyodide.
"""

from __future__ import annotations

import json
import time
from random import Random
from typing import Any

from kabes.ai import LEVELS, Player, make_player
from kabes.ai.expert import Expert
from kabes.match import Match
from kabes.records import to_record
from kabes.rules import VARIANTS, get_rules
from kabes.views import view

SHORTEST = ("target", "hands")
"""The options that set a match's length; each game takes the least its variant allows."""


def short_options(variant: str, players: int) -> dict[str, Any]:
    """The options that make the shortest match of ``variant`` at ``players`` seats."""
    specs = get_rules(variant).option_specs(players)
    return {name: min(spec.choices) for name, spec in specs.items()
            if name in SHORTEST and spec.choices and len(spec.choices) > 1}


def every_game(seed: int = 1) -> list[dict[str, Any]]:
    """Every variant at every seat count, with as many matches as it takes for each of the
    four levels to sit at it (the levels in turn round the seats)."""
    games: list[dict[str, Any]] = []
    for variant, rules in VARIANTS.items():
        for players in rules.seat_counts:
            for k in range(-(-len(LEVELS) // players)):
                levels = [LEVELS[(k * players + seat) % len(LEVELS)] for seat in range(players)]
                games.append({"variant": variant, "players": players, "levels": levels,
                              "options": short_options(variant, players),
                              "seed": seed + len(games)})
    return games


def computer(level: str, rng: Random, expert: dict[str, Any]) -> Player:
    """A level's player; the expert thinks ``expert["budget"]`` seconds, or searches exactly
    ``expert["worlds"]`` worlds where that is given (the same moves wherever it runs)."""
    if level == "expert" and expert.get("worlds"):
        return Expert(rng, expert["budget"], max_worlds=expert["worlds"])
    return make_player(level, rng, expert["budget"])


def play(game: dict[str, Any], expert: dict[str, Any]) -> dict[str, Any]:
    """Play ``game`` to its end; its record, and each level's moves and seconds choosing."""
    seed = game["seed"]
    match = Match(game["variant"], game["players"], game["options"], Random(seed))
    seats = [computer(level, Random(seed * 31 + seat), expert)
             for seat, level in enumerate(game["levels"])]
    spent: dict[str, list[float]] = {level: [0, 0.0] for level in game["levels"]}
    while not match.over:
        if not match.hand_in_progress:
            match.deal_hand()
            continue
        seat = match.turn
        assert seat is not None
        start = time.perf_counter()
        move = seats[seat].choose(view(match, seat))
        took = spent[game["levels"][seat]]
        took[0] += 1
        took[1] += time.perf_counter() - start
        match.apply(seat, move)
    return {**game, "record": to_record(match), "spent": spent}


def run(text: str) -> str:
    """What offline/run.mjs calls: a list of ``{"games": [...], "expert": {...}}`` as JSON
    in; for each, the games played (:func:`play`), as JSON out."""
    return json.dumps([[play(game, asked["expert"]) for game in asked["games"]]
                       for asked in json.loads(text)])

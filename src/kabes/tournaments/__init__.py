"""The pure rules of tournaments (PROTOCOL.md, "Tournaments"): who the entrants are, how each
round is paired in each format, and the standings with their tie-breaks.

No server, no store, no clock: the server folds its log into these values and asks them what
the next round is, so the same rules can be tested (and property-tested) on their own.
"""

from __future__ import annotations

from kabes.tournaments.entrants import Entry, form_entrants
from kabes.tournaments.formats import FORMATS, sides_per_table, unplayable
from kabes.tournaments.knockout import knockout_round, knockout_rounds
from kabes.tournaments.model import Pairing, Result, Round
from kabes.tournaments.round_robin import round_robin_round, round_robin_rounds
from kabes.tournaments.standings import Standing, standings
from kabes.tournaments.swiss import swiss_round

__all__ = [
    "FORMATS",
    "Entry",
    "Pairing",
    "Result",
    "Round",
    "Standing",
    "form_entrants",
    "knockout_round",
    "knockout_rounds",
    "round_robin_round",
    "round_robin_rounds",
    "sides_per_table",
    "standings",
    "swiss_round",
    "unplayable",
]

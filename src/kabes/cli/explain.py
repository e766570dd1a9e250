"""The engine's explanation of a hand, in the terminal's words.

After every hand the engine says, step by step, how its points follow from the pips left
(:mod:`kabes.explain`: stable codes and their facts, listed in docs/rules.md). This module
only words those steps, one sentence per step (a Mexican Train round's penalties in one line):
the terminal never works points out itself, so whatever the engine decided is what it says.
``WORDING`` has a sentence for every code; ``ENDINGS`` says each named ending in a sentence,
the first time it happens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kabes.cli.describe import NAMES
from kabes.cli.words import Names, and_list
from kabes.explain import Step

ENDINGS = {
    "tonbe": "TONBE: going out with a last tile that fits only one end.",
    "2-kabes": "2 KABÈS: going out with a last tile that could have gone on either end "
    "(its two numbers matched the two ends, which showed different numbers).",
    "blok": "BLÒK: nobody can play and the stock is empty; the lowest count wins.",
    "capicu": "Capicú: going out with a tile that fits both ends while they show different "
    "numbers.",
    "blocked": "Blocked: nobody can play and nobody can draw, so the hands are counted.",
    "kochon": "Kochon: winning the match while the other side is still at zero.",
    "wa": "Wa (king): the lowest penalty total at the end of the match.",
}
"""Each named ending, said once, the first time it happens in a game."""

Facts = Mapping[str, Any]
Counts = Sequence[int] | None
"""The pips left per seat, from the explanation's ``counts`` step, for sums shown in full."""


def endings_named(steps: Sequence[Step]) -> list[str]:
    """The named endings an explanation shows, as keys of ``ENDINGS``."""
    codes = {s.code for s in steps}
    named = [str(s.facts["name"]) for s in steps if s.code == "named"]
    if not named and "capicu" in codes:
        named.append("capicu")
    if not named and codes & {"blocked", "round_blocked"}:
        named.append("blocked")
    return named + [code for code in ("kochon", "wa") if code in codes]


def word_explanation(steps: Sequence[Step], names: Names) -> list[str]:
    """The explanation's steps in sentences, in the engine's order."""
    counts: Counts = next((s.facts["counts"] for s in steps if s.code == "counts"), None)
    lines: list[str] = []
    penalties: list[Facts] = []
    for s in [*steps, None]:
        if s is not None and s.code == "penalty_pips":
            penalties.append(s.facts)
            continue
        if penalties:
            lines.append(_penalties(penalties, names))
            penalties = []
        if s is not None:
            lines.append(word_step(s, names, counts))
    return lines


def word_step(s: Step, names: Names, counts: Counts = None) -> str:
    """One step in a sentence (a code without wording says so rather than fail)."""
    wording = WORDING.get(s.code)
    if wording is None:
        return f"({s.code})"
    return wording(s.facts, names, counts)


def _sum(values: Sequence[int], total: int | None = None) -> str:
    total = sum(values) if total is None else total
    if len(values) <= 1:
        return str(total)
    return " + ".join(map(str, values)) + f" = {total}"


def _seats(seats: Sequence[int], names: Names) -> str:
    return and_list([names.seat_in_text(s) for s in seats])


def _parties(parties: Sequence[int], names: Names) -> str:
    return and_list([names.party(p) for p in parties])


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _went_out(f: Facts, n: Names, _c: Counts) -> str:
    return f"{n.says(f['seat'], 'play', 'plays')} {n.their(f['seat'])} last tile, {f['tile']}."


def _blocked(f: Facts, n: Names, _c: Counts) -> str:
    return (f"Nobody can play and nobody can draw: the hand is blocked "
            f"({n.seat_in_text(f['seat'])} played the last tile).")


def _round_blocked(f: Facts, n: Names, _c: Counts) -> str:
    return (f"Nobody can play and the stock is empty: the round is blocked "
            f"({n.seat_in_text(f['seat'])} passed last).")


def _capicu(f: Facts, n: Names, _c: Counts) -> str:
    return f"Capicú: {f['tile']} fitted both ends, which showed different numbers."


def _named(f: Facts, _n: Names, _c: Counts) -> str:
    return f"The hand ends in a {NAMES[f['name']]}."


def _counts(f: Facts, n: Names, _c: Counts) -> str:
    counts: list[int] = f["counts"]
    if n.teams:
        held = [f"{n.party(p)} hold {_sum(_team(counts, p, n), f['totals'][p])}" for p in (0, 1)]
    else:
        held = [f"{n.seat(s)} {c}" for s, c in enumerate(counts)]
    return f"Left in hand: {', '.join(held)}."


def _team(counts: Sequence[int], party: int, n: Names) -> list[int]:
    """A team's counts, in the order ``Names.party`` names its players."""
    first = n.viewer if n.viewer is not None and n.viewer % 2 == party else party
    return [counts[first], counts[(first + 2) % 4]]


def _lower_total_wins(f: Facts, n: Names, _c: Counts) -> str:
    totals = f["totals"]
    return (f"The lower {'total' if n.teams else 'count'} wins: "
            f"{n.party(f['party'])} with {totals[f['party']]}.")


def _tie_to_last_player(f: Facts, n: Names, _c: Counts) -> str:
    return (f"Equal totals ({f['total']}), so the team that played the last tile wins: "
            f"{n.party(f['party'])}.")


def _tie_nobody_scores(f: Facts, _n: Names, _c: Counts) -> str:
    return f"Equal counts ({f['total']} each): nobody scores."


def _blocker_wins_block(f: Facts, n: Names, _c: Counts) -> str:
    return ("This table gives a blocked hand to the side that played the last tile: "
            f"{n.party(f['party'])}.")


def _scores_pips(f: Facts, n: Names, c: Counts) -> str:
    seats: list[int] = f["seats"]
    what = {
        None: "the opponents' two hands",
        "all_hands": "every pip left" + (", partners' included" if n.teams else ""),
        "losers_only": "the losing side's pips",
    }.get(f.get("rule"), "the pips")
    shown = _sum([c[s] for s in seats], f["pips"]) if c is not None else str(f["pips"])
    return f"{n.party_says(f['party'], 'score', 'scores')} {what}: {shown}."


def _capicu_bonus(f: Facts, n: Names, _c: Counts) -> str:
    return f"Capicú bonus: {n.party(f['party'])} +{f['bonus']}."


def _lowest_hand_wins(f: Facts, n: Names, _c: Counts) -> str:
    return f"The lowest count wins: {n.seat_in_text(f['seat'])}, with {f['count']}."


def _tie_blocker_wins(f: Facts, n: Names, _c: Counts) -> str:
    return (f"{_cap(_seats(f['seats'], n))} share the lowest count ({f['count']}); "
            f"the blocker, {n.seat_in_text(f['blocker'])}, is one of them and wins.")


def _tie_first_after_blocker(f: Facts, n: Names, _c: Counts) -> str:
    return (f"{_cap(_seats(f['seats'], n))} share the lowest count ({f['count']}); the first "
            f"of them in play order after the blocker ({n.seat_in_text(f['blocker'])}) wins: "
            f"{n.seat_in_text(f['seat'])}.")


def _tie_across_teams_blocker(f: Facts, n: Names, _c: Counts) -> str:
    return (f"The lowest hands ({f['count']}: {_seats(f['seats'], n)}) are on both teams, "
            f"so the blocker's team wins: {n.party(f['party'])}.")


def _winner_points(f: Facts, n: Names, _c: Counts) -> str:
    return f"{NAMES[f['name']]} gives the winner {f['points']}: {n.party(f['party'])} " \
        f"+{f['points']}."


def _losing_team_reset(f: Facts, n: Names, _c: Counts) -> str:
    had = f" (from {f['score_before']})" if f["score_before"] else ""
    return f"{n.party_says(f['party'], 'go', 'goes')} back to 0{had}: a team that loses a " \
        "hand loses its points."


def _penalty_to_highest(f: Facts, n: Names, _c: Counts) -> str:
    seat = f["seat"]
    who = n.seat_in_text(seat) + (" hold" if seat == n.viewer else " holds")
    return (f"Only the highest count takes a penalty: {who} {f['count']}, "
            f"+{f['points']} for a {NAMES[f['name']]}.")


def _penalty_tie(f: Facts, n: Names, _c: Counts) -> str:
    return (f"{_cap(_seats(f['seats'], n))} hold {f['count']}: the first of them after the "
            f"winner ({n.seat_in_text(f['winner'])}) in play order takes it: "
            f"{n.seat_in_text(f['seat'])}.")


def _fewest_pips(f: Facts, n: Names, _c: Counts) -> str:
    return f"Nobody went out; {_seats(f['seats'], n)} kept the fewest pips ({f['pips']})."


def _nobody_wins(_f: Facts, _n: Names, _c: Counts) -> str:
    return "A blocked round has no winner: everyone still pays what they hold."


def _double_blank_50(f: Facts, n: Names, _c: Counts) -> str:
    return (f"A 0-0 left in hand counts {f['points']} at this table: "
            f"{n.seat_in_text(f['seat'])} kept it.")


def _penalties(steps: Sequence[Facts], n: Names) -> str:
    each = ", ".join(f"{n.seat(f['seat'])} {f['points']}" for f in steps)
    return f"Everyone takes the pips left in hand as a penalty: {each}."


def _penalty_pips(f: Facts, n: Names, _c: Counts) -> str:
    return _penalties([f], n)


LEADS = {
    "rotation": "the seat after {previous}, who led this one",
    "went_out": "who went out",
    "last_tile": "who played the last tile",
    "winner": "the winner of this one",
    "team_lower_hand": "the partner with the lower count in the winning team",
}


def _next_leader(f: Facts, n: Names, _c: Counts) -> str:
    if f["rule"] == "engine_double":
        return f"Next round: whoever holds {f['double']} sets it as the engine and opens."
    why = LEADS.get(f["rule"], "")
    if "{previous}" in why:
        why = why.format(previous=n.seat_in_text(f["previous"]))
    if f["rule"] == "team_lower_hand" and f.get("tie"):
        why += " (equal counts: the first of them from the blocker on)"
    return f"Next hand: {n.says(f['seat'], 'open', 'opens')}, {why}."


def _target_reached(f: Facts, n: Names, _c: Counts) -> str:
    return (f"{n.party_says(f['party'], 'reach', 'reaches')} {f['score']}, at or above the "
            f"target of {f['target']}.")


def _lowest_total(f: Facts, n: Names, _c: Counts) -> str:
    return f"The lowest total wins: {_parties(f['parties'], n)}, with {f['total']}."


def _highest_score(f: Facts, n: Names, _c: Counts) -> str:
    return f"The highest score wins: {_parties(f['parties'], n)}, with {f['score']}."


def _wa_tie_hand_wins(f: Facts, n: Names, _c: Counts) -> str:
    won = ", ".join(f"{n.seat_in_text(s)} {w}" for s, w in zip(f["seats"], f["hand_wins"],
                                                               strict=True))
    return f"Equal lowest totals: whoever won more hands is Wa (hands won: {won})."


def _wa_shared(f: Facts, n: Names, _c: Counts) -> str:
    return f"Still equal: {_seats(f['seats'], n)} are all Wa."


def _wa(f: Facts, n: Names, _c: Counts) -> str:
    return f"Wa: {_seats(f['seats'], n)}, with the lowest penalty total ({f['total']})."


def _match_won(f: Facts, n: Names, _c: Counts) -> str:
    return f"The match goes to {_parties(f['winners'], n)}."


def _kochon(f: Facts, n: Names, _c: Counts) -> str:
    return (f"Kochon! {_cap(_parties(f['winners'], n))} won while "
            f"{_parties(f['at_zero'], n)} still had 0.")


def _finished_by_host(_f: Facts, _n: Names, _c: Counts) -> str:
    return "The host finished the match: it is decided on the scores as they stand."


WORDING: dict[str, Callable[[Facts, Names, Counts], str]] = {
    "went_out": _went_out,
    "blocked": _blocked,
    "round_blocked": _round_blocked,
    "capicu": _capicu,
    "named": _named,
    "counts": _counts,
    "lower_total_wins": _lower_total_wins,
    "tie_to_last_player": _tie_to_last_player,
    "tie_nobody_scores": _tie_nobody_scores,
    "blocker_wins_block": _blocker_wins_block,
    "scores_pips": _scores_pips,
    "capicu_bonus": _capicu_bonus,
    "lowest_hand_wins": _lowest_hand_wins,
    "tie_blocker_wins": _tie_blocker_wins,
    "tie_first_after_blocker": _tie_first_after_blocker,
    "tie_across_teams_blocker": _tie_across_teams_blocker,
    "winner_points": _winner_points,
    "losing_team_reset": _losing_team_reset,
    "penalty_to_highest": _penalty_to_highest,
    "penalty_tie_first_after_winner": _penalty_tie,
    "fewest_pips": _fewest_pips,
    "nobody_wins": _nobody_wins,
    "double_blank_50": _double_blank_50,
    "penalty_pips": _penalty_pips,
    "next_leader": _next_leader,
    "target_reached": _target_reached,
    "lowest_total": _lowest_total,
    "highest_score": _highest_score,
    "wa_tie_hand_wins": _wa_tie_hand_wins,
    "wa_shared": _wa_shared,
    "wa": _wa,
    "match_won": _match_won,
    "kochon": _kochon,
    "finished_by_host": _finished_by_host,
}
"""A sentence for every code of kabes.explain, from its facts."""

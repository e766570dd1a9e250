"""The engine's explanation of a hand, in the terminal's words.

After every hand the engine says, step by step, how its points follow from the pips left
(:mod:`kabes.explain`: stable codes and their facts, listed in docs/rules.md). This module
only words those steps, one sentence per step (a Mexican Train round's penalties in one line):
the terminal never works points out itself, so whatever the engine decided is what it says.
The sentences are the English catalog's (:mod:`kabes.words`, ``explain.<code>``, read through
:func:`kabes.cli.words.say`); this module picks the entry and fills it from the facts.
``WORDING`` words every code; ``ENDINGS`` says each named ending in a sentence, the first time
it happens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kabes.cli.words import Names, and_list, has_words, say, say_to
from kabes.explain import Step

ENDINGS: Mapping[str, str] = {
    name: say(f"ending.about.{name}")
    for name in ("tonbe", "2-kabes", "blok", "capicu", "blocked", "kochon", "wa")
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


def _ending(name: str) -> str:
    return say(f"ending.{name}")


def _you(party: int, n: Names) -> bool:
    """Whether a party takes the "you" form of a verb, as ``Names.party_says`` decides."""
    return n.teams or party == n.viewer


def _went_out(f: Facts, n: Names, _c: Counts) -> str:
    return say_to("explain.went_out", f["seat"] == n.viewer, name=n.seat(f["seat"]),
                  tile=f["tile"])


def _blocked(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.blocked", name=n.seat_in_text(f["seat"]))


def _round_blocked(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.round_blocked", name=n.seat_in_text(f["seat"]))


def _capicu(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.capicu", tile=f["tile"], name=n.seat_in_text(f["seat"]))


def _named(f: Facts, _n: Names, _c: Counts) -> str:
    return say("explain.named", ending=_ending(f["name"]))


def _counts(f: Facts, n: Names, _c: Counts) -> str:
    counts: list[int] = f["counts"]
    if n.teams:
        held = [say("explain.counts.party", party=n.party(p),
                    pips=_sum(_team(counts, p, n), f["totals"][p])) for p in (0, 1)]
    else:
        held = [say("explain.counts.seat", name=n.seat(s), pips=c) for s, c in enumerate(counts)]
    return say("explain.counts", list=", ".join(held))


def _team(counts: Sequence[int], party: int, n: Names) -> list[int]:
    """A team's counts, in the order ``Names.party`` names its players."""
    first = n.viewer if n.viewer is not None and n.viewer % 2 == party else party
    return [counts[first], counts[(first + 2) % 4]]


def _lower_total_wins(f: Facts, n: Names, _c: Counts) -> str:
    key = "explain.lower_total_wins" + (".teams" if n.teams else "")
    return say(key, party=n.party(f["party"]), total=f["totals"][f["party"]])


def _tie_to_last_player(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.tie_to_last_player", total=f["total"], party=n.party(f["party"]))


def _tie_nobody_scores(f: Facts, _n: Names, _c: Counts) -> str:
    return say("explain.tie_nobody_scores", total=f["total"])


def _blocker_wins_block(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.blocker_wins_block", party=n.party(f["party"]))


def _scores_pips(f: Facts, n: Names, c: Counts) -> str:
    seats: list[int] = f["seats"]
    rule = f.get("rule")
    what = {
        None: "explain.scores_pips.what.opponents",
        "all_hands": "explain.scores_pips.what.all_hands" + (".teams" if n.teams else ""),
        "losers_only": "explain.scores_pips.what.losers_only",
    }.get(rule, "explain.scores_pips.what")
    shown = _sum([c[s] for s in seats], f["pips"]) if c is not None else str(f["pips"])
    return say_to("explain.scores_pips", _you(f["party"], n), party=n.party(f["party"]),
                  what=say(what), pips=shown)


def _capicu_bonus(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.capicu_bonus", party=n.party(f["party"]), bonus=f["bonus"])


def _lowest_hand_wins(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.lowest_hand_wins", name=n.seat_in_text(f["seat"]), count=f["count"])


def _tie_blocker_wins(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.tie_blocker_wins", names=_cap(_seats(f["seats"], n)), count=f["count"],
               blocker=n.seat_in_text(f["blocker"]), name=n.seat_in_text(f["seat"]))


def _tie_first_after_blocker(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.tie_first_after_blocker", names=_cap(_seats(f["seats"], n)),
               count=f["count"], blocker=n.seat_in_text(f["blocker"]),
               name=n.seat_in_text(f["seat"]))


def _tie_across_teams_blocker(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.tie_across_teams_blocker", count=f["count"],
               names=_seats(f["seats"], n), party=n.party(f["party"]))


def _winner_points(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.winner_points", ending=_ending(f["name"]), points=f["points"],
               party=n.party(f["party"]))


def _losing_team_reset(f: Facts, n: Names, _c: Counts) -> str:
    key = "explain.losing_team_reset" + (".from" if f["score_before"] else "")
    return say_to(key, _you(f["party"], n), party=n.party(f["party"]), before=f["score_before"])


def _penalty_to_highest(f: Facts, n: Names, _c: Counts) -> str:
    return say_to("explain.penalty_to_highest", f["seat"] == n.viewer,
                  name=n.seat_in_text(f["seat"]), count=f["count"], points=f["points"],
                  ending=_ending(f["name"]))


def _penalty_tie(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.penalty_tie_first_after_winner", names=_cap(_seats(f["seats"], n)),
               count=f["count"], winner=n.seat_in_text(f["winner"]),
               name=n.seat_in_text(f["seat"]))


def _fewest_pips(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.fewest_pips", names=_seats(f["seats"], n), pips=f["pips"])


def _nobody_wins(_f: Facts, _n: Names, _c: Counts) -> str:
    return say("explain.nobody_wins")


def _double_blank_50(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.double_blank_50", points=f["points"], name=n.seat_in_text(f["seat"]))


def _penalties(steps: Sequence[Facts], n: Names) -> str:
    each = [say("explain.penalty_pips.seat", name=n.seat(f["seat"]), points=f["points"])
            for f in steps]
    return say("explain.penalty_pips", list=", ".join(each))


def _penalty_pips(f: Facts, n: Names, _c: Counts) -> str:
    return _penalties([f], n)


def _next_leader(f: Facts, n: Names, _c: Counts) -> str:
    rule = f["rule"]
    if rule == "engine_double":
        return say("explain.next_leader.engine_double", double=f["double"])
    why = f"explain.next_leader.why.{rule}"
    if rule == "team_lower_hand" and f.get("tie"):
        why += ".tie"
    previous = n.seat_in_text(f["previous"]) if "previous" in f else ""
    reason = say(why, previous=previous) if has_words(why) else ""
    return say_to("explain.next_leader", f["seat"] == n.viewer, name=n.seat(f["seat"]),
                  why=reason)


def _target_reached(f: Facts, n: Names, _c: Counts) -> str:
    return say_to("explain.target_reached", _you(f["party"], n), party=n.party(f["party"]),
                  score=f["score"], target=f["target"])


def _lowest_total(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.lowest_total", names=_parties(f["parties"], n), total=f["total"])


def _highest_score(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.highest_score", names=_parties(f["parties"], n), score=f["score"])


def _wa_tie_hand_wins(f: Facts, n: Names, _c: Counts) -> str:
    won = [say("explain.wa_tie_hand_wins.seat", name=n.seat_in_text(s), wins=w)
           for s, w in zip(f["seats"], f["hand_wins"], strict=True)]
    return say("explain.wa_tie_hand_wins", list=", ".join(won))


def _wa_shared(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.wa_shared", names=_seats(f["seats"], n))


def _wa(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.wa", names=_seats(f["seats"], n), total=f["total"])


def _match_won(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.match_won", names=_parties(f["winners"], n))


def _kochon(f: Facts, n: Names, _c: Counts) -> str:
    return say("explain.kochon", names=_cap(_parties(f["winners"], n)),
               losers=_parties(f["at_zero"], n))


def _finished_by_host(_f: Facts, _n: Names, _c: Counts) -> str:
    return say("explain.finished_by_host")


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

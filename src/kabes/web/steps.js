// steps.js — how each step of a hand's explanation is told (kabes.explain: a stable code and
// its facts, listed in docs/rules.md), composed once for both clients: the catalog entry that
// words it and what fills each of its placeholders. The web page words a step with it
// (explain.js) and so does the terminal (kabes/cli/explain.py, which reads what follows
// "STEPS =" as plain JSON); each client only names seats and parties and joins lists its own way,
// and reads its own catalog's words (the terminal's "terminal.*" entries first).
//
// A code's entry (a code with none is worded by its entry alone, without placeholders):
// - "params": each placeholder and where its value comes from, a path into the step's facts:
//   "tile" (the fact as it is), "totals[party]" (a fact indexed by another), and in a list's
//   item "@" (the item), "@seat" (a field of it), "#" (its index), "hand_wins[#]"; with a kind
//   before a colon: "seat:winner", "seats:seats", "party:party", "parties:winners" (names),
//   "ending:name" (an ending's name, "ending.<name>"), "sum:seats=pips" (those seats' counts
//   added up to the fact pips, "3 + 5 = 8"), "team_sum:#" (team #'s counts added up to its
//   total); or a phrase of its own, {"key", "refine", "params"}, worded only where the chosen
//   text has its placeholder; or a list, {"each": path, "key", "params"}, an item per element,
//   joined with the catalog's "list.items".
// - "refine": what makes the entry more precise, in order: "rule" (a fact's value: .all_hands),
//   "teams" (.teams, at a team table), "you:seat" or "you:party" (.you, where that seat is the
//   reader, or a team: the "you" form of a verb), "score_before?from" (.from, when the fact is
//   set). A client reads the most precise entry its catalog has: explain.scores_pips.all_hands.you,
//   else .all_hands or .you, else explain.scores_pips.
// - "teams": the entry to use instead at a team table.
// - "merge": "list": steps of this code in a row are told as one, their facts in "list".
// - "pips_left": the fact of this step that holds the pips left per seat, which the other steps'
//   sums add up.

export const STEPS = {
  "went_out": {"refine": ["you:seat"], "params": {"name": "seat:seat", "tile": "tile"}},
  "blocked": {"params": {"name": "seat:seat"}},
  "round_blocked": {"params": {"name": "seat:seat"}},
  "capicu": {"params": {"name": "seat:seat", "tile": "tile"}},
  "named": {"refine": ["name"], "params": {"ending": "ending:name"}},
  "counts": {
    "pips_left": "counts",
    "params": {"list": {"each": "counts", "key": "explain.counts.seat", "params": {"name": "seat:#", "pips": "@"}}},
    "teams": {"params": {"list": {"each": "totals", "key": "explain.counts.party", "params": {"party": "party:#", "pips": "team_sum:#"}}}}
  },
  "lower_total_wins": {"refine": ["teams"], "params": {"party": "party:party", "total": "totals[party]"}},
  "tie_to_last_player": {"params": {"party": "party:party", "total": "total"}},
  "tie_nobody_scores": {"params": {"total": "total"}},
  "blocker_wins_block": {"params": {"party": "party:party"}},
  "scores_pips": {"refine": ["rule", "you:party"], "params": {
    "party": "party:party", "pips": "sum:seats=pips",
    "what": {"key": "explain.scores_pips.what", "refine": ["rule", "teams"]}}},
  "capicu_bonus": {"params": {"party": "party:party", "bonus": "bonus"}},
  "lowest_hand_wins": {"params": {"name": "seat:seat", "count": "count"}},
  "tie_blocker_wins": {"params": {"names": "seats:seats", "count": "count", "name": "seat:seat", "blocker": "seat:blocker"}},
  "tie_first_after_blocker": {"params": {"names": "seats:seats", "count": "count", "name": "seat:seat", "blocker": "seat:blocker"}},
  "tie_across_teams_blocker": {"params": {"names": "seats:seats", "count": "count", "party": "party:party"}},
  "winner_points": {"params": {"ending": "ending:name", "party": "party:party", "points": "points"}},
  "losing_team_reset": {"refine": ["score_before?from", "you:party"], "params": {"party": "party:party", "before": "score_before"}},
  "penalty_to_highest": {"refine": ["you:seat"], "params": {"name": "seat:seat", "count": "count", "points": "points", "ending": "ending:name"}},
  "penalty_tie_first_after_winner": {"params": {"names": "seats:seats", "count": "count", "winner": "seat:winner", "name": "seat:seat"}},
  "fewest_pips": {"params": {"names": "seats:seats", "pips": "pips"}},
  "nobody_wins": {},
  "double_blank_50": {"params": {"name": "seat:seat", "points": "points"}},
  "penalty_pips": {"merge": "list", "params": {"list": {"each": "list", "key": "explain.penalty_pips.seat", "params": {"name": "seat:@seat", "points": "@points"}}}},
  "next_leader": {"refine": ["rule", "you:seat"], "params": {
    "name": "seat:seat", "previous": "seat:previous", "double": "double",
    "why": {"key": "explain.next_leader.why", "refine": ["rule", "tie?tie"], "params": {"previous": "seat:previous"}}}},
  "target_reached": {"refine": ["you:party"], "params": {"party": "party:party", "score": "score", "target": "target"}},
  "lowest_total": {"params": {"names": "parties:parties", "total": "total"}},
  "highest_score": {"params": {"names": "parties:parties", "score": "score"}},
  "wa_tie_hand_wins": {"params": {"list": {"each": "seats", "key": "explain.wa_tie_hand_wins.seat", "params": {"name": "seat:@", "wins": "hand_wins[#]"}}}},
  "wa_shared": {"params": {"names": "seats:seats"}},
  "wa": {"params": {"names": "seats:seats", "total": "total"}},
  "match_won": {"params": {"names": "parties:winners"}},
  "kochon": {"params": {"names": "parties:winners", "losers": "parties:at_zero"}},
  "finished_by_host": {}
};

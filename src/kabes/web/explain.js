// explain.js — the engine's words turned into the player's: how a hand's points were counted
// (view.last_hand.explanation, a list of {code, facts}, see docs/rules.md) and why a move was
// refused (the socket error's reason and facts). The client never works points or refusals
// out itself: each code has its words in the language's catalog (kabes/words/catalogs, the
// same files the terminal reads), "explain.<code>" or "refuse.<reason>", filled from the
// facts; a refusal without its own key falls back to the error code's words. This module
// holds no sentence of its own: only which entry to read and the facts that fill it.

import { errorText, has, lang, t } from "./i18n.js";
import { inTeams, parties as teamsOf, partyName, partySeats, seatName } from "./names.js";

/** "a, b and c" in the page's language: the browser's own list words where it knows the
 * language, else the catalog's "list.and". */
function list(items) {
  if (items.length > 1 && !Intl.ListFormat?.supportedLocalesOf?.([lang()]).length) {
    return `${items.slice(0, -1).join(", ")} ${t("list.and")} ${items[items.length - 1]}`;
  }
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

function sum(values, total) {
  return values.length > 1 ? `${values.join(" + ")} = ${total}` : String(total);
}

/** One step in a sentence; a code the page has no words for is left out. */
function stepText(view, table, step, counts) {
  const f = step.facts || {};
  const seat = (s) => seatName(table, s, view.seat);
  const party = (p) => partyName(view, table, p);
  const seats = (list_) => list(list_.map(seat));
  const parties = (list_) => list(list_.map(party));
  const ending = (name) => (has(`ending.${name}`) ? t(`ending.${name}`) : name);
  let key = `explain.${step.code}`;
  let params = {};
  switch (step.code) {
    case "went_out":
    case "capicu":
      params = { name: seat(f.seat), tile: f.tile };
      break;
    case "blocked":
    case "round_blocked":
      params = { name: seat(f.seat) };
      break;
    case "named":
      key = `explain.named.${f.name}`;
      break;
    case "counts": {
      const held = inTeams(view)
        ? teamsOf(view).map((p) => `${party(p)} ${sum(partySeats(view, p).map((s) => f.counts[s]), f.totals[p])}`)
        : f.counts.map((c, s) => `${seat(s)} ${c}`);
      params = { list: held.join(" · ") };
      break;
    }
    case "lower_total_wins":
      params = { party: party(f.party), total: f.totals[f.party] };
      break;
    case "tie_to_last_player":
      params = { party: party(f.party), total: f.total };
      break;
    case "tie_nobody_scores":
      params = { total: f.total };
      break;
    case "blocker_wins_block":
      params = { party: party(f.party) };
      break;
    case "scores_pips":
      if (f.rule) key = `explain.scores_pips.${f.rule}`;
      params = { party: party(f.party), pips: counts ? sum(f.seats.map((s) => counts[s]), f.pips) : f.pips };
      break;
    case "capicu_bonus":
      params = { party: party(f.party), bonus: f.bonus };
      break;
    case "lowest_hand_wins":
      params = { name: seat(f.seat), count: f.count };
      break;
    case "tie_blocker_wins":
    case "tie_first_after_blocker":
      params = { names: seats(f.seats), count: f.count, name: seat(f.seat), blocker: seat(f.blocker) };
      break;
    case "tie_across_teams_blocker":
      params = { names: seats(f.seats), count: f.count, party: party(f.party) };
      break;
    case "winner_points":
      params = { ending: ending(f.name), party: party(f.party), points: f.points };
      break;
    case "losing_team_reset":
      params = { party: party(f.party), before: f.score_before };
      break;
    case "penalty_to_highest":
      params = { name: seat(f.seat), count: f.count, points: f.points, ending: ending(f.name) };
      break;
    case "penalty_tie_first_after_winner":
      params = { names: seats(f.seats), count: f.count, winner: seat(f.winner), name: seat(f.seat) };
      break;
    case "fewest_pips":
      params = { names: seats(f.seats), pips: f.pips };
      break;
    case "double_blank_50":
      params = { name: seat(f.seat), points: f.points };
      break;
    case "penalty_pips":
      params = { list: (f.list || [f]).map((p) => `${seat(p.seat)} +${p.points}`).join(" · ") };
      break;
    case "next_leader":
      if (f.rule !== "rotation") key = `explain.next_leader.${f.rule}`;
      params = { name: f.seat === null ? "" : seat(f.seat), previous: f.previous === undefined ? "" : seat(f.previous), double: f.double };
      break;
    case "target_reached":
      params = { party: party(f.party), score: f.score, target: f.target };
      break;
    case "lowest_total":
      params = { names: parties(f.parties), total: f.total };
      break;
    case "highest_score":
      params = { names: parties(f.parties), score: f.score };
      break;
    case "wa_tie_hand_wins":
      params = { list: f.seats.map((s, i) => `${seat(s)} ${f.hand_wins[i]}`).join(" · ") };
      break;
    case "wa_shared":
      params = { names: seats(f.seats) };
      break;
    case "wa":
      params = { names: seats(f.seats), total: f.total };
      break;
    case "match_won":
      params = { names: parties(f.winners) };
      break;
    case "kochon":
      params = { names: parties(f.winners), losers: parties(f.at_zero) };
      break;
    default:
      break;
  }
  return has(key) ? t(key, params) : null;
}

/** How the points were counted: the explanation's steps in sentences, in the engine's order
 * (a Mexican Train round's penalties in one sentence). */
export function explanationLines(view, table, steps) {
  const counts = steps.find((s) => s.code === "counts")?.facts?.counts;
  const merged = [];
  for (const step of steps) {
    const prev = merged[merged.length - 1];
    if (step.code === "penalty_pips" && prev?.code === "penalty_pips") {
      prev.facts.list.push(step.facts);
    } else if (step.code === "penalty_pips") {
      merged.push({ code: step.code, facts: { list: [step.facts] } });
    } else {
      merged.push(step);
    }
  }
  return merged.map((s) => stepText(view, table, s, counts)).filter((line) => line);
}

/** A train named in the middle of a sentence ("your train", "Mireille’s train"). */
function trainName(view, table, place) {
  const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);
  if (place === "M") return lower(t("train.public"));
  const owner = Number(place);
  if (owner === view?.seat) return lower(t("train.mine"));
  const name = seatName(table, owner, view?.seat);
  const text = t("train.of", { name });
  return text.startsWith(name) ? text : lower(text);
}

/** A refused move in the player's words: from the engine's reason and facts, else from the
 * error's code. */
export function refusalText(view, table, error) {
  const key = `refuse.${error.reason}`;
  if (!error.reason || !has(key)) return errorText(error.code, error.message);
  const f = error.facts || {};
  const params = {
    tile: f.tile,
    forced: f.forced,
    drawn: f.drawn,
    left: f.ends?.[0],
    right: f.ends?.[1],
    shows: f.shows,
    end: f.end,
    side: f.end === "R" ? t("refuse.side.R") : t("refuse.side.L"),
    train: f.train === undefined ? "" : trainName(view, table, f.train),
    double_train: f.double_train === undefined ? "" : trainName(view, table, f.double_train),
    name: f.turn === undefined ? "" : seatName(table, f.turn, view?.seat),
  };
  return t(key, params);
}

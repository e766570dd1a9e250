// names.js — how seats, parties, variants, levels and endings are named on screen, in the
// page's language. A party is a team (team variants: 0 = seats 0 and 2) or a seat. A
// watcher's view has seat null: no "you", no "us".

import { t, has } from "./i18n.js";

export function seatName(table, seat, mySeat) {
  if (seat === mySeat) return t("seat.you");
  const s = table?.seats?.[seat];
  if (!s) return t("seat.empty", { n: seat + 1 });
  if (s.kind === "computer") return t("seat.computer", { n: seat + 1 });
  return s.name;
}

/** Whether the view's variant plays in teams, as its traits say (traits.teams). */
export function inTeams(view) {
  return !!view.traits.teams;
}

/** A seat's party, from the variant's traits: in teams (traits.teams) seats 0 and 2 are team
 * 0 and seats 1 and 3 team 1, else each seat is its own. The one place the client knows how
 * teams are made. */
export function partyOf(view, seat) {
  return inTeams(view) ? seat % 2 : seat;
}

/** The parties of the view's table, in order (the two teams, or every seat). */
export function parties(view) {
  return [...new Set(partySeats(view, null).map((s) => partyOf(view, s)))];
}

/** The seats of a party (of every party with null), in order. */
export function partySeats(view, party) {
  const seats = [...Array(view.players).keys()];
  return party === null ? seats : seats.filter((s) => partyOf(view, s) === party);
}

/** The viewer's party, or null for a watcher. */
export function myParty(view) {
  if (view.seat === null || view.seat === undefined) return null;
  return partyOf(view, view.seat);
}

export function partyName(view, table, party) {
  if (inTeams(view) && myParty(view) === null) {
    return partySeats(view, party).map((s) => seatName(table, s, null)).join(" & ");
  }
  if (inTeams(view)) return party === myParty(view) ? t("team.us") : t("team.them");
  return seatName(table, party, view.seat);
}

/** A variant's name in the page's language; `fallback` (the title the server gives, e.g. a
 * view's traits.title) for a variant the words have no name for. */
export function variantName(id, fallback) {
  const key = `variant.${id}`;
  return has(key) ? t(key) : fallback || id;
}

export function levelName(level) {
  return t(`level.${level}`);
}

/** Scores are penalties (lower is better), as the view's variant says for its seat count. */
export function penalties(view) {
  return view.traits.penalties;
}

/** The match crowns a Wa (the lowest penalty total), as the view's variant says. */
export function hasWa(view) {
  return view.traits.wa;
}

/** The big name of a hand's ending, the words' `ending.<name>`: the variant's name for it
 * (TONBE, 2 KABÈS, BLÒK...), else blocked, capicú or domino. */
export function endingName(result) {
  if (result.name) return t(`ending.${result.name}`);
  if (result.ending === "blocked") return t("ending.blocked");
  if (result.capicu) return t("ending.capicu");
  return t("ending.domino");
}

/** The lowest score's parties (the Wa so far, or the leaders of a penalty game). */
export function lowest(scores) {
  const min = Math.min(...scores);
  return scores.map((s, i) => (s === min ? i : -1)).filter((i) => i >= 0);
}

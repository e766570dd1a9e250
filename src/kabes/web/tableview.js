// tableview.js — the parts of the table screen drawn from the view alone: the score line
// against the target, and the other seats (name, tiles held, connected or away, passes with
// their numbers, draws, whose turn), and how many watch. Pure functions returning elements.

import { h, svg } from "./dom.js";
import { markerIcon } from "./trains.js";
import { t, numberName } from "./i18n.js";
import { hasWa, inTeams, levelName, lowest, myParty, parties, partyName, partyOf, penalties, seatName } from "./names.js";
import { playerLink } from "./playerlink.js";

function backIcon() {
  return svg("svg", { class: "back-icon", viewBox: "0 0 10 18", width: 9, height: 16, "aria-hidden": "true" },
    svg("rect", { x: 0.5, y: 0.5, width: 9, height: 17, rx: 2 }));
}

/** "Watchers: 3", or null when nobody watches (what a seat sees of its table's watchers). */
export function watchersText(table) {
  return table.watchers ? t("watch.count", { n: table.watchers }) : null;
}

/** The score line: "Us 75 · Them 40 · to 100" with teams, else your own score; each other
 * seat's score is on its chip. The Wa so far wears a crown. */
export function scoreLine(view, table) {
  const wa = hasWa(view) && view.hands_played > 0 ? lowest(view.scores) : [];
  const mine = myParty(view);
  // A watcher (no party) sees both teams, or each seat's score on its chip.
  const shown = inTeams(view) ? parties(view).sort((a, b) => (a === mine ? -1 : b === mine ? 1 : a - b)) : mine === null ? [] : [mine];
  const items = shown.map((p) =>
    h("li", { class: `score${p === mine ? " mine" : ""}` },
      h("span", { class: "score-name" }, partyName(view, table, p)),
      " ",
      h("span", { class: "score-value num" }, String(view.scores[p] ?? 0)),
      wa.includes(p) ? crown() : null,
    ));
  let goal;
  if (view.traits.rounds) goal = t("score.round", { n: Math.max(1, view.hand_number), of: view.traits.rounds });
  else if (view.options?.open_ended) goal = t("score.open_ended");
  else if (hasWa(view) && view.options?.hands) goal = t("score.hand_of", { n: Math.max(1, view.hand_number), of: view.options.hands });
  else if (view.target) goal = t("score.target", { n: view.target });
  return h("div", { class: `scores${mine === null ? " watching" : ""}` },
    h("span", { class: "score-kind" }, penalties(view) ? t("score.penalties") : t("score.points")),
    h("ul", { class: "score-list" }, items),
    goal ? h("span", { class: "goal" }, goal) : null);
}

function crown() {
  return h("span", { class: "crown", title: t("score.wa") }, " ♛", h("span", { class: "sr-only" }, t("score.wa")));
}

/** Where each other seat sits around you: left, across, right (or a row when more). */
export function seatOrder(view) {
  const n = view.players;
  const next = (k) => (view.seat + k) % n;
  if (n === 2) return [null, next(1), null];
  if (n === 3) return [next(1), null, next(2)];
  if (n === 4) return [next(1), next(2), next(3)];
  return Array.from({ length: n - 1 }, (_, k) => next(k + 1));
}

/** The numbers a seat passed on, latest last: "2/4 · 3". A hand of the line games has a few
 * passes: the last three are shown (after "…" when there were more). Mexican Train can have
 * dozens, where only the latest is news (the memory aid keeps the rest): it shows that one. */
export function passesText(view, seat) {
  const mine = (view.passes || []).filter(([s]) => s === seat).map(([, numbers]) => numbers);
  if (!mine.length) return null;
  const trains = view.traits.board === "trains";
  const keep = trains ? 1 : 3;
  const shown = mine.slice(-keep).map((numbers) => [...new Set(numbers)].sort((a, b) => a - b).join("/"));
  return (mine.length > keep && !trains ? "… " : "") + shown.join(" · ");
}

export function seatChip(view, table, seat) {
  const s = table.seats[seat];
  const turn = view.turn === seat;
  const away = s && s.kind === "person" && !s.connected;
  const partner = inTeams(view) && myParty(view) !== null && seat !== view.seat && partyOf(view, seat) === myParty(view);
  const passes = passesText(view, seat);
  const drew = view.draws?.[seat] || 0;
  const count = view.counts?.[seat] ?? 0;
  const marked = view.trains?.find((tr) => tr.owner === seat)?.marked;
  const party = partyOf(view, seat);
  const score = inTeams(view) ? null : view.scores?.[party];
  const wa = hasWa(view) && view.hands_played > 0 && lowest(view.scores).includes(party);
  const label = [
    seatName(table, seat, view.seat),
    t("seat.tiles", { n: count }),
    score !== null && score !== undefined ? t("seat.score", { n: score }) : null,
    turn ? t("seat.to_play") : null,
    away ? t("seat.away") : null,
    passes ? t("seat.passed", { numbers: passes }) : null,
    drew ? t("seat.drew", { n: drew }) : null,
  ].filter(Boolean).join(", ");
  return h("div", { class: `seat${turn ? " turn" : ""}${away ? " away" : ""}`, "data-seat": seat, role: "group", "aria-label": label },
    h("div", { class: "seat-top" }, h("span", { class: "seat-name" }, seat === view.seat ? seatName(table, seat, view.seat) : playerLink(table?.seats?.[seat], seatName(table, seat, view.seat), "tab"))),
    h("div", { class: "seat-meta", "aria-hidden": "true" },
      h("span", { class: `dot${away ? " off" : ""}` }),
      h("span", { class: "count num" }, backIcon(), ` ${count}`),
      score !== null && score !== undefined ? h("span", { class: "seat-score num" }, t("seat.score", { n: score })) : null,
      wa ? crown() : null,
      drew ? h("span", { class: "drew num" }, t("seat.drew_short", { n: drew })) : null,
      marked ? h("span", { class: "drew" }, markerIcon()) : null),
    s?.kind === "computer" ? h("div", { class: "seat-tag" }, levelName(s.level)) : null,
    s?.left ? h("div", { class: "seat-tag away-tag" }, t("seat.left")) : null,
    partner ? h("div", { class: "seat-tag" }, t("seat.partner")) : null,
    away ? h("div", { class: "seat-tag away-tag" }, t("seat.away")) : null,
    passes ? h("div", { class: "seat-passes", "aria-hidden": "true" }, `${t("seat.passed_short")} ${passes}`) : null,
  );
}

export function opponents(view, table) {
  const slots = seatOrder(view);
  const row = h("div", { class: `opponents${view.players > 4 ? " many" : ""}${view.players === 2 ? " duel" : ""}` });
  for (const seat of slots) row.append(seat === null ? h("div", { class: "seat-slot" }) : seatChip(view, table, seat));
  return row;
}

/** Mexican Train's seats as one compact strip (a button): per other seat in play order, its
 * tiles held, lit when it is to play and greyed when away, with its name when there is room
 * (up to three others; each train's row names its owner anyway). A tap opens the seats' cards
 * under the strip, another closes them. */
export function seatStrip(view, table, open, onToggle) {
  const seats = seatOrder(view).filter((s) => s !== null);
  const named = seats.length <= 3;
  const strip = h("button", {
    type: "button", class: `seat-strip${named ? " named" : ""}`, "data-action": "seats", "aria-expanded": open ? "true" : "false",
    onclick: onToggle,
  }, ...seats.map((seat) => stripSeat(view, table, seat, named)), h("span", { class: "strip-more", "aria-hidden": "true" }, open ? "▴" : "▾"));
  return h("div", { class: "seat-strip-host" }, strip, open ? opponents(view, table) : null);
}

function stripSeat(view, table, seat, named) {
  const s = table.seats[seat];
  const away = s && s.kind === "person" && !s.connected;
  const name = seatName(table, seat, view.seat);
  const count = view.counts?.[seat] ?? 0;
  const label = [name, t("seat.tiles", { n: count }), view.turn === seat ? t("seat.to_play") : null, away ? t("seat.away") : null].filter(Boolean).join(", ");
  return h("span", { class: `seat strip-seat${view.turn === seat ? " turn" : ""}${away ? " away" : ""}`, "data-seat": seat },
    h("span", { class: "sr-only" }, `${label}.`),
    h("span", { class: `dot${away ? " off" : ""}`, "aria-hidden": "true" }),
    named ? h("span", { class: "strip-name", "aria-hidden": "true" }, name) : null,
    h("span", { class: "count num", "aria-hidden": "true" }, backIcon(), ` ${count}`));
}

/** The memory aid: per other seat, the numbers it is known not to hold. */
export function memoryAid(view, table) {
  const rows = [];
  for (let k = 1; k < view.players; k += 1) {
    const seat = (view.seat + k) % view.players;
    const voids = view.voids?.[seat] || [];
    rows.push(h("li", {},
      h("strong", {}, seatName(table, seat, view.seat)), ": ",
      voids.length
        ? h("span", { class: "voids" }, ...voids.map((n) => h("span", { class: "void num", "aria-label": numberName(n) }, String(n))))
        : h("span", {}, t("memory.nothing"))));
  }
  return h("section", { class: "memory", "aria-label": t("memory.title") },
    h("h2", {}, t("memory.title")), h("p", { class: "hint-text" }, t("memory.explain")), h("ul", {}, rows));
}

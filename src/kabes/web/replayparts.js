// replayparts.js — the parts of a replay's screen (replay.js) drawn from one position alone:
// the board's hooks (data-line, data-trains), every seat's tiles face up, the move shown in
// words, and the bar's icons. Pure functions returning strings or elements.

import { h, svg } from "./dom.js";
import { t, tileName } from "./i18n.js";
import { inTeams, partyOf } from "./names.js";
import { placeLabel } from "./playarea.js";
import { playerLink } from "./playerlink.js";
import { passesText } from "./tableview.js";
import { tileSvg } from "./tiles.js";

/** The line as data-line: its tiles left to right, each written left half first. */
export function lineText(view) {
  return (view.line || []).join(" ");
}

/** The trains as data-trains: "PLACE:TILES" per train in the view's order, joined by "; ",
 * PLACE the owner's seat or M (the Mexican train), TILES its tiles from the engine outwards
 * (each written nearest half first) joined by spaces: "M:12-4; 0:12-7 7-3; 1:". */
export function trainsText(view) {
  return (view.trains || []).map((tr) => `${tr.owner === null ? "M" : tr.owner}:${tr.tiles.join(" ")}`).join("; ");
}

/** Every seat's tiles face up (hands: the position's), in seat order; the seat to play lit,
 * its passes said, its score by its name when seats score alone (teams' are on the top line). */
export function seatRows(view, hands, table, names) {
  const colored = view.traits.colored_tiles;
  return h("ul", { class: `replay-seats${view.players > 4 ? " many" : ""}` },
    hands.map((tiles, seat) => {
      const passes = passesText(view, seat);
      const score = inTeams(view) ? null : view.scores?.[partyOf(view, seat)];
      return h("li", { class: `replay-seat${view.turn === seat ? " turn" : ""}`, "data-seat": seat, "data-tiles": tiles.join(" ") },
        h("span", { class: "replay-name" }, playerLink(table.seats?.[seat], names(seat), "tab")),
        h("span", { class: "face-up replay-tiles", role: tiles.length ? "list" : null, "aria-label": t("seat.tiles", { n: tiles.length }) },
          tiles.length ? tiles.map((tile) => h("span", { class: "mini", role: "listitem", "aria-label": tileName(tile) }, tileSvg(tile, { colored })))
            : h("span", { class: "out" }, t("end.out"))),
        passes ? h("span", { class: "replay-passes num" }, `${t("seat.passed_short")} ${passes}`) : null,
        score === null || score === undefined ? null : h("span", { class: "replay-score num" }, t("seat.score", { n: score })));
    }));
}

/** What led to `view` in words: the deal (and who leads), or the move just made from
 * `before` ("Anne: six-three, the right end (3)", its place as it was before the move). */
export function moveText(view, before, names) {
  if (!before) return view.turn === null || view.turn === undefined ? t("replay.dealt") : t("replay.dealt_turn", { name: names(view.turn) });
  const [seat, move] = view.played[view.played.length - 1] || [];
  if (!move) return "";
  const [tile, place = null] = move.split("@");
  return t("replay.played", { name: names(seat), move: t("review.move", { tile: tileName(tile), where: placeLabel(before, place, names).label }) });
}

/** The bar's icons: first, prev, play, pause, next, last. */
export function icon(kind) {
  const shapes = {
    first: [["rect", { x: 4, y: 5, width: 3, height: 14 }], ["path", { d: "M20 5v14L8 12z" }]],
    prev: [["path", { d: "M18 5v14L6 12z" }]],
    play: [["path", { d: "M7 5v14l12-7z" }]],
    pause: [["rect", { x: 6, y: 5, width: 4, height: 14 }], ["rect", { x: 14, y: 5, width: 4, height: 14 }]],
    next: [["path", { d: "M6 5v14l12-7z" }]],
    last: [["path", { d: "M4 5v14l12-7z" }], ["rect", { x: 17, y: 5, width: 3, height: 14 }]],
  };
  return svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "replay-icon" },
    shapes[kind].map(([tag, attrs]) => svg(tag, attrs)));
}

// trains.js — the Mexican Train board: the engine, then one row per train (the Mexican train
// first, then yours, then the others in play order). A row is one line: its owner (a name cut
// whole with an ellipsis, the whole train's name for screen readers), the marker as a small
// train token, and its tiles from the engine outwards, so that eight trains fit a phone's
// screen with every open end in sight. A train longer than its line is folded: its last few
// tiles (the end that matters) after a button counting those before
// (data-action="unfold-train"); a tap opens the whole train, wrapping onto more lines, and
// another folds it again. The open double pulses. When a tile is chosen, each train it may go
// on gets a place button with data-place = the owner's seat or "M". Each row carries
// data-train (the place), data-end (its open number), data-length (its tiles, shown or
// folded) and data-marked. The tiles' size follows the board's --train-s (app.css: smaller
// on short screens).

import { clear, h, svg } from "./dom.js";
import { drawTile, parseTile } from "./tiles.js";
import { t, tileName } from "./i18n.js";

const S = 20;
/** Room kept on a folded line for the count of tiles before, the marker, a lit place and the
 * row's edges. */
const FOLD_ROOM = 40 + 26 + 48 + 20;

/** The trains opened whole, as "hand:place": a tap keeps one open until the next hand. */
const unfolded = new Set();

/** How many tiles a train shows folded on a line `width` px wide, tiles drawn at size `s`
 * (a non-double is 2 s + 2 wide, then a gap): at least `least`. */
export function foldedLength(width, s = S, least = 2) {
  return Math.max(least, Math.floor((width - FOLD_ROOM) / (2 * s + 4)));
}

/** The size the board's CSS asks for (--train-s) and the room a row's tiles have: beside the
 * owner, or under it when many trains stand in two columns (--train-cols, a short screen). */
function lineRoom(board, many) {
  const style = getComputedStyle(board);
  const s = parseFloat(style.getPropertyValue("--train-s")) || S;
  const cols = many ? parseFloat(style.getPropertyValue("--train-cols")) || 1 : 1;
  const head = cols > 1 ? 0 : parseFloat(style.getPropertyValue("--train-head")) || 0;
  return { s, width: (board.clientWidth || 360) / cols - head };
}

/** More trains than a short screen has lines for: two columns there (app.css). */
const MANY = 6;

/** A train's tile: a double crosswise (upright), unless `flat` (the engine on its short line). */
function smallTile(tile, cls, flat = false) {
  const [a, b] = parseTile(tile);
  const vertical = a === b && !flat;
  const w = vertical ? S : 2 * S;
  const hh = vertical ? 2 * S : S;
  return svg(
    "svg",
    { class: `train-tile${vertical ? " double" : ""} ${cls || ""}`, width: w + 2, height: hh + 2, viewBox: `0 0 ${w + 2} ${hh + 2}`, role: "img", "aria-label": tileName(tile) },
    drawTile(a, b, { x: 1, y: 1, s: S, vertical, colored: true }),
  );
}

export function markerIcon() {
  return svg(
    "svg",
    { class: "marker", viewBox: "0 0 24 16", width: 24, height: 16, "aria-hidden": "true" },
    svg("rect", { x: 2, y: 3, width: 13, height: 8, rx: 1.5 }),
    svg("rect", { x: 14, y: 1, width: 7, height: 10, rx: 1.5 }),
    svg("circle", { cx: 6, cy: 13, r: 2.2 }),
    svg("circle", { cx: 17, cy: 13, r: 2.2 }),
  );
}

/**
 * opts: seat (mine), names (by seat), places ([{place, move, label}]), onPlace(move),
 * redraw() (a train folded or opened: draw the board again).
 * Returns the place buttons made.
 */
export function renderTrains(board, view, opts) {
  clear(board);
  const many = view.trains.length >= MANY;
  const wrap = h("div", { class: `trains${many ? " many" : ""}` });
  if (view.engine) {
    wrap.append(h("div", { class: "engine" }, smallTile(view.engine, "engine-tile", true), h("span", {}, t("train.engine"))));
  } else {
    wrap.append(h("p", { class: "board-empty" }, opts.emptyText || ""));
  }
  const order = [];
  for (let k = 0; k < view.players; k += 1) order.push((view.seat + k) % view.players);
  const trains = [...view.trains].sort((x, y) => {
    const rank = (tr) => (tr.owner === null ? -1 : order.indexOf(tr.owner));
    return rank(x) - rank(y);
  });
  const buttons = [];
  for (const train of trains) {
    const place = train.owner === null ? "M" : String(train.owner);
    const mine = train.owner === view.seat;
    const name = train.owner === null ? t("train.public") : mine ? t("train.mine") : t("train.of", { name: opts.names[train.owner] });
    // The owner alone on the line (the row is plainly a train); the train's name for readers.
    const owner = train.owner === null || mine ? name : opts.names[train.owner];
    const open = view.open_double === place;
    const turn = view.turn === train.owner && train.owner !== null;
    const row = h("div", {
      class: `train${mine ? " mine" : ""}${open ? " open" : ""}${turn ? " turn" : ""}`,
      "data-train": place, "data-end": train.end, "data-length": train.tiles.length,
      "data-marked": train.marked ? "true" : "false",
    });
    const head = h("div", { class: "train-head" },
      h("span", { class: "train-name", title: name }, h("span", { "aria-hidden": "true" }, owner), h("span", { class: "sr-only" }, name)),
      // The open double is said here; the row's outline and the pulsing tile show it.
      open ? h("span", { class: "sr-only" }, t("train.open_double")) : null,
    );
    const tiles = h("div", { class: "train-tiles" });
    const key = `${view.hand_number}:${place}`;
    const room = lineRoom(board, many);
    const p = (opts.places || []).find((x) => x.place === place);
    // A lit place says the open end itself: on a line too short for two tiles besides it (two
    // columns on a short screen), the folded train then shows only its count and marker.
    const keep = foldedLength(room.width, room.s, p ? 0 : 2);
    const folds = train.tiles.length > keep + 1;
    const whole = !folds || unfolded.has(key);
    if (folds && whole) row.classList.add("unfolded");
    const hidden = whole ? 0 : train.tiles.length - keep;
    if (folds) {
      tiles.append(h("button", {
        type: "button", class: "train-fold num", "data-action": "unfold-train",
        "aria-expanded": whole ? "true" : "false",
        "aria-label": whole ? t("train.fold", { name }) : t("train.unfold", { n: train.tiles.length - keep, name }),
        onclick: () => {
          if (unfolded.has(key)) unfolded.delete(key);
          else unfolded.add(key);
          opts.redraw?.();
        },
      }, whole ? "−" : `+${train.tiles.length - keep}`));
    }
    train.tiles.forEach((tile, i) => {
      if (i < hidden) return;
      const last = i === train.tiles.length - 1;
      tiles.append(smallTile(tile, open && last ? "open-double" : ""));
    });
    if (train.tiles.length === 0) tiles.append(h("span", { class: "train-empty" }, t("train.empty", { n: train.end })));
    // The marker sits at the train's open end, where a player looks for it.
    if (train.marked) tiles.append(h("span", { class: "train-marked" }, markerIcon(), h("span", { class: "sr-only" }, t("train.marked"))));
    if (p) {
      const button = h("button", {
        type: "button", class: "place train-place", "data-place": place, "data-move": p.move,
        "aria-label": p.label, onclick: () => opts.onPlace(p.move),
      }, h("span", { "aria-hidden": "true" }, String(train.end)));
      tiles.append(button);
      buttons.push(button);
    }
    row.append(head, tiles);
    wrap.append(row);
  }
  board.append(wrap);
  return buttons;
}

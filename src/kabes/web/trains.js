// trains.js — the Mexican Train board: the engine in the middle, then one row per train
// (yours first, then the others in play order, then the public train), each with its
// owner's name, the marker as a small train token, and its tiles from the engine outwards.
// A train longer than one line of the board is folded: its last few tiles (the end that
// matters) after a button counting those before (data-action="unfold-train"); a tap opens
// the whole train, wrapping onto more lines, and another folds it again. The open double
// pulses. When a tile is chosen, each train it may go on gets a place button with
// data-place = the owner's seat or "M". Each row carries data-train (the place), data-end
// (its open number), data-length (its tiles, shown or folded) and data-marked.

import { clear, h, svg } from "./dom.js";
import { drawTile, parseTile } from "./tiles.js";
import { t, tileName } from "./i18n.js";

const S = 20;
/** Room for one tile on a train's line: the widest (a non-double, 2 S + 2) and the gap. */
const TILE_ROOM = 2 * S + 4;
/** Room kept on a folded line for the count of tiles before and for a lit place. */
const FOLD_ROOM = 2 * 48 + 16;

/** The trains opened whole, as "hand:place": a tap keeps one open until the next hand. */
const unfolded = new Set();

/** How many tiles a train shows folded on a board `width` px wide (at least 3). */
export function foldedLength(width) {
  return Math.max(3, Math.floor((width - FOLD_ROOM) / TILE_ROOM));
}

function smallTile(tile, cls) {
  const [a, b] = parseTile(tile);
  const vertical = a === b;
  const w = vertical ? S : 2 * S;
  const hh = vertical ? 2 * S : S;
  return svg(
    "svg",
    { class: `train-tile ${cls || ""}`, width: w + 2, height: hh + 2, viewBox: `0 0 ${w + 2} ${hh + 2}`, role: "img", "aria-label": tileName(tile) },
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
  const wrap = h("div", { class: "trains" });
  if (view.engine) {
    wrap.append(h("div", { class: "engine" }, smallTile(view.engine, "engine-tile"), h("span", {}, t("train.engine"))));
  } else {
    wrap.append(h("p", { class: "board-empty" }, opts.emptyText || ""));
  }
  const order = [];
  for (let k = 0; k < view.players; k += 1) order.push((view.seat + k) % view.players);
  const trains = [...view.trains].sort((x, y) => {
    const rank = (tr) => (tr.owner === null ? 99 : order.indexOf(tr.owner));
    return rank(x) - rank(y);
  });
  const buttons = [];
  for (const train of trains) {
    const place = train.owner === null ? "M" : String(train.owner);
    const mine = train.owner === view.seat;
    const name = train.owner === null ? t("train.public") : mine ? t("train.mine") : t("train.of", { name: opts.names[train.owner] });
    const open = view.open_double === place;
    const row = h("div", {
      class: `train${mine ? " mine" : ""}${open ? " open" : ""}`,
      "data-train": place, "data-end": train.end, "data-length": train.tiles.length,
      "data-marked": train.marked ? "true" : "false",
    });
    const head = h("div", { class: "train-head" },
      h("span", { class: "train-name" }, name),
      train.marked ? h("span", { class: "train-marked" }, markerIcon(), h("span", { class: "sr-only" }, t("train.marked"))) : null,
      open ? h("span", { class: "open-flag" }, t("train.open_double")) : null,
    );
    const tiles = h("div", { class: "train-tiles" });
    const key = `${view.hand_number}:${place}`;
    const keep = foldedLength(board.clientWidth || 360);
    const folds = train.tiles.length > keep + 1;
    const whole = !folds || unfolded.has(key);
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
    const p = (opts.places || []).find((x) => x.place === place);
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

// line.js — the line of play of the double-six games, drawn as a snake that never scrolls
// sideways. The lead stays in the middle; tiles played on the right run right, then turn down
// at the edge and come back; tiles played on the left run left and turn up. Tiles shrink
// (down to a floor) until the whole line fits the board's height; past that the board
// scrolls vertically. Doubles lie crosswise when `cross` (the view's traits.crosswise_doubles),
// in line otherwise.
// renderLine(board, line, opts) draws into the board element and returns the end slots, where
// place buttons (data-place="L"/"R") are put when a tile is chosen.

import { clear, h, svg } from "./dom.js";
import { drawTile, parseTile } from "./tiles.js";
import { t, tileName } from "./i18n.js";

const MARGIN = 6;
const MAX_S = 30;
const MIN_S = 13;

function arm(list, x, y, dir, vdir, s, W, cross) {
  const g = s * 0.12;
  const pitch = 2 * s + g;
  const items = [];
  let afterCorner = false;
  const fits = (w) => (dir > 0 ? x + w <= W - MARGIN - s : x - w >= MARGIN + s);
  for (const [p, q] of list) {
    const crossed = cross && p === q && !afterCorner;
    const w = crossed ? s : 2 * s;
    if (fits(w)) {
      const left = dir > 0 ? x : x - w;
      if (crossed) items.push({ a: p, b: q, x: left, y: y - s, vertical: true });
      else items.push({ a: dir > 0 ? p : q, b: dir > 0 ? q : p, x: left, y: y - s / 2, vertical: false });
      x = dir > 0 ? x + w : x - w;
      afterCorner = false;
    } else {
      const left = dir > 0 ? x : x - s;
      const top = vdir > 0 ? y - s / 2 : y + s / 2 - 2 * s;
      items.push({ a: vdir > 0 ? p : q, b: vdir > 0 ? q : p, x: left, y: top, vertical: true });
      y += vdir * pitch;
      x = dir > 0 ? left + s : left;
      dir = -dir;
      afterCorner = true;
    }
  }
  // Where the next (non-double) tile would go: the place to light up for this end.
  let slot;
  if (fits(2 * s)) slot = { x: dir > 0 ? x : x - 2 * s, y: y - s / 2, w: 2 * s, h: s };
  else slot = { x: dir > 0 ? x : x - s, y: vdir > 0 ? y - s / 2 : y + s / 2 - 2 * s, w: s, h: 2 * s };
  return { items, slot };
}

/** Positions of every tile for a board W wide, tile short side s; y may be negative. */
export function layout(line, leadIndex, s, W, cross) {
  const lead = line[leadIndex];
  const leadCross = cross && lead[0] === lead[1];
  const lw = leadCross ? s : 2 * s;
  const lx = W / 2 - lw / 2;
  const leadItem = { a: lead[0], b: lead[1], x: lx, y: leadCross ? -s : -s / 2, vertical: leadCross, index: leadIndex };
  const right = arm(line.slice(leadIndex + 1), lx + lw, 0, 1, 1, s, W, cross);
  const leftList = line.slice(0, leadIndex).reverse().map(([a, b]) => [b, a]);
  const left = arm(leftList, lx, 0, -1, -1, s, W, cross);
  right.items.forEach((item, i) => (item.index = leadIndex + 1 + i));
  left.items.forEach((item, i) => (item.index = leadIndex - 1 - i));
  const items = [leadItem, ...right.items, ...left.items];
  const boxes = [...items.map((i) => ({ y: i.y, h: i.vertical ? 2 * s : s })), { y: left.slot.y, h: left.slot.h }, { y: right.slot.y, h: right.slot.h }];
  const top = Math.min(...boxes.map((b) => b.y));
  const bottom = Math.max(...boxes.map((b) => b.y + b.h));
  return { items, slots: { L: left.slot, R: right.slot }, top, bottom, s };
}

/** The largest tile size whose layout fits W x H (or the smallest size). */
export function fit(line, leadIndex, W, H, cross) {
  const maxS = Math.max(MIN_S, Math.min(MAX_S, Math.floor((W - 2 * MARGIN) / 9)));
  let best = null;
  for (let s = maxS; s >= MIN_S; s -= 1) {
    best = layout(line, leadIndex, s, W, cross);
    if (best.bottom - best.top + 2 * MARGIN <= H) break;
  }
  return best;
}

/** The index in `line` of the lead: one tile went on the left for every "@L" move. */
export function leadIndex(played) {
  return played.filter(([, move]) => move.endsWith("@L")).length;
}

/**
 * Draw `line` (["6-6","6-3",...]) in `board`. opts: cross, played, places ([{place, move,
 * label}]), onPlace(move), colored. Returns the list of place buttons made.
 */
export function renderLine(board, line, opts) {
  clear(board);
  const W = board.clientWidth;
  const H = board.clientHeight;
  if (!line || line.length === 0 || W === 0) {
    board.append(h("p", { class: "board-empty" }, opts.emptyText || ""));
    return [];
  }
  const tiles = line.map(parseTile);
  const lay = fit(tiles, Math.min(leadIndex(opts.played || []), tiles.length - 1), W, H, opts.cross);
  const contentH = lay.bottom - lay.top + 2 * MARGIN;
  const offset = (contentH < H ? (H - contentH) / 2 : 0) + MARGIN - lay.top;
  const last = opts.played?.length ? opts.played[opts.played.length - 1][1] : null;
  const lastIndex = last === null ? -1 : last.endsWith("@L") ? 0 : last.endsWith("@R") ? tiles.length - 1 : leadIndex(opts.played);
  const picture = svg("svg", {
    class: "line",
    width: W,
    height: Math.max(H, contentH),
    viewBox: `0 0 ${W} ${Math.max(H, contentH)}`,
    role: "img",
    "aria-label": t("line.label", { tiles: line.map(tileName).join(", ") }),
  });
  for (const item of lay.items) {
    const y = item.y + offset;
    if (item.index === lastIndex) {
      picture.append(svg("rect", {
        class: "last-played", x: item.x - 3, y: y - 3, rx: 6,
        width: (item.vertical ? lay.s : 2 * lay.s) + 6, height: (item.vertical ? 2 * lay.s : lay.s) + 6,
      }));
    }
    picture.append(drawTile(item.a, item.b, { x: item.x, y, s: lay.s, vertical: item.vertical, colored: opts.colored }));
  }
  board.append(picture);
  const buttons = [];
  for (const place of opts.places || []) {
    const slot = lay.slots[place.place];
    if (!slot) continue;
    const w = Math.max(48, slot.w + 8);
    const hh = Math.max(48, slot.h + 8);
    const cx = slot.x + slot.w / 2;
    const cy = slot.y + offset + slot.h / 2;
    const left = Math.min(Math.max(0, cx - w / 2), W - w);
    const button = h("button", {
      type: "button",
      class: "place",
      "data-place": place.place,
      "data-move": place.move,
      "aria-label": place.label,
      style: `left:${left}px;top:${Math.max(0, cy - hh / 2)}px;width:${w}px;height:${hh}px`,
      onclick: () => opts.onPlace(place.move),
    }, h("span", { "aria-hidden": "true" }, place.short || ""));
    board.append(button);
    buttons.push(button);
  }
  return buttons;
}

// tiles.js — dominoes drawn as SVG from their numbers. drawTile(a, b, opts) returns an SVG
// <g> for a tile whose half `a` is on top (vertical) or on the left (horizontal), placed at
// opts.x, opts.y with short side opts.s (CSS px); tileSvg("a-b") returns a standalone
// vertical <svg> for the hand. Pips for 0..12 in the usual places (10 to 12 in three columns
// of four); `colored` paints each number its own colour (Mexican Train sets), pips still drawn.

import { svg } from "./dom.js";

const C = [0.25, 0.5, 0.75];
const L = 0.27;
const R = 0.73;
const Y4 = [0.17, 0.39, 0.61, 0.83];
const PIPS = [
  [],
  [[0.5, 0.5]],
  [[C[0], C[0]], [C[2], C[2]]],
  [[C[0], C[0]], [0.5, 0.5], [C[2], C[2]]],
  [[C[0], C[0]], [C[2], C[0]], [C[0], C[2]], [C[2], C[2]]],
  [[C[0], C[0]], [C[2], C[0]], [0.5, 0.5], [C[0], C[2]], [C[2], C[2]]],
  [[L, 0.22], [L, 0.5], [L, 0.78], [R, 0.22], [R, 0.5], [R, 0.78]],
  [[L, 0.22], [L, 0.5], [L, 0.78], [0.5, 0.5], [R, 0.22], [R, 0.5], [R, 0.78]],
  [[0.22, 0.22], [0.22, 0.5], [0.22, 0.78], [0.5, 0.33], [0.5, 0.67], [0.78, 0.22], [0.78, 0.5], [0.78, 0.78]],
  C.flatMap((x) => C.map((y) => [x, y])),
  [...Y4.map((y) => [0.2, y]), [0.5, 0.39], [0.5, 0.61], ...Y4.map((y) => [0.8, y])],
  [...Y4.map((y) => [0.2, y]), [0.5, 0.25], [0.5, 0.5], [0.5, 0.75], ...Y4.map((y) => [0.8, y])],
  [...Y4.map((y) => [0.2, y]), ...Y4.map((y) => [0.5, y]), ...Y4.map((y) => [0.8, y])],
];

/** Colours of a double-twelve set, one per number (0 has no pips). */
export const PIP_COLORS = [
  "#1b1b1b", "#0a6fb8", "#2e7d32", "#c62828", "#6d4c41", "#283593", "#e0a000",
  "#ad1457", "#00695c", "#6a1b9a", "#d84315", "#37474f", "#7a6a00",
];

export function parseTile(tile) {
  return tile.split("-").map(Number);
}

/** The same tile written low half first: "6-3" -> "3-6". */
export function tileKey(tile) {
  const [a, b] = parseTile(tile);
  return a <= b ? `${a}-${b}` : `${b}-${a}`;
}

function half(n, top, colored) {
  const radius = n >= 10 ? 7.4 : 9;
  const color = colored ? PIP_COLORS[n] : null;
  return PIPS[n].map(([x, y]) =>
    svg("circle", {
      cx: 6 + x * 88,
      cy: top + 6 + y * 88,
      r: radius,
      fill: color,
      class: colored ? null : "pip",
      stroke: colored ? "#1b1b1b" : null,
      "stroke-width": colored ? 1.4 : null,
    }),
  );
}

/** The tile's drawing in its own frame: 100 wide, 200 tall, `a` on top. */
function face(a, b, colored) {
  return [
    svg("rect", { x: 3, y: 4, width: 96, height: 196, rx: 13, fill: "rgba(0,0,0,0.28)" }),
    svg("rect", {
      x: 1, y: 1, width: 96, height: 196, rx: 13, class: "tile-face", "stroke-width": 2,
    }),
    svg("line", { x1: 14, y1: 99, x2: 84, y2: 99, class: "tile-edge", "stroke-width": 3 }),
    half(a, 0, colored),
    half(b, 99, colored),
  ];
}

/** A tile placed in a larger SVG: vertical is s wide and 2s tall, horizontal 2s by s. */
export function drawTile(a, b, { x = 0, y = 0, s = 30, vertical = false, colored = false, cls = null, label = null } = {}) {
  const k = s / 100;
  const transform = vertical
    ? `translate(${x} ${y}) scale(${k})`
    : `translate(${x} ${y + s}) rotate(-90) scale(${k})`;
  return svg(
    "g",
    { transform, class: cls, role: label ? "img" : null, "aria-label": label },
    label ? svg("title", { text: label }) : null,
    face(a, b, colored),
  );
}

/** A standalone vertical tile (for the hand and face-up hands), sized by CSS. */
export function tileSvg(tile, { colored = false, horizontal = false } = {}) {
  const [a, b] = parseTile(tile);
  const box = horizontal ? "0 0 202 102" : "0 0 102 202";
  return svg(
    "svg",
    { viewBox: box, class: "tile-svg", "aria-hidden": "true", focusable: "false" },
    drawTile(a, b, { x: 1, y: 1, s: 100, vertical: !horizontal, colored }),
  );
}

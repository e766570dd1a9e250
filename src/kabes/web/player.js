// player.js — a player's page (/p/ID; UI.md, "A place that remembers"): the name large, one card
// per variant played with the rating big, a line chart of its history (an SVG drawn here,
// data-chart="rating", a point per entry of GET /api/players/{id}'s "history") and the
// matches played and won; then the recent matches, each a row saying won, lost or abandoned
// in words, opening its replay (/r/CODE) where the page knows its code. One's own page (the
// stored token is that player's) shows every match with its code, private ones included, and
// the phone settings: "Use Kabès on another phone" (link.js) and "Log out on every phone"
// (POST /api/me/logout {"everywhere": true}).

import { api } from "./api.js";
import { clear, h, svg } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { variantName } from "./names.js";
import { store } from "./store.js";
import { pageLink, topBar } from "./topbar.js";

const RECENT = 20;
const WIDTH = 320;
const HEIGHT = 96;
const PAD = 6;

/** The chart of one variant's rating history: a line through every point, oldest at the left. */
export function ratingChart(points, label) {
  const chart = svg("svg", {
    class: "rating-chart", "data-chart": "rating", "data-points": String(points.length),
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label, preserveAspectRatio: "none",
  });
  if (!points.length) return chart;
  const times = points.map((p) => p[0]);
  const values = points.map((p) => p[1]);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const x = (at) => (t1 === t0 ? WIDTH / 2 : PAD + ((at - t0) / (t1 - t0)) * (WIDTH - 2 * PAD));
  const y = (v) => (v1 === v0 ? HEIGHT / 2 : HEIGHT - PAD - ((v - v0) / (v1 - v0)) * (HEIGHT - 2 * PAD));
  const xy = points.map(([at, v]) => `${x(at).toFixed(1)},${y(v).toFixed(1)}`);
  chart.append(svg("polyline", { class: "rating-line", points: xy.join(" "), fill: "none", "vector-effect": "non-scaling-stroke" }));
  return chart;
}

/** A match's outcome in words: won, lost, or abandoned (ended without being finished). */
export function outcome(match) {
  if (match.won) return "won";
  return match.finished ? "lost" : "abandoned";
}

function variantCard(variant, rating, points, played) {
  const won = played.filter((m) => m.won).length;
  const name = variantName(variant);
  return h("section", { class: "card player-variant", "data-variant": variant },
    h("h2", {}, name),
    h("p", { class: "player-rating num", "data-rating": String(rating ?? "") }, rating === undefined ? "–" : String(Math.round(rating))),
    ratingChart(points, t("player.chart", { variant: name })),
    h("p", { class: "player-counts num", "data-matches": String(played.length), "data-won": String(won) },
      t("player.matches_won", { won, played: played.length })));
}

function matchRow(match, nav) {
  const word = outcome(match);
  const started = match.started ? new Date(match.started * 1000).toLocaleDateString() : "";
  const parts = [
    h("span", { class: "match-variant" }, variantName(match.variant)),
    h("span", { class: "match-date num" }, started),
    h("span", { class: `match-outcome ${word}`, "data-outcome": word }, t(`player.${word}`)),
  ];
  const inner = match.code
    ? pageLink(nav, `/r/${encodeURIComponent(match.code)}`, { class: "match-row", "data-replay": match.code }, ...parts)
    : h("div", { class: "match-row" }, ...parts);
  return h("li", {}, inner);
}

function phonesCard(nav, say) {
  const logout = async () => {
    if (!confirm(t("player.logout_confirm"))) return;
    try {
      await api.logoutEverywhere();
    } catch (e) {
      say(errorText(e.code, e.message));
      return;
    }
    store.setIdentity(null);
    nav.go("/");
  };
  return h("section", { class: "card player-phones", "aria-labelledby": "phones-title" },
    h("h2", { id: "phones-title" }, t("player.phones")),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-action": "link-device", onclick: () => import("./link.js").then((m) => m.linkDialog()) }, t("link.action")),
      h("button", { type: "button", "data-action": "logout-everywhere", onclick: logout }, t("player.logout_all"))));
}

/** The page of player `id`. */
export async function playerPage(root, id, nav) {
  const status = h("p", { class: "status flash", role: "status", "aria-live": "polite" });
  const main = h("main", { class: "page player" }, h("p", { class: "loading" }, t("loading")));
  clear(root).append(topBar(nav), main);
  let found;
  try {
    found = await api.player(id);
  } catch (e) {
    clear(main).append(h("p", { class: "error" }, errorText(e.code, e.message)));
    return;
  }
  const own = store.identity()?.player === found.player;
  // Each variant's matches, grouped once (Map keys, not a comparison of variants).
  const played = new Map();
  for (const m of found.matches) played.set(m.variant, [...(played.get(m.variant) || []), m]);
  const variants = [...new Set([...Object.keys(found.ratings), ...Object.keys(found.history || {}), ...played.keys()])];
  const recent = found.matches.slice(0, RECENT);
  clear(main).append(
    h("h1", { class: "player-name name-cut", "data-player": String(found.player) }, found.name),
    ...variants.map((v) => variantCard(v, found.ratings[v], found.history?.[v] || [], played.get(v) || [])),
    h("section", { class: "card", "aria-labelledby": "recent-title" },
      h("h2", { id: "recent-title" }, t("player.recent")),
      recent.length ? h("ul", { class: "match-list" }, ...recent.map((m) => matchRow(m, nav))) : h("p", {}, t("player.no_matches"))),
    own ? phonesCard(nav, (text) => (status.textContent = text)) : null,
    status);
}

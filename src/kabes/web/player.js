// player.js — a player's page (/p/ID; UI.md, "A place that remembers"): the name large, one card
// per variant played with the rating big, a line chart of its history (an SVG drawn here,
// data-chart="rating", a point per entry of GET /api/players/{id}'s "history") and the hands
// and matches played and won (its "stats"); then the recent matches, each a row (variant,
// partners and opponents, score, and won, lost, abandoned or in play in words) opening its
// replay (/r/CODE) where the page knows its code (a public match's for anyone); then the
// tournaments entered and their places, each opening its page (/c/ID); once a puzzle was
// tried, a puzzles card (puzzle rating, streak and best, solved of tried). One's own page (the
// stored token is that player's) shows every match with its code, private ones included, and
// the phone settings: "Use Kabès on another phone" (link.js) and "Log out on every phone"
// (POST /api/me/logout {"everywhere": true}).

import { api } from "./api.js";
import { append, clear, h, svg } from "./dom.js";
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

/** A match's outcome as the server words it: won, lost, abandoned, or playing (in play); from
 * the older fields where it does not say. */
export function outcome(match) {
  if (match.result) return match.result;
  if (match.won) return "won";
  return match.finished ? "lost" : "abandoned";
}

/** Hands and matches played and won in one variant: the server's counts ("stats": rated play),
 * else the matches listed here. */
function counts(stats, played) {
  if (stats) return stats;
  const over = played.filter((m) => outcome(m) === "won" || outcome(m) === "lost");
  return { hands: null, hands_won: null, matches: over.length, matches_won: over.filter((m) => m.won).length };
}

function variantCard(variant, rating, points, stats, played) {
  const c = counts(stats, played);
  const name = variantName(variant);
  return h("section", { class: "card player-variant", "data-variant": variant },
    h("h2", {}, name),
    h("p", { class: "player-rating num", "data-rating": String(rating ?? "") }, rating === undefined ? "–" : String(Math.round(rating))),
    ratingChart(points, t("player.chart", { variant: name })),
    c.hands === null ? null : h("p", { class: "player-hands num", "data-hands": String(c.hands), "data-won": String(c.hands_won) },
      t("player.hands_won", { won: c.hands_won, played: c.hands })),
    h("p", { class: "player-counts num", "data-matches": String(c.matches), "data-won": String(c.matches_won) },
      t("player.matches_won", { won: c.matches_won, played: c.matches })));
}

function who(people) {
  return people.map((p) => (p.computer ? t("player.computer") : p.name)).join(", ");
}

function matchRow(match, nav) {
  const word = outcome(match);
  const started = match.started ? new Date(match.started * 1000).toLocaleDateString() : "";
  const score = match.score ? [match.score.own, ...match.score.others].join(" – ") : "";
  const others = [
    match.partners?.length ? t("player.with", { names: who(match.partners) }) : null,
    match.opponents?.length ? t("player.versus", { names: who(match.opponents) }) : null,
  ].filter(Boolean).join(" · ");
  const parts = [
    h("span", { class: "match-main" },
      h("span", { class: "match-variant" }, variantName(match.variant)),
      h("span", { class: "match-sub" }, h("span", { class: "match-who" }, others), h("span", { class: "match-date num" }, started))),
    h("span", { class: "match-score num", "data-score": score }, score),
    h("span", { class: `match-outcome ${word}`, "data-outcome": word }, t(`player.${word}`)),
  ];
  const inner = match.code
    ? pageLink(nav, `/r/${encodeURIComponent(match.code)}`, { class: "match-row", "data-replay": match.code }, ...parts)
    : h("div", { class: "match-row" }, ...parts);
  return h("li", {}, inner);
}

function tournamentRow(tour, nav) {
  const placed = tour.place !== null && tour.place !== undefined;
  const state = placed ? t("player.place", { place: tour.place, of: tour.of })
    : t(tour.status === "over" ? "tour.status_over" : tour.status === "open" ? "player.tour_open" : "player.playing");
  const parts = [
    h("span", { class: "match-main" },
      h("span", { class: "match-variant" }, t("tour.title", { variant: variantName(tour.variant) })),
      h("span", { class: "match-sub" },
        h("span", { class: "match-who" }, tour.host_name ? t("player.hosted_by", { name: tour.host_name }) : ""),
        h("span", { class: "match-date num" }, tour.created ? new Date(tour.created * 1000).toLocaleDateString() : ""))),
    h("span", { class: "tour-place num", "data-place": placed ? String(tour.place) : "" }, state),
  ];
  const inner = tour.id
    ? pageLink(nav, `/c/${encodeURIComponent(tour.id)}`, { class: "match-row", "data-tournament": tour.id }, ...parts)
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
/** The puzzle card: rating, streak (and best), solved of tried; none before a first try. */
function puzzlesCard(card) {
  if (!card || !card.tried) return null;
  return h("section", { class: "card player-puzzles", "aria-labelledby": "puzzles-title" },
    h("h2", { id: "puzzles-title" }, t("puzzle.title")),
    h("p", { class: "player-rating num", "data-puzzle-rating": String(card.rating) }, String(Math.round(card.rating))),
    h("p", { class: "num", "data-streak": String(card.streak) }, t("puzzle.streak_best", { n: card.streak, best: card.best_streak })),
    h("p", { class: "num", "data-solved": String(card.solved), "data-tried": String(card.tried) }, t("puzzle.solved_of", { solved: card.solved, tried: card.tried })));
}

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
  const tournaments = found.tournaments || [];
  // dom.js's append: the cards a page may not have (null) are left out, where the DOM's own
  // append would write "null".
  append(clear(main), [
    h("h1", { class: "player-name name-cut", "data-player": String(found.player) }, found.name),
    puzzlesCard(found.puzzles),
    ...variants.map((v) => variantCard(v, found.ratings[v], found.history?.[v] || [], found.stats?.[v], played.get(v) || [])),
    h("section", { class: "card", "aria-labelledby": "recent-title" },
      h("h2", { id: "recent-title" }, t("player.recent")),
      recent.length ? h("ul", { class: "match-list" }, ...recent.map((m) => matchRow(m, nav))) : h("p", {}, t("player.no_matches"))),
    tournaments.length ? h("section", { class: "card player-tournaments", "aria-labelledby": "tours-played-title" },
      h("h2", { id: "tours-played-title" }, t("player.tournaments")),
      h("ul", { class: "match-list" }, ...tournaments.map((x) => tournamentRow(x, nav)))) : null,
    own ? phonesCard(nav, (text) => (status.textContent = text)) : null,
    status]);
}

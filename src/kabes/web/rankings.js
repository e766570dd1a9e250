// rankings.js — a variant's whole rankings (/rankings/VARIANT, issue 27): GET
// /api/rankings/{variant}?page=N, 50 a page, best first, in a table with tabular figures; with
// the player's token the server adds "me": {place, rating}, and "My place" goes to that page and
// to the row, highlighted, in one tap. The rule (ranked after 10 rated hands) is said under the
// list. The page shown is kept in the address (?page=N), so a reload or a link opens it.

import { api, variantCatalog } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { variantName } from "./names.js";
import { store } from "./store.js";
import { pageLink, topBar } from "./topbar.js";

/** Rows of one page: the server's kabes.server.store.rankings.PER_PAGE. */
export const PER_PAGE = 50;
/** Rated hands before a player is listed: the server's kabes.table.rankings.RANKED_AFTER_HANDS. */
const RANKED_AFTER_HANDS = 10;

/** The page of a place (1 the best). */
export function pageOf(place) {
  return Math.floor((place - 1) / PER_PAGE) + 1;
}

function pageInAddress() {
  const n = Number(new URLSearchParams(location.search).get("page"));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export async function rankingsPage(root, variant, nav) {
  const me = store.identity();
  const title = h("h1", {}, t("home.rankings"));
  const mine = h("div", { class: "rank-me" });
  const list = h("div", { class: "rank-table rank-page" }, h("p", { class: "loading" }, t("loading")));
  const pager = h("nav", { class: "rank-pager", "aria-label": t("rank.pages") });
  clear(root).append(
    topBar(nav),
    h("main", { class: "page rankings" },
      title, mine, list, pager,
      h("p", { class: "hint-text", "data-rule": "ranked" }, t("home.rankings_rule", { n: RANKED_AFTER_HANDS }))));
  variantCatalog().then((c) => {
    const v = c.variants.find((x) => x.id === variant);
    title.textContent = `${t("home.rankings")} · ${variantName(variant, v?.title ?? variant)}`;
  }).catch(() => {});

  // Pages asked one after another can be answered out of order: only the answer to the
  // latest ask is shown.
  let asked = 0;
  const show = async (n, { toMe = false, first: opening = false } = {}) => {
    const ask = ++asked;
    let data;
    try {
      data = await api.rankings(variant, n);
    } catch (e) {
      if (ask !== asked) return;
      clear(list).append(h("p", { class: "error" }, errorText(e.code, e.message)));
      clear(pager);
      return;
    }
    if (ask !== asked) return;
    const url = n === 1 ? location.pathname : `${location.pathname}?page=${n}`;
    history.replaceState(history.state, "", url);
    drawMe(data.me ?? null);
    const first = (n - 1) * PER_PAGE;
    clear(list);
    if (!data.rows.length) list.append(h("p", { class: "hint-text" }, n === 1 ? t("home.no_rankings") : t("rank.no_more")));
    else {
      list.append(h("table", {},
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, t("rank.name")),
          h("th", { scope: "col", class: "num" }, t("rank.rating")), h("th", { scope: "col", class: "num" }, t("rank.matches")))),
        h("tbody", {}, data.rows.map((r, i) => {
          const own = me && r.player === me.player;
          return h("tr", { class: own ? "mine" : null, "aria-current": own ? "true" : null, "data-player": r.player, "data-place": first + i + 1, tabindex: own ? "-1" : null },
            h("td", { class: "num" }, String(first + i + 1)),
            h("th", { scope: "row", class: "rank-name" }, pageLink(nav, `/p/${r.player}`, { title: r.name }, r.name),
              own ? h("span", { class: "sr-only" }, ` (${t("tour.you")})`) : null),
            h("td", { class: "num" }, String(Math.round(r.rating))),
            h("td", { class: "num" }, `${r.matches_won}/${r.matches}`));
        }))));
    }
    clear(pager).append(
      h("button", { type: "button", "data-action": "rank-prev", disabled: n <= 1, onclick: () => show(n - 1) }, `‹ ${t("rank.prev")}`),
      h("span", { class: "rank-page-no num", "data-page": n }, t("rank.page", { n })),
      h("button", { type: "button", "data-action": "rank-next", disabled: data.rows.length < PER_PAGE, onclick: () => show(n + 1) }, `${t("rank.next")} ›`));
    const row = list.querySelector("tr.mine");
    if (toMe && row) {
      row.scrollIntoView({ block: "center" });
      row.focus({ preventScroll: true });
    } else if (!toMe && !opening) list.scrollIntoView({ block: "start" });
  };

  const drawMe = (place) => {
    clear(mine);
    if (!place) {
      mine.append(h("p", { class: "hint-text" }, t("rank.not_ranked")));
      return;
    }
    mine.append(h("button", { type: "button", class: "primary", "data-action": "rank-me", "data-place": place.place,
      onclick: () => show(pageOf(place.place), { toMe: true }) },
    t("rank.my_place", { n: place.place, rating: Math.round(place.rating) })));
  };

  await show(pageInAddress(), { first: true });
}

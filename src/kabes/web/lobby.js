// lobby.js — the public tables (/lobby, GET /api/lobby): a room of tables. Each waiting table
// a card with its variant, its target, the names seated and the empty chairs, and a button
// to sit down (data-action="join"); each match in play its score and an eye with the number
// watching, and a button to watch it (data-action="watch"). The lists are asked again every
// few seconds while the page is open; leaving it stops that.

import { api, variantCatalog } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { variantName } from "./names.js";
import { eyeIcon } from "./watching.js";
import { playerLink } from "./playerlink.js";
import { topBar } from "./topbar.js";

export const REFRESH_MS = 4000;

function people(table) {
  return table.seats.filter((s) => s).map((s) => s.name);
}

function goal(table) {
  const o = table.options || {};
  if (o.open_ended) return t("score.open_ended");
  if (o.target) return t("score.target", { n: o.target });
  return null;
}

function chairs(table, go) {
  return h("ul", { class: "chairs" }, table.seats.map((s, i) => h("li", { class: `chair${s ? " taken" : ""}`, "data-seat": i },
    s ? playerLink(s, s.name, go) : h("span", { class: "free" }, t("lobby.free_seat")))));
}

/** The score of a match in play, when the summary carries it: "12 · 7". */
function score(table) {
  return Array.isArray(table.scores) ? table.scores.join(" · ") : null;
}

function waitingCard(table, titles, go) {
  const free = table.seats.filter((s) => s === null).length;
  const names = people(table).join(", ");
  return h("li", { class: "card lobby-table", "data-code": table.code },
    h("div", { class: "lobby-head" },
      h("h3", {}, variantName(table.variant, titles[table.variant])),
      goal(table) ? h("span", { class: "goal num" }, goal(table)) : null),
    chairs(table, go),
    h("div", { class: "lobby-foot" },
      h("span", { class: "num" }, t("lobby.free", { n: free })),
      h("button", { type: "button", class: "primary", "data-action": "join", "aria-label": t("lobby.join_table", { names }), onclick: () => go(`/t/${table.code}`) }, t("action.sit"))));
}

function playingCard(table, titles, go) {
  const names = people(table).join(", ");
  const sc = score(table);
  return h("li", { class: "card lobby-table playing", "data-code": table.code },
    h("div", { class: "lobby-head" },
      h("h3", {}, variantName(table.variant, titles[table.variant])),
      goal(table) ? h("span", { class: "goal num" }, goal(table)) : null),
    h("p", { class: "lobby-names" }, table.seats.filter((s) => s).flatMap((s, i) => [i ? ", " : null, playerLink(s, s.name, go)])),
    h("div", { class: "lobby-foot" },
      sc ? h("span", { class: "lobby-score num" }, sc) : null,
      h("span", { class: "lobby-watchers num" }, eyeIcon(), " ", t("watch.count", { n: table.watchers || 0 })),
      h("button", { type: "button", "data-action": "watch", "aria-label": t("lobby.watch_table", { names }), onclick: () => go(`/t/${table.code}`) }, t("action.watch"))));
}

/** Open the lobby in root; returns a function that leaves it (stops the refreshing). */
export async function lobbyPage(root, nav) {
  let timer = null;
  let stopped = false;
  const online = h("p", { class: "online num", role: "status" });
  const waiting = h("section", { class: "lobby-list", "aria-labelledby": "lobby-waiting" }, h("h2", { id: "lobby-waiting" }, t("lobby.waiting")), h("p", { class: "loading" }, t("loading")));
  const playing = h("section", { class: "lobby-list", "aria-labelledby": "lobby-playing" }, h("h2", { id: "lobby-playing" }, t("lobby.playing")));
  const go = (path) => nav.go(path);
  clear(root).append(
    topBar(nav),
    h("main", { class: "page lobby" },
      h("h1", {}, t("lobby.title")),
      online,
      waiting,
      playing,
      h("div", { class: "actions" }, h("button", { type: "button", "data-action": "home", onclick: () => nav.go("/") }, t("action.home")))));
  let titles = {};
  try {
    titles = Object.fromEntries((await variantCatalog()).variants.map((v) => [v.id, v.title]));
  } catch {
    /* the lobby still shows, with the variants' own names */
  }
  const refresh = async () => {
    if (stopped) return;
    try {
      const data = await api.lobby();
      if (stopped) return;
      const focused = document.activeElement;
      const again = focused?.dataset?.action && root.contains(focused)
        ? `[data-code="${focused.closest("[data-code]")?.dataset.code}"] [data-action="${focused.dataset.action}"]` : null;
      online.textContent = t("home.online", { n: data.people_online ?? 0 });
      clear(waiting).append(h("h2", { id: "lobby-waiting" }, t("lobby.waiting")),
        data.waiting.length
          ? h("ul", { class: "lobby-tables" }, data.waiting.map((x) => waitingCard(x, titles, go)))
          : h("p", { class: "hint-text" }, t("lobby.none_waiting")));
      clear(playing).append(h("h2", { id: "lobby-playing" }, t("lobby.playing")),
        data.playing.length
          ? h("ul", { class: "lobby-tables" }, data.playing.map((x) => playingCard(x, titles, go)))
          : h("p", { class: "hint-text" }, t("lobby.none_playing")));
      if (again && !root.contains(focused)) root.querySelector(again)?.focus();
    } catch (e) {
      if (!stopped) online.textContent = errorText(e.code, e.message);
    }
    if (!stopped) timer = setTimeout(refresh, REFRESH_MS);
  };
  await refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

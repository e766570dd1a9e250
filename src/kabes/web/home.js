// home.js — the home screen: a new game (variant, players, a level for each computer seat,
// target and the variant's options from GET /api/variants, the rules' defaults preselected)
// played with people (a seat at the public table that will fill first, POST /api/quick),
// against the computer, or at a table opened for friends (public, listed in the lobby, when
// its switch is on); the people playing now and the way to the lobby (/lobby); this player
// on another phone (link.js); joining by code or link; the rankings
// of each variant; your own matches with their records to download; the way to the lessons
// (Learn, /learn); the puzzle of the day (/puzzles); the tournaments (/c).
// With no network (issue 26, offline.js): the top bar says so once; the form comes from the
// catalog kept with the offline pack and "Play against the computer" opens a table on this
// phone (localsocket.js), as it does online when the player chose the phone; what needs the
// server (people, the lobby, puzzles, joining, tournaments, rankings, the server's matches, linking a
// phone) stays in its place, greyed, with one line why, and asks the server nothing. "Play
// without a network" (offlinecard.js) and "My games on this phone" (mygames.js) come after the
// first paint.

import { api, ApiError, variantCatalog } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t, has } from "./i18n.js";
import { linkDialog } from "./link.js";
import { playerLink } from "./playerlink.js";
import { optionFields, playersField, variantField } from "./matchfields.js";
import { levelName, variantName } from "./names.js";
import { checkPack, isOffline, keepCatalog, keptCatalog, localModule, offlineNote, onNetworkChange, pack, serverAnswered, serverUnreachable, updatePack, useLocalTable } from "./offline.js";
import { store } from "./store.js";
import { pageLink, topBar } from "./topbar.js";

const LEVELS = ["beginner", "casual", "skilled", "expert"];

/** The table code in what was typed: a code, or a link ending in /t/CODE. */
export function codeFrom(text) {
  const s = text.trim();
  const m = s.match(/\/t\/([A-Za-z0-9_-]+)/);
  return (m ? m[1] : s).replace(/[^A-Za-z0-9_-]/g, "");
}

/** Grey out what needs the server, in place, with one line why; it asks nothing. */
function needsNetwork(el) {
  el.classList.add("needs-network");
  el.addEventListener("click", (e) => {
    e.preventDefault();
    e.stopPropagation();
  }, true);
  for (const control of el.querySelectorAll("button, input, select")) control.disabled = true;
  for (const link of el.querySelectorAll("a")) {
    link.removeAttribute("href");
    link.setAttribute("aria-disabled", "true");
    link.setAttribute("role", "link");
  }
  el.append(h("p", { class: "hint-text needs-line" }, t("offline.needs_network")));
  return el;
}

export async function homePage(root, nav) {
  const me = store.identity();
  await checkPack();
  const offline = isOffline();
  const grey = (el) => (offline ? needsNetwork(el) : el);
  // Going offline or coming back draws home again, as it then is.
  const stop = onNetworkChange(() => nav.go(location.pathname));
  const status = h("p", { class: "status flash", role: "status", "aria-live": "polite" });
  const say = (text) => (status.textContent = text);
  const newGame = h("section", { class: "card", "aria-labelledby": "new-title" }, h("h2", { id: "new-title" }, t("home.new_game")), h("p", { class: "loading" }, t("loading")));
  const rankings = h("section", { class: "card", "aria-labelledby": "rank-title" }, h("h2", { id: "rank-title" }, t("home.rankings")));
  const history = h("section", { class: "card", "aria-labelledby": "hist-title" }, h("h2", { id: "hist-title" }, t("home.history")));
  const myGames = h("section", { class: "card my-games-card", "aria-labelledby": "my-games-title", hidden: true });
  const offer = h("section", { class: "card offline-card", "aria-labelledby": "offline-title", hidden: true });
  clear(root).append(
    topBar(nav, { home: true, note: offlineNote() }),
    h("main", { class: "page home" },
      h("p", { class: "hello" }, t("home.hello", { name: me.name }), " ",
        grey(h("span", {}, pageLink(nav, `/p/${me.player}`, { "data-action": "my-page" }, t("player.your_page"))))),
      grey(lobbyCard(nav, offline)),
      offline && !pack.ready ? needsNetwork(learnCard(nav)) : learnCard(nav),
      grey(puzzlesCard(nav)),
      newGame,
      myGames,
      offer,
      grey(joinCard(nav)),
      grey(tournamentsCard(nav)),
      grey(rankings),
      grey(history),
      grey(h("div", { class: "actions" }, h("button", { type: "button", "data-action": "link-device", onclick: () => linkDialog() }, t("link.action")))),
      status),
  );
  import("./mygames.js").then((m) => m.myGamesCard(myGames, nav, offline && pack.ready)).catch(() => {});
  import("./offlinecard.js").then((m) => m.offlineCard(offer)).catch(() => {});
  let catalog = null;
  if (offline) catalog = await keptCatalog();
  else {
    try {
      catalog = await variantCatalog();
      serverAnswered();
      keepCatalog(catalog);
      updatePack();
    } catch (e) {
      if (e.code === "network") serverUnreachable(); // home is drawn again, offline
      else clear(newGame).append(h("h2", { id: "new-title" }, t("home.new_game")), h("p", { class: "error" }, errorText(e.code, e.message)));
      return stop;
    }
  }
  if (!catalog) {
    clear(newGame).append(h("h2", { id: "new-title" }, t("home.new_game")), h("p", { class: "hint-text" }, t("offline.get_pack")));
    return stop;
  }
  const { variants: list, default: first } = catalog;
  gameForm(newGame, list, first, nav, say, offline);
  if (offline) return stop;
  rankingsCard(rankings, list, nav);
  historyCard(history, me, Object.fromEntries(list.map((v) => [v.id, v.title])));
  return stop;
}

/** A table against the computer on this phone (localsocket.js); its code. */
async function localTable(spec) {
  const local = await localModule();
  if (!local?.newLocalTable) throw new Error("no local table");
  return local.newLocalTable(spec);
}

/** first: the variant to offer when none was chosen before (the server's default); offline:
 * only the computer can be played. */
function gameForm(card, list, first, nav, say, offline) {
  const saved = store.settings() || {};
  const state = {
    variant: list.some((v) => v.id === saved.variant) ? saved.variant : list.some((v) => v.id === first) ? first : list[0].id,
    players: saved.players,
    options: saved.options || {},
    levels: saved.levels || {},
    public: !!saved.public,
  };
  const body = h("div", { class: "form-body" });
  const draw = () => {
    const variant = list.find((v) => v.id === state.variant);
    if (!variant.seat_counts.includes(state.players)) state.players = variant.default_players;
    const spec = variant.options[String(state.players)] || {};
    for (const name of Object.keys(state.options)) if (!(name in spec)) delete state.options[name];
    store.setSettings(state);
    const focusId = document.activeElement?.id;
    clear(body);
    body.append(variantField(list, state, "", draw));
    if (has(`about.${variant.id}`)) body.append(h("p", { class: "hint-text" }, t(`about.${variant.id}`)));
    body.append(playersField(variant, state, "", draw));
    body.append(h("div", { class: "options" }, optionFields(spec, state, "", () => store.setSettings(state))));
    const levels = h("fieldset", { class: "levels" }, h("legend", {}, t("home.computer_levels")));
    for (let seat = 1; seat < state.players; seat += 1) {
      const id = `level-${seat}`;
      const level = LEVELS.includes(state.levels[seat]) ? state.levels[seat] : "skilled";
      levels.append(h("div", { class: "field inline" },
        h("label", { for: id }, t("home.computer_seat", { n: seat + 1 })),
        h("select", { id, "data-seat": seat, onchange: (e) => { state.levels[seat] = e.target.value; store.setSettings(state); } },
          LEVELS.map((l) => h("option", { value: l, selected: l === level }, levelName(l))))));
    }
    if (!variant.people_only) body.append(levels);
    const run = async (computers, button) => {
      button.disabled = true;
      try {
        const spec2 = { variant: state.variant, players: state.players, options: { ...state.options } };
        if (computers) {
          spec2.computers = {};
          for (let seat = 1; seat < state.players; seat += 1) spec2.computers[String(seat)] = LEVELS.includes(state.levels[seat]) ? state.levels[seat] : "skilled";
        } else if (state.public) spec2.public = true;
        if (computers && useLocalTable()) {
          nav.go(`/t/${await localTable(spec2)}`);
          return;
        }
        const table = await api.newTable(spec2);
        nav.go(`/t/${table.code}`);
      } catch (e) {
        say(e instanceof ApiError ? errorText(e.code, e.message) : t("offline.local_failed"));
        button.disabled = false;
      }
    };
    const playButton = h("button", { type: "button", class: "primary big", "data-action": "play-computer", disabled: variant.people_only, onclick: (e) => run(true, e.currentTarget) }, t("action.play_computer"));
    const openButton = h("button", { type: "button", class: "big", "data-action": "open-table", onclick: (e) => run(false, e.currentTarget) }, t("action.open_table"));
    const quick = async (button) => {
      button.disabled = true;
      try {
        const seated = await api.quick({ variant: state.variant, players: state.players, options: { ...state.options } });
        nav.go(`/t/${seated.table.code}`);
      } catch (e) {
        say(errorText(e.code, e.message));
        button.disabled = false;
      }
    };
    const peopleButton = h("button", { type: "button", class: "primary big", "data-action": "quick-seat", onclick: (e) => quick(e.currentTarget) }, t("action.play_people"));
    const publicSwitch = h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "public-table", "data-action": "public", checked: state.public, onchange: (e) => { state.public = e.target.checked; store.setSettings(state); } }),
      h("label", { for: "public-table" }, t("home.public")));
    if (offline) body.append(h("div", { class: "actions" }, playButton), needsNetwork(h("div", {}, h("div", { class: "actions" }, peopleButton, openButton), publicSwitch)));
    else body.append(h("div", { class: "actions" }, peopleButton, playButton, openButton), publicSwitch);
    if (variant.people_only) body.append(h("p", { class: "hint-text" }, t(offline ? "offline.people_only" : "home.people_only")));
    if (focusId) document.getElementById(focusId)?.focus();
  };
  clear(card).append(h("h2", { id: "new-title" }, t("home.new_game")), body);
  draw();
}

/** The people playing now (GET /api/lobby) and the way to the public tables. */
function lobbyCard(nav, offline) {
  const count = h("span", { class: "online num", hidden: true });
  if (!offline) api.lobby().then((d) => {
    count.textContent = t("home.online", { n: d.people_online ?? 0 });
    count.hidden = false;
  }).catch(() => {});
  return h("section", { class: "card lobby-card", "aria-label": t("lobby.title") },
    count,
    h("a", { class: "button", href: "/lobby", "data-action": "lobby", onclick: (e) => { e.preventDefault(); nav.go("/lobby"); } }, t("action.lobby")));
}

/** A card that leads to another page: its title, a line about it, and the button to go. */
function wayCard(nav, { id, title, text, path, action, button }) {
  return h("section", { class: "card learn-card", "aria-labelledby": id },
    h("div", {}, h("h2", { id }, title), h("p", { class: "hint-text" }, text)),
    h("a", { class: "button", href: path, "data-action": action, onclick: (e) => { e.preventDefault(); nav.go(path); } }, button));
}

function learnCard(nav) {
  return wayCard(nav, { id: "learn-card-title", title: t("home.learn"), text: t("home.learn_text"), path: "/learn", action: "learn", button: t("action.learn") });
}

function puzzlesCard(nav) {
  return wayCard(nav, { id: "puzzle-card-title", title: t("puzzle.home_title"), text: t("puzzle.home_text"), path: "/puzzles", action: "puzzles", button: t("puzzle.open") });
}

function tournamentsCard(nav) {
  return wayCard(nav, { id: "tour-card-title", title: t("tour.tournaments"), text: t("tour.home_text"), path: "/c", action: "tournaments", button: t("tour.see") });
}

function joinCard(nav) {
  const input = h("input", { id: "join-code", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "ABC1234" });
  return h("section", { class: "card", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, t("home.join")),
    h("form", {
      class: "join-form",
      onsubmit: (e) => {
        e.preventDefault();
        const code = codeFrom(input.value);
        if (code) nav.go(`/t/${code.toUpperCase()}`);
        else input.focus();
      },
    },
    h("div", { class: "field" }, h("label", { for: "join-code" }, t("home.join_label")), input),
    h("button", { type: "submit", class: "primary", "data-action": "join" }, t("action.join"))));
}

/** Rated hands before a player is listed: the server's kabes.table.rankings.RANKED_AFTER_HANDS. */
const RANKED_AFTER_HANDS = 10;

function rankingsCard(card, list, nav) {
  const table = h("div", { class: "rank-table" });
  // Answers can come back out of order (the first variant's, asked as the card opens, after
  // the one picked next): only the answer to the latest pick fills the table.
  let asked = 0;
  const load = async (variant) => {
    const mine = ++asked;
    clear(table).append(h("p", { class: "loading" }, t("loading")));
    try {
      const data = await api.rankings(variant);
      if (mine !== asked) return;
      clear(table);
      if (!data.rows.length) {
        table.append(h("p", { class: "hint-text" }, t("home.no_rankings")));
        return;
      }
      table.append(h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("rank.name")), h("th", { scope: "col" }, t("rank.rating")), h("th", { scope: "col" }, t("rank.matches")))),
        h("tbody", {}, data.rows.slice(0, 50).map((r, i) => h("tr", {},
          h("td", { class: "num" }, String(i + 1)), h("td", {}, playerLink(r, r.name)), h("td", { class: "num" }, String(Math.round(r.rating))),
          h("td", { class: "num" }, `${r.matches_won}/${r.matches}`))))));
    } catch (e) {
      if (mine === asked) clear(table).append(h("p", { class: "error" }, errorText(e.code, e.message)));
    }
  };
  const people = list.filter((v) => v.id);
  // The whole list, with one's own place, is the variant's rankings page (rankings.js).
  const all = h("a", { class: "button", "data-action": "all-rankings", onclick: (e) => { e.preventDefault(); nav.go(all.getAttribute("href")); } }, t("home.all_rankings"));
  const pick = (variant) => {
    all.setAttribute("href", `/rankings/${encodeURIComponent(variant)}`);
    load(variant);
  };
  const select = h("select", { id: "rank-variant", onchange: (e) => pick(e.target.value) }, people.map((v) => h("option", { value: v.id }, variantName(v.id, v.title))));
  card.append(h("div", { class: "field" }, h("label", { for: "rank-variant" }, t("home.variant")), select), table,
    h("p", { class: "hint-text" }, t("home.rankings_rule", { n: RANKED_AFTER_HANDS })), h("div", { class: "actions" }, all));
  pick(select.value);
}

/** titles: the server's title of each variant, for one the page's words do not name. */
async function historyCard(card, me, titles) {
  const body = h("div", {});
  card.append(body);
  try {
    const data = await api.player(me.player);
    if (!data.matches.length) {
      body.append(h("p", { class: "hint-text" }, t("home.no_history")));
      return;
    }
    body.append(h("ul", { class: "history" }, data.matches.slice(0, 30).map((m) => h("li", {},
      h("span", {}, variantName(m.variant, titles[m.variant])),
      h("span", { class: "hist-state" }, m.finished ? (m.won ? t("history.won") : t("history.lost")) : t("history.unfinished")),
      m.finished || !m.code ? null : h("a", { href: `/t/${m.code}` }, t("history.open")),
      m.code ? h("a", { href: api.recordUrl(m.code), download: `kabes-${m.code}.json`, "aria-label": t("history.download_of", { code: m.code }) }, t("history.download")) : null))));
  } catch (e) {
    body.append(h("p", { class: "hint-text" }, e.status === 404 ? t("home.no_history") : errorText(e.code, e.message)));
  }
}

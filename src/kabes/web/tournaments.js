// tournaments.js — the tournaments' page (/c): the public tournaments open or running
// (GET /api/tournaments), each a card to open at /c/ID, and "Create a tournament": variant,
// seats, each match's options, the format (only those the variant can play, from its traits:
// round robin and knockout are two sides a table), Swiss rounds, public or not. The host
// lands on the new tournament's page, where its link is to share.

import { api, variantCatalog } from "./api.js";
import { append, clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { optionFields, playersField, variantField } from "./matchfields.js";
import { variantName } from "./names.js";
import { topBar } from "./topbar.js";

export const FORMATS = ["swiss", "round_robin", "knockout"];
const HEAD_TO_HEAD = ["round_robin", "knockout"];
const SWISS_ROUNDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** Options a tournament never offers: its matches are never open-ended (the server's rule). */
const NOT_IN_TOURNAMENTS = ["open_ended"];

/** The sides at each table: pairs in a team variant, else players (the server's rule). */
export function sidesAt(variant, players) {
  const traits = variant.traits?.[String(players)];
  return traits?.teams ? players / 2 : players;
}

/** The formats a variant can play with that many seats. */
export function formatsFor(variant, players) {
  return FORMATS.filter((f) => !HEAD_TO_HEAD.includes(f) || sidesAt(variant, players) === 2);
}

export function formatName(format) {
  return t(`tour.format_${format}`);
}

/** The page of every public tournament, and the form to create one. */
export async function tournamentsPage(root, nav) {
  const status = h("p", { class: "status flash", role: "status", "aria-live": "polite" });
  const say = (text) => (status.textContent = text);
  const listCard = h("section", { class: "card", "aria-labelledby": "tours-title" },
    h("h2", { id: "tours-title" }, t("tour.public")), h("p", { class: "loading" }, t("loading")));
  const newCard = h("section", { class: "card", "aria-labelledby": "tour-new-title" },
    h("h2", { id: "tour-new-title" }, t("tour.create")), h("p", { class: "loading" }, t("loading")));
  clear(root).append(
    topBar(nav),
    h("main", { class: "page tournaments" },
      h("h1", {}, t("tour.tournaments")),
      listCard,
      newCard,
      status));
  let catalog;
  try {
    catalog = await variantCatalog();
  } catch (e) {
    clear(newCard).append(h("h2", { id: "tour-new-title" }, t("tour.create")), h("p", { class: "error" }, errorText(e.code, e.message)));
    return;
  }
  const titles = Object.fromEntries(catalog.variants.map((v) => [v.id, v.title]));
  createForm(newCard, catalog.variants, catalog.default, nav, say);
  try {
    const { tournaments } = await api.tournaments();
    clear(listCard).append(h("h2", { id: "tours-title" }, t("tour.public")));
    if (!tournaments.length) listCard.append(h("p", { class: "hint-text" }, t("tour.none")));
    else listCard.append(h("ul", { class: "tour-list" }, tournaments.map((c) => tournamentItem(c, titles, nav))));
  } catch (e) {
    clear(listCard).append(h("h2", { id: "tours-title" }, t("tour.public")), h("p", { class: "error" }, errorText(e.code, e.message)));
  }
}

function tournamentItem(c, titles, nav) {
  const state = c.status === "open" ? t("tour.status_open") : t("tour.status_running", { n: c.round, of: c.rounds ?? "?" });
  return h("li", {},
    h("a", { class: "tour-item", href: `/c/${c.id}`, "data-tournament": c.id, onclick: (e) => { e.preventDefault(); nav.go(`/c/${c.id}`); } },
      h("span", { class: "tour-item-name" }, `${variantName(c.variant, titles[c.variant])} · ${formatName(c.format)}`),
      h("span", { class: "tour-item-meta" }, `${t("tour.entrants", { n: c.entrants.length })} · ${state}`)));
}

function createForm(card, list, first, nav, say) {
  const state = { variant: list.some((v) => v.id === first) ? first : list[0].id, players: null, options: {}, format: "swiss", rounds: 3, public: true };
  const body = h("div", { class: "form-body" });
  const draw = () => {
    const variant = list.find((v) => v.id === state.variant);
    if (!variant.seat_counts.includes(state.players)) state.players = variant.default_players;
    const formats = formatsFor(variant, state.players);
    if (!formats.includes(state.format)) state.format = formats[0];
    const spec = variant.options[String(state.players)] || {};
    for (const name of Object.keys(state.options)) if (!(name in spec)) delete state.options[name];
    const focusId = document.activeElement?.id;
    clear(body);
    body.append(variantField(list, state, "tour-", draw), playersField(variant, state, "tour-", draw));
    append(body, optionFields(spec, state, "tour-", () => {}, NOT_IN_TOURNAMENTS));
    body.append(h("fieldset", { class: "field segmented" },
      h("legend", {}, t("tour.format")),
      formats.map((f) => h("label", { class: "seg" },
        h("input", { type: "radio", name: "tour-format", id: `tour-format-${f}`, value: f, checked: f === state.format, onchange: () => { state.format = f; draw(); } }),
        h("span", {}, formatName(f))))));
    if (formats.length < FORMATS.length) body.append(h("p", { class: "hint-text" }, t("tour.two_sides_only")));
    if (state.format === "swiss") {
      body.append(h("div", { class: "field" },
        h("label", { for: "tour-rounds" }, t("tour.rounds")),
        h("select", { id: "tour-rounds", onchange: (e) => { state.rounds = Number(e.target.value); } },
          SWISS_ROUNDS.map((n) => h("option", { value: n, selected: n === state.rounds }, String(n))))));
    }
    body.append(h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "tour-public", checked: state.public, onchange: (e) => { state.public = e.target.checked; } }),
      h("label", { for: "tour-public" }, t("tour.public_check"))));
    body.append(h("div", { class: "actions" },
      h("button", { type: "button", class: "primary big", "data-action": "create-tournament", onclick: (e) => create(e.currentTarget) }, t("tour.create"))));
    if (focusId) document.getElementById(focusId)?.focus();
  };
  const create = async (button) => {
    button.disabled = true;
    const spec = { variant: state.variant, players: state.players, options: { ...state.options }, format: state.format, public: state.public };
    if (state.format === "swiss") spec.rounds = state.rounds;
    try {
      const made = await api.newTournament(spec);
      nav.go(`/c/${made.id}`);
    } catch (e) {
      say(errorText(e.code, e.message));
      button.disabled = false;
    }
  };
  clear(card).append(h("h2", { id: "tour-new-title" }, t("tour.create")), body);
  draw();
}

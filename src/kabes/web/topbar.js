// topbar.js — the one top bar of every page: the brand (a link home, but on home itself, and
// the logo but at a table), what the page puts after it (a tournament's tag, a lesson's way
// back), and the language picker (langPicker, which the welcome and a table's menu show too). A table in play has its own bar of scores, clock and menu
// (tableBar) with its phrases' button (sayButton). Also the tag of a tournament's table (tournamentTag), so that a table needs no
// tournament module.

import { h, svg } from "./dom.js";
import { LANGS, LANG_NAMES, lang, setLang, t } from "./i18n.js";
import { store } from "./store.js";

let serial = 0;

/** The language switch, on every screen: a labelled <select> of the languages (the one list,
 * /static/i18n/languages.json), each written in itself; a change loads the language at once and
 * keeps the choice on this device. */
export function langPicker() {
  serial += 1;
  const id = `lang-${serial}`;
  const select = h("select", {
    id,
    onchange: async (e) => {
      store.setLang(e.target.value);
      await setLang(e.target.value);
    },
  }, LANGS.map((code) => h("option", { value: code, lang: code, selected: code === lang() }, LANG_NAMES[code])));
  return h("div", { class: "field lang-field" }, h("label", { for: id }, t("settings.language")), select);
}

/** Kabès's logo (the welcome's hero shows it too). */
export function logo() {
  return h("img", { class: "logo", src: "/static/icons/icon.svg", alt: "", width: 64, height: 64 });
}

/** A link inside the page: nav.go(href) instead of loading the page again. */
export function pageLink(nav, href, attrs, ...children) {
  return h("a", { ...attrs, href, onclick: (e) => { e.preventDefault(); nav.go(href); } }, ...children);
}

/**
 * The top bar of a page. Options: home (the brand is no link: the home page), noLogo (the
 * brand without the logo: a table's waiting room), start (what stands instead of the brand:
 * a lesson's way back), after (what follows the brand), cls (a class for the page's look),
 * note (a line under the bar's row: offline.js's "No network").
 */
export function topBar(nav, { home = false, noLogo = false, start = null, after = null, cls = "", note = null } = {}) {
  const mark = [noLogo ? null : logo(), "Kabès"];
  const brand = start ?? (home ? h("span", { class: "brand" }, mark) : pageLink(nav, "/", { class: "brand" }, mark));
  return h("header", { class: `topbar plain${cls ? ` ${cls}` : ""}` }, brand, after, langPicker(), note);
}

/** The bar of a table in play: the page gives what it holds (scores, clock, phrases, menu). */
export function tableBar(...items) {
  return h("header", { class: "topbar" }, items);
}

/** The speech-bubble button of a table's bar (data-action="say"): open() shows the phrases
 * (phrases.js, loaded when first asked for). */
export function sayButton(open) {
  return h("button", { type: "button", class: "icon-button", "data-action": "say", "aria-label": t("phrase.open"), "aria-haspopup": "dialog", onclick: open },
    svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "bubble-icon" },
      svg("path", { d: "M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" })));
}

/** A tournament table's tag: the round, a link to the tournament; null at other tables. */
export function tournamentTag(summary, nav) {
  if (!summary?.tournament) return null;
  return pageLink(nav, `/c/${summary.tournament}`, { class: "tour-tag", "data-action": "tournament" },
    summary.round ? t("tour.tag_round", { n: summary.round }) : t("tour.tournament"));
}

// topbar.js — the one top bar of every page: the brand (a link home, but on home itself, and
// the logo but at a table), what the page puts after it (a tournament's tag, a lesson's way
// back), and the language picker. A table in play has its own bar of scores, clock and menu
// (tableBar). Also the tag of a tournament's table (tournamentTag), so that a table needs no
// tournament module.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { langPicker } from "./langpick.js";

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
 * a lesson's way back), after (what follows the brand), cls (a class for the page's look).
 */
export function topBar(nav, { home = false, noLogo = false, start = null, after = null, cls = "" } = {}) {
  const mark = [noLogo ? null : logo(), "Kabès"];
  const brand = start ?? (home ? h("span", { class: "brand" }, mark) : pageLink(nav, "/", { class: "brand" }, mark));
  return h("header", { class: `topbar plain${cls ? ` ${cls}` : ""}` }, brand, after, langPicker());
}

/** The bar of a table in play: the page gives what it holds (scores, clock, phrases, menu). */
export function tableBar(...items) {
  return h("header", { class: "topbar" }, items);
}

/** A tournament table's tag: the round, a link to the tournament; null at other tables. */
export function tournamentTag(summary, nav) {
  if (!summary?.tournament) return null;
  return pageLink(nav, `/c/${summary.tournament}`, { class: "tour-tag", "data-action": "tournament" },
    summary.round ? t("tour.tag_round", { n: summary.round }) : t("tour.tournament"));
}

// app.js — the page's entry point: picks the language, asks a first-time visitor for a
// name, and routes by the list of pages (pages.js): "/" is home (and any path no page has),
// "/t/CODE" the table page for CODE, and so on. Navigation inside the page uses
// history.pushState; Back works.
// Registers the service worker (sw.js).

import { clear, h } from "./dom.js";
import { onLangChange, preferredLang, setLang, t } from "./i18n.js";
import { pageAt, PAGES } from "./pages.js";
import { store } from "./store.js";

// Each page is loaded when first opened (pages.js lists them): a first visit to home on a slow
// phone fetches only what home needs, a table only what a table needs (the server preloads
// each page's modules: server/pages.py). The welcome too: a player already named never runs it.
// A page may start something before its modules arrive (pages.js: "starts", run at the first
// route): a table asks for its summary and opens its socket while they download.

const root = document.getElementById("app");
let leave = null;
let serial = 0;
let starting = null;

const nav = {
  go(path) {
    if (path !== location.pathname) history.pushState(null, "", path);
    route();
  },
};

/** The page at the current path (home for any other), and its parts. */
function current() {
  return pageAt(location.pathname) || { page: PAGES[0], parts: {} };
}

function title(page, parts) {
  if (!page.title) return "Kabès";
  const named = page.title.match(/^\{(\w+)\}$/);
  return `Kabès · ${named ? parts[named[1]] : t(page.title)}`;
}

/** A page's own stylesheet (pages.js: "style"), added to the head once; resolves once it is in
 * (the server's head names it on a first visit to the page). */
function style(name) {
  if (!name) return null;
  const href = `/static/${name}`;
  let link = document.head.querySelector(`link[rel=stylesheet][href="${href}"]`);
  if (link?.sheet) return null;
  if (!link) {
    link = h("link", { rel: "stylesheet", href });
    document.head.append(link);
  }
  return new Promise((done) => {
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
  });
}

/** A new mount for the page a route is about to draw, in #app in place of the last one.
 *
 * A route waits (for its page's module and stylesheet, then for whatever the page awaits
 * before it draws, such as home's look at the offline pack), and the player may move on
 * meanwhile: on a slow network, tap Tournaments and then Back. Each route therefore draws into
 * a mount of its own: a route is drawn only if it is still the latest once its module is in
 * (the serial check in route()), and a page that was current then but went on drawing after
 * the next route began draws into a mount that is no longer in the document. The last page's
 * nodes move into the new mount, so they stay on screen until the new page clears it. */
function newMount() {
  const last = root.querySelector(":scope > .route") || root;
  const mount = h("div", { class: "route" });
  mount.append(...last.childNodes);
  root.replaceChildren(mount);
  return mount;
}

async function route() {
  serial += 1;
  const mine = serial;
  if (leave) {
    leave();
    leave = null;
  }
  document.querySelector(".conn-banner")?.remove();
  const { page, parts } = current();
  if (!store.identity() && !page.open) {
    const { welcomePage } = await import("./welcome.js");
    if (mine === serial) welcomePage(newMount(), { joining: !!page.joining, done: () => route() });
    return;
  }
  if (starting && !page.starts) starting.then((m) => m.take(null), () => {});
  starting = null;
  document.title = title(page, parts);
  const [module] = await Promise.all([import(`./${page.module}`), style(page.style)]);
  // A later route began while this page's module was on its way: that route draws, not this.
  if (mine !== serial) return;
  const stop = await module[page.page](newMount(), ...Object.values(parts), nav);
  if (typeof stop !== "function") return;
  if (mine === serial) leave = stop;
  else stop();
}

async function boot() {
  const { page, parts } = current();
  if (page.starts && (store.identity() || page.open)) {
    starting = import(`./${page.starts}`);
    starting.then((m) => m.start(...Object.values(parts)), () => {});
  }
  try {
    await setLang(preferredLang(store.lang()));
  } catch {
    await setLang("en");
  }
  onLangChange(() => {
    // Some pages redraw themselves (pages.js: "redraws"); others are simply drawn again.
    if (!current().page.redraws || !store.identity()) route();
  });
  window.addEventListener("popstate", route);
  await route();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
}

boot().catch((e) => {
  clear(root).append(h("p", { class: "error" }, `${t("error.unknown")} (${e})`));
});

// app.js — the page's entry point: picks the language, asks a first-time visitor for a
// name, and routes: "/" is home, "/t/CODE" is the table page for CODE, "/lobby" the public
// tables, "/learn" the lessons' paths and "/learn/ID" a lesson, "/c" the tournaments and
// "/c/ID" one tournament. Navigation inside the page uses history.pushState; Back works.
// Registers the service worker (sw.js).

import { clear, h } from "./dom.js";
import { onLangChange, preferredLang, setLang, t } from "./i18n.js";
import { homePage } from "./home.js";
import { store } from "./store.js";
import { welcomePage } from "./welcome.js";

// The table and lessons are loaded when first opened: a first visit to home on a slow phone
// fetches only what home needs (the server preloads each page's modules: server/pages.py).
const tablePage = (...a) => import("./table.js").then((m) => m.tablePage(...a));
const lessonPage = (...a) => import("./lesson.js").then((m) => m.lessonPage(...a));
const learnPage = (...a) => import("./learn.js").then((m) => m.learnPage(...a));
const tournamentPage = (...a) => import("./tournament.js").then((m) => m.tournamentPage(...a));
const lobbyPage = (...a) => import("./lobby.js").then((m) => m.lobbyPage(...a));
const tournamentsPage = (...a) => import("./tournaments.js").then((m) => m.tournamentsPage(...a));

const root = document.getElementById("app");
let leave = null;
let serial = 0;

const nav = {
  go(path) {
    if (path !== location.pathname) history.pushState(null, "", path);
    route();
  },
};

async function route() {
  serial += 1;
  const mine = serial;
  if (leave) {
    leave();
    leave = null;
  }
  document.querySelector(".conn-banner")?.remove();
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  const lesson = location.pathname.match(/^\/learn\/([A-Za-z0-9_.-]+)\/?$/);
  const tournament = location.pathname.match(/^\/c\/([A-Za-z0-9_-]+)\/?$/);
  if (!store.identity()) {
    welcomePage(root, { joining: !!match, done: () => route() });
    return;
  }
  if (match) {
    document.title = `Kabès · ${match[1]}`;
    const stop = await tablePage(root, match[1], nav);
    if (mine === serial) leave = stop;
    else stop();
  } else if (tournament) {
    document.title = `Kabès · ${t("tour.tournament")}`;
    const stop = await tournamentPage(root, tournament[1], nav);
    if (mine === serial) leave = stop;
    else stop();
  } else if (/^\/c\/?$/.test(location.pathname)) {
    document.title = `Kabès · ${t("tour.tournaments")}`;
    await tournamentsPage(root, nav);
  } else if (lesson) {
    document.title = "Kabès";
    const stop = await lessonPage(root, lesson[1], nav);
    if (mine === serial) leave = stop;
    else stop();
  } else if (/^\/lobby\/?$/.test(location.pathname)) {
    document.title = `Kabès · ${t("lobby.title")}`;
    const stop = await lobbyPage(root, nav);
    if (mine === serial) leave = stop;
    else stop();
  } else if (/^\/learn\/?$/.test(location.pathname)) {
    document.title = `Kabès · ${t("learn.title")}`;
    await learnPage(root, nav);
  } else {
    document.title = "Kabès";
    await homePage(root, nav);
  }
}

async function boot() {
  try {
    await setLang(preferredLang(store.lang()));
  } catch {
    await setLang("en");
  }
  onLangChange(() => {
    // The table and lesson pages redraw themselves; other screens are simply drawn again.
    if (!/^\/(t|learn)\/./.test(location.pathname) || !store.identity()) route();
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

// app.js — the page's entry point: picks the language, asks a first-time visitor for a
// name, and routes: "/" is home, "/t/CODE" is the table page for CODE, "/lobby" the public
// tables, "/learn" the lessons' paths and "/learn/ID" a lesson. Navigation inside the page uses history.pushState; Back
// works. Registers the service worker (sw.js).

import { clear, h } from "./dom.js";
import { onLangChange, preferredLang, setLang, t } from "./i18n.js";
import { homePage } from "./home.js";
import { learnPage } from "./learn.js";
import { lobbyPage } from "./lobby.js";
import { lessonPage } from "./lesson.js";
import { store } from "./store.js";
import { tablePage } from "./table.js";
import { welcomePage } from "./welcome.js";

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
  if (!store.identity()) {
    welcomePage(root, { joining: !!match, done: () => route() });
    return;
  }
  if (match) {
    document.title = `Kabès · ${match[1]}`;
    const stop = await tablePage(root, match[1], nav);
    if (mine === serial) leave = stop;
    else stop();
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

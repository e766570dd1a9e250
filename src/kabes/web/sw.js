// sw.js — the service worker, served at /sw.js so its scope is the whole site. It caches
// the page's shell (HTML, styles, icons) when installed, every module the list of pages
// (pages.js) reaches and each page's own stylesheet, and the words: the list of languages and
// every language's catalog, as that list names them (so a new page, module or language needs
// no line here). It serves them network-first: online you always get the server's files,
// offline (or on a dead network) the cached ones, so the app opens from a phone's home screen. /api/ is never cached: the game state always comes from the server.
// The offline pack (issue 26, docs/offline.md) is another cache, PACK, which the page fills
// when the player asks for it (offline.js): /offline/ is answered from it first (its files
// never change under their names, and the manifest there is the pack that is kept), else from
// the server; a request of the page that asks the server itself (cache: "no-cache") goes
// there. A new shell (CACHE's number) deletes every other cache but the pack's.

const CACHE = "kabes-shell-v8";
/** offline.js's PACK_CACHE. */
const PACK = "kabes-offline-v1";
const OFFLINE = "/offline/";
/** Where the server serves the catalogs (kabes/words/catalogs), as i18n.js reads them. */
const WORDS = "/static/i18n/";
const LANGUAGES = `${WORDS}languages.json`;
const STATIC = "/static/";
/** The shell besides the modules, which are found from the list of pages (pages.js). */
const SHELL = [
  "/",
  "/static/app.css",
  "/static/manifest.webmanifest",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/offline/worker.js", // the local table's worker: started with new Worker, imported by none
];
/** A module's imports of modules of the same folder: static, re-exported, or import("./x.js"). */
const IMPORTS = /(?:\bfrom\s*|^\s*import\s*|\bimport\(\s*)"\.\/([\w.-]+\.js)"/gm;

/** Every module of the client, into the cache: app.js, pages.js and each page it lists, and
 * whatever they import (statically or not), as the server finds them (server/pages.py); and
 * each page's own stylesheet. */
async function cacheModules(cache) {
  const list = await (await fetch(`${STATIC}pages.js`)).text();
  const pages = JSON.parse(list.match(/\bPAGES\s*=\s*(\[[\s\S]*?\n\]);/)[1]);
  await cache.addAll([...new Set(pages.filter((p) => p.style).map((p) => `${STATIC}${p.style}`))]);
  const todo = ["app.js", "pages.js", ...pages.map((p) => p.module)];
  const seen = new Set();
  while (todo.length) {
    const wave = [...new Set(todo.splice(0))].filter((m) => !seen.has(m));
    wave.forEach((m) => seen.add(m));
    const texts = await Promise.all(wave.map(async (m) => {
      const response = await fetch(`${STATIC}${m}`);
      if (!response.ok) return "";
      await cache.put(`${STATIC}${m}`, response.clone());
      return response.text();
    }));
    for (const text of texts) for (const found of text.matchAll(IMPORTS)) todo.push(found[1]);
  }
}

/** The list of languages, then each language's catalog, into the cache. */
async function cacheWords(cache) {
  const response = await fetch(LANGUAGES);
  if (!response.ok) throw new Error("no languages.json");
  const languages = await response.clone().json();
  await cache.put(LANGUAGES, response);
  await cache.addAll(Object.keys(languages).map((code) => `${WORDS}${code}.json`));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.allSettled([cache.addAll(SHELL), cacheModules(cache), cacheWords(cache)]))
      .catch(() => {})
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== PACK).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith(OFFLINE)) {
    if (request.cache === "no-cache" || request.cache === "no-store" || request.cache === "reload") return;
    event.respondWith(caches.match(request, { cacheName: PACK }).then((kept) => kept || fetch(request)));
    return;
  }
  const page = request.mode === "navigate";
  if (!page && !url.pathname.startsWith("/static/")) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && !page) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(page ? "/" : request);
        return cached || Response.error();
      }),
  );
});

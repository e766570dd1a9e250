// sw.js — the service worker, served at /sw.js so its scope is the whole site. It caches
// the page's shell (HTML, modules, styles, icons) when installed, and the words: the list
// of languages and every language's catalog, as that list names them (so a new language
// needs no line here). It serves them network-first: online you always get the server's
// files, offline (or on a dead network) the cached ones, so the app opens from a phone's
// home screen. /api/ is never cached: the game state always comes from the server.

const CACHE = "kabes-shell-v5";
/** Where the server serves the catalogs (kabes/words/catalogs), as i18n.js reads them. */
const WORDS = "/static/i18n/";
const LANGUAGES = `${WORDS}languages.json`;
const SHELL = [
  "/",
  "/static/app.css",
  "/static/api.js",
  "/static/app.js",
  "/static/clock.js",
  "/static/dom.js",
  "/static/explain.js",
  "/static/hand.js",
  "/static/home.js",
  "/static/i18n.js",
  "/static/langpick.js",
  "/static/learn.js",
  "/static/lesson.js",
  "/static/line.js",
  "/static/link.js",
  "/static/lobby.js",
  "/static/names.js",
  "/static/phrases.js",
  "/static/playarea.js",
  "/static/results.js",
  "/static/review.js",
  "/static/socket.js",
  "/static/store.js",
  "/static/table.js",
  "/static/tableview.js",
  "/static/tiles.js",
  "/static/tournament.js",
  "/static/tournaments.js",
  "/static/trains.js",
  "/static/waiting.js",
  "/static/watching.js",
  "/static/welcome.js",
  "/static/manifest.webmanifest",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
];

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
      .then((cache) => Promise.allSettled([cache.addAll(SHELL), cacheWords(cache)]))
      .catch(() => {})
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
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

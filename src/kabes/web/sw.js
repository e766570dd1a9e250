// sw.js — the service worker, served at /sw.js so its scope is the whole site. It caches
// the page's shell (HTML, modules, styles, translations, icons) when installed, and serves
// it network-first: online you always get the server's files, offline (or on a dead
// network) the cached ones, so the app opens from a phone's home screen. /api/ is never
// cached: the game state always comes from the server.

const CACHE = "kabes-shell-v3";
const SHELL = [
  "/",
  "/static/app.css",
  "/static/app.js",
  "/static/api.js",
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
  "/static/names.js",
  "/static/playarea.js",
  "/static/results.js",
  "/static/review.js",
  "/static/socket.js",
  "/static/store.js",
  "/static/table.js",
  "/static/tableview.js",
  "/static/tiles.js",
  "/static/trains.js",
  "/static/waiting.js",
  "/static/welcome.js",
  "/static/manifest.webmanifest",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/i18n/ht.json",
  "/static/i18n/en.json",
  "/static/i18n/fr.json",
  "/static/i18n/es.json",
  "/static/i18n/pt.json",
  "/static/i18n/no.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL)).catch(() => {}).then(() => self.skipWaiting()),
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

// offline.js — play with no network, the page's side (issue 26, docs/offline.md): whether the
// page is offline, the offline pack kept on the phone, where games against the computer run,
// and the lessons' calls that work with no network.
//
// - Offline means navigator.onLine is false, or the server did not answer (serverUnreachable,
//   told by a page whose call failed for want of a network); "online" again, or a call that was
//   answered, ends it. Pages that draw differently offline listen (onNetworkChange).
// - The pack: the files GET /offline/manifest.json names, downloaded once when the player asks
//   (downloadPack) into a cache of its own, PACK_CACHE, which the service worker answers
//   /offline/ from and never deletes when the shell changes (sw.js). Each file is checked
//   against its SHA-256 before it is kept, and the manifest is kept last: the pack is ready
//   once the kept manifest's every file is in the cache (checkPack, at start), and then
//   <html> carries data-offline="ready". A newer pack on the server (a new engine) costs the
//   phone only its new files (updatePack). The catalog of variants (GET /api/variants) is kept
//   beside it, so that home's form opens with no network.
// - Where games against the computer run (useLocalTable): on this phone when offline, or
//   online when the player chose so (store.computerOnPhone: it saves data); else on the server
//   (stronger on a slow phone). Only ever with the pack ready.
// - The lessons (lessonApi): the calls of api.js, answered by the phone's own engine
//   (localsocket.js's localLessons) when offline with the pack ready.
// - The puzzles (puzzleApi, phonePuzzleCard): the same for the puzzles' calls, answered from
//   the starter set the pack ships (localsocket.js's localPuzzles).
// Only home, the lessons' and the puzzles' pages load this module: a table's first paint does not wait on it.

import { api, ApiError, variantCatalog } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { store } from "./store.js";

/** The pack's cache (sw.js answers /offline/ from it by the same name, and keeps it). */
export const PACK_CACHE = "kabes-offline-v1";
const BASE = "/offline/";
const MANIFEST = `${BASE}manifest.json`;
/** Where the catalog of variants is kept in the pack's cache (the service worker never
 * answers /api/: only this module reads it there). */
const CATALOG = "/api/variants";

let unreachable = false;
const listeners = new Set();

function changed() {
  for (const listener of [...listeners]) listener();
}

/** No network: the phone says so, or the server did not answer. */
export function isOffline() {
  return !navigator.onLine || unreachable;
}

/** Call `listener` whenever the page goes offline or comes back; returns what stops it. */
export function onNetworkChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A call to the server failed for want of a network while the phone says it is online. */
export function serverUnreachable() {
  if (unreachable) return;
  unreachable = true;
  changed();
}

/** The server answered a call. */
export function serverAnswered() {
  if (!unreachable) return;
  unreachable = false;
  changed();
}

window.addEventListener("online", () => {
  unreachable = false;
  changed();
});
window.addEventListener("offline", changed);

// The pack.

/** The state of the pack on this phone: ready (every file kept), and the kept manifest. */
export const pack = { ready: false, manifest: null };
let checking = null;

function mark() {
  if (pack.ready) document.documentElement.dataset.offline = "ready";
  else delete document.documentElement.dataset.offline;
}

/** The paths kept in the pack's cache. */
async function keptPaths(cache) {
  return new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
}

/** Look in the cache once whether the pack is there, whole (pack.ready); the same answer
 * after, until the pack changes. Never fails. */
export function checkPack() {
  checking ??= (async () => {
    try {
      if (typeof caches === "undefined" || !(await caches.has(PACK_CACHE))) return pack;
      const cache = await caches.open(PACK_CACHE);
      const kept = await cache.match(MANIFEST);
      const manifest = kept ? await kept.json() : null;
      const paths = await keptPaths(cache);
      pack.manifest = manifest;
      pack.ready = !!manifest && Object.keys(manifest.files).every((p) => paths.has(BASE + p));
    } catch {
      pack.ready = false;
    }
    mark();
    return pack;
  })();
  return checking;
}

/** The server's manifest, asked of the server itself (not the cache); null where the server
 * has no pack (404). Throws ApiError "network" with no network. */
export async function serverManifest() {
  let answer;
  try {
    answer = await fetch(MANIFEST, { cache: "no-cache", headers: { Accept: "application/json" } });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  if (answer.status === 404) return null;
  if (!answer.ok) throw new ApiError(answer.status, `http_${answer.status}`);
  return answer.json();
}

/** What the browser receives of the pack, in bytes: brotli where it accepts it (on HTTPS, as
 * a service worker needs), else gzip. */
export function wireBytes(manifest) {
  return (location.protocol === "https:" ? manifest.br : manifest.gzip) || manifest.bytes;
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** One file of the pack, read as it arrives (`got(n)`: n more bytes), checked, kept. */
async function keepFile(cache, path, file, got) {
  let answer;
  try {
    answer = await fetch(BASE + path);
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  if (!answer.ok || !answer.body) throw new ApiError(answer.status, `http_${answer.status}`);
  const reader = answer.body.getReader();
  const chunks = [];
  for (;;) {
    let part;
    try {
      part = await reader.read();
    } catch (e) {
      throw new ApiError(0, "network", String(e));
    }
    if (part.done) break;
    chunks.push(part.value);
    got(part.value.byteLength);
  }
  const blob = new Blob(chunks);
  const whole = blob.size === file.bytes && (!crypto.subtle || (await sha256(await blob.arrayBuffer())) === file.sha256);
  if (!whole) throw new ApiError(0, "network", `${path} arrived damaged`);
  const type = answer.headers.get("Content-Type") || "application/octet-stream";
  await cache.put(BASE + path, new Response(blob, { headers: { "Content-Type": type, "Content-Length": String(blob.size) } }));
}

/** The download under way (one at a time), and who is told of its progress. */
let downloading = null;
let progressTo = () => {};

/**
 * Download the pack (`manifest`: the server's) into its cache: what is not kept yet, one file
 * after another, `progress(fraction)` as bytes arrive; the manifest last, then the files no
 * longer named are removed. A download cut short keeps the files it finished: the next one
 * goes on from there. Asked again while one is under way (home left and opened again), it
 * answers that one, now telling `progress`. Resolves with the pack once ready; throws
 * ApiError as api.js does.
 */
export function downloadPack(manifest, progress = () => {}) {
  progressTo = progress;
  downloading ??= fetchPack(manifest).finally(() => {
    downloading = null;
  });
  return downloading;
}

/** Whether a download is under way (the card then shows its progress). */
export function isDownloading() {
  return downloading !== null;
}

async function fetchPack(manifest) {
  const cache = await caches.open(PACK_CACHE);
  const kept = await keptPaths(cache);
  const files = Object.entries(manifest.files);
  let done = files.filter(([p]) => kept.has(BASE + p)).reduce((n, [, f]) => n + f.bytes, 0);
  progressTo(done / manifest.bytes);
  for (const [path, file] of files) {
    if (kept.has(BASE + path)) continue;
    await keepFile(cache, path, file, (n) => {
      done += n;
      progressTo(Math.min(done / manifest.bytes, 1));
    });
  }
  await cache.put(MANIFEST, new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } }));
  const named = new Set([MANIFEST, CATALOG, ...Object.keys(manifest.files).map((p) => BASE + p)]);
  for (const request of await cache.keys()) {
    if (!named.has(new URL(request.url).pathname)) await cache.delete(request);
  }
  navigator.storage?.persist?.().catch(() => {});
  checking = null;
  await checkPack();
  try {
    await keepCatalog(await variantCatalog());
  } catch {
    /* kept at home's next visit online */
  }
  return pack;
}

/** Online with the pack kept: fetch what a newer pack on the server adds (a new engine is its
 * archive alone), quietly; a failure leaves the kept pack as it was. */
export async function updatePack() {
  await checkPack();
  if (!pack.ready || isOffline()) return;
  try {
    const manifest = await serverManifest();
    const same = (a, b) => JSON.stringify(Object.keys(a.files).sort()) === JSON.stringify(Object.keys(b.files).sort());
    if (manifest && !same(manifest, pack.manifest)) await downloadPack(manifest);
  } catch {
    /* the kept pack still plays */
  }
}

/** Remove the pack from this phone (the games played stay). */
export async function removePack() {
  if (typeof caches !== "undefined") await caches.delete(PACK_CACHE);
  pack.ready = false;
  pack.manifest = null;
  mark();
  checking = Promise.resolve(pack);
}

/** Keep the catalog of variants beside a ready pack, for home's form with no network. */
export async function keepCatalog(catalog) {
  if (!pack.ready) return;
  try {
    const cache = await caches.open(PACK_CACHE);
    await cache.put(CATALOG, new Response(JSON.stringify(catalog), { headers: { "Content-Type": "application/json" } }));
  } catch {
    /* the form then needs the server */
  }
}

/** The catalog of variants kept beside the pack, or null. */
export async function keptCatalog() {
  if (typeof caches === "undefined") return null;
  try {
    const kept = await caches.match(CATALOG, { cacheName: PACK_CACHE });
    return kept ? await kept.json() : null;
  } catch {
    return null;
  }
}

/** Whether a game against the computer is to be played on this phone (localsocket.js's
 * newLocalTable) rather than at the server: only with the pack ready, and then when offline
 * or when the player chose the phone. Knows the pack once checkPack() has answered. */
export function useLocalTable() {
  return pack.ready && (isOffline() || store.computerOnPhone());
}

/** The local table's module (localsocket.js), or null where it cannot be loaded. */
export async function localModule() {
  try {
    return await import("./localsocket.js");
  } catch {
    return null;
  }
}

function lessonCall(name, kind = "localLessons") {
  const local = async () => (pack.ready ? (await localModule())?.[kind] ?? null : null);
  return async (...args) => {
    await checkPack();
    const here = isOffline() ? await local() : null;
    if (here) return here[name](...args);
    try {
      const answer = await api[name](...args);
      serverAnswered();
      return answer;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "network") throw e;
      serverUnreachable();
      const there = await local();
      if (!there) throw e;
      return there[name](...args);
    }
  };
}

/** The lessons' calls of api.js (same arguments, same answers): the server's, or offline with
 * the pack ready the phone's own (localsocket.js's localLessons). */
export const lessonApi = {
  lessons: lessonCall("lessons"),
  lesson: lessonCall("lesson"),
  tryLesson: lessonCall("tryLesson"),
  lessonDone: lessonCall("lessonDone"),
};

/** The puzzles' calls of api.js (same arguments, same answers but a try's null rating): the
 * server's, or offline with the pack ready the phone's own from the starter set. */
export const puzzleApi = {
  puzzleDaily: lessonCall("puzzleDaily", "localPuzzles"),
  puzzleNext: lessonCall("puzzleNext", "localPuzzles"),
  tryPuzzle: lessonCall("tryPuzzle", "localPuzzles"),
};

/** The puzzle card kept on this phone (streak, no rating) when offline with the pack ready,
 * else null: the server's card (the player's page) is the one to show. */
export async function phonePuzzleCard() {
  await checkPack();
  if (!isOffline() || !pack.ready) return null;
  return (await localModule())?.localPuzzles.puzzleCard() ?? null;
}

/** The top bar's line saying, once, that there is no network (hidden while online); it
 * follows the network while it is in the page. */
export function offlineNote() {
  const note = h("p", { class: "offline-note", role: "status", "data-offline-note": "" });
  const paint = () => {
    note.hidden = !isOffline();
    note.textContent = isOffline() ? t(pack.ready ? "offline.no_network_phone" : "offline.no_network") : "";
  };
  // A change arrives as an event, after the page that asked has put the note in.
  const stop = onNetworkChange(() => (note.isConnected ? paint() : stop()));
  paint();
  checkPack().then(paint);
  return note;
}

checkPack();

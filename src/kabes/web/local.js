// local.js — the page's side of the offline table's worker (offline/worker.js, issue 26):
// tables against the computer and lessons played on this phone alone, with the server's own
// Python in Pyodide. A local table's code starts with "L" (no server's does); its page is the
// table page (/t/L...), whose socket is then a LocalSocket (localsocket.js, chosen by
// socket.js), answered with exactly the messages of /api/tables/{code}/ws.
//
// For home and the other pages:
//   newLocalTable({variant, players, options, computers}) → code: a new table (the body and
//     the checks of POST /api/tables; every other seat a computer's, computers: {"1":
//     "expert", ...}), kept at once in "My games" (games.js); then open /t/CODE.
//   resumeLocalTable(code) → summary (as GET /api/tables/CODE): the table held by the worker,
//     or rebuilt from the game kept on this phone, at the same move; ApiError not_found.
//   localLessons: {lessons(lang), lesson(id, lang), tryLesson(id, lang, body), lessonDone(id)},
//     api.js's lesson calls answered by the same Python (a lesson finished here is kept on
//     this phone only, and counted done in its paths).
//   localPuzzles: {puzzleDaily(), puzzleNext(), tryPuzzle(id, move), puzzleCard()}, api.js's
//     puzzle calls answered from the starter set the pack ships (the phone's date); the tries
//     and the streak are kept on this phone only (localStorage), and nothing is rated.
//   isLocal(code), localReady() (whether the worker answers: the pack is there).
// A failure is ApiError {code} as api.js throws ("unavailable": the pack cannot be loaded).
// After every change the worker hands the table's new entries, and the game is saved whole
// (saveGame): a reload, or the phone killing the tab, loses no move.

import { ApiError } from "./api.js";
import { getGame, saveGame } from "./games.js";
import { store } from "./store.js";

const WORKER = "/static/offline/worker.js";

let worker = null;
let serial = 0;
const waiting = new Map();
/** Each open local socket, by "code/socket": what the worker sends it goes there. */
export const sockets = new Map();
/** Each game this page knows, whole (with all its entries), by code. */
const games = new Map();
/** The codes of the tables the worker holds now. */
const held = new Set();

/** Whether `code` names a table on this phone. */
export function isLocal(code) {
  return typeof code === "string" && code.startsWith("L");
}

function start() {
  worker = new Worker(WORKER, { type: "module" });
  worker.onmessage = (event) => receive(event.data);
  worker.onerror = (event) => {
    // The worker itself failed (its script could not load): every request waiting fails,
    // and the next one starts a new worker.
    worker?.terminate();
    worker = null;
    held.clear();
    for (const { reject } of waiting.values()) reject(new ApiError(0, "unavailable", event.message || "the offline worker failed"));
    waiting.clear();
  };
}

/** One request to the worker: its answer, or ApiError. */
export function call(op, fields = {}) {
  if (!worker) start();
  serial += 1;
  const id = serial;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, ...fields });
  });
}

function receive(data) {
  for (const out of data.out || []) sockets.get(`${out.code}/${out.socket}`)?.deliver(out);
  const saved = Promise.all((data.games || []).map(keep));
  const asked = data.id === null || data.id === undefined ? null : waiting.get(data.id);
  if (!asked) return;
  waiting.delete(data.id);
  const error = data.error || (data.type === "error" ? data : null);
  // Answered once what it changed is kept: a page opened next finds the game.
  if (error) saved.then(() => asked.reject(new ApiError(0, error.code, error.message)));
  else saved.then(() => asked.resolve(data.answer));
}

/** Keep a game the worker handed: its entries after those this page has, saved whole. */
function keep(game) {
  const { since, entries, ...head } = game;
  const before = since > 0 ? games.get(game.code)?.entries ?? [] : [];
  const whole = { ...head, entries: before.slice(0, since).concat(entries) };
  games.set(game.code, whole);
  return saveGame(whole);
}

/** The person at a local table: this phone's player. */
function person() {
  const me = store.identity();
  return { player: me?.player ?? 0, name: me?.name || "You" };
}

export async function newLocalTable(spec) {
  const { code } = await call("open", { table: spec, ...person() });
  held.add(code);
  return code;
}

export async function resumeLocalTable(code) {
  if (!isLocal(code)) throw new ApiError(404, "not_found", `no table ${code} on this phone`);
  if (held.has(code)) return (await call("table", { code }));
  const game = games.get(code) || (await getGame(code));
  if (!game) throw new ApiError(404, "not_found", `no table ${code} on this phone`);
  games.set(code, game);
  const { table } = await call("resume", { code, entries: game.entries });
  held.add(code);
  return table;
}

const DONE = "kabes.lessons_done_here";
/** The lessons finished on this phone with no network (the server keeps the others). */
function doneHere() {
  try {
    const kept = JSON.parse(localStorage.getItem(DONE));
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/** The lessons' calls of api.js (same arguments, same answers), answered on this phone. */
export const localLessons = {
  lessons: (lang) => call("lessons", { lang, done: doneHere() }),
  lesson: (id, lang) => call("lesson", { lesson: id, lang }),
  tryLesson: (id, lang, body) => call("try", { lesson: id, lang, body }),
  /** Kept on this phone only (localStorage); `next`: the first lesson of its path not done. */
  async lessonDone(id) {
    const done = [...new Set([...doneHere(), id])];
    const { paths } = await call("lessons", { lang: "en", done });
    const path = paths.find((p) => p.lessons.some((lesson) => lesson.id === id));
    if (!path) throw new ApiError(404, "not_found", `no lesson ${id}`);
    try {
      localStorage.setItem(DONE, JSON.stringify(done));
    } catch {
      /* private mode: not kept */
    }
    return { id, done: true, next: path.next };
  },
};

const PUZZLES = "kabes.puzzles_here";
/** The puzzles tried on this phone with no network: {tried: {id: correct}, streak, best}. */
function puzzlesHere() {
  try {
    const kept = JSON.parse(localStorage.getItem(PUZZLES));
    if (kept && typeof kept.tried === "object") return kept;
  } catch {
    /* nothing kept */
  }
  return { tried: {}, streak: 0, best: 0 };
}

/** The phone's date, as the server names a day (YYYY-MM-DD). */
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The puzzles' calls of api.js (same answers; a try's rating is null), answered on this
 * phone from the starter set; only a puzzle's first try here counts in the streak. */
export const localPuzzles = {
  puzzleDaily: () => call("puzzle_daily", { day: today(), variant: null }),
  puzzleNext: () => call("puzzle_next", { day: today(), variant: null, tried: Object.keys(puzzlesHere().tried) }),
  async tryPuzzle(id, move) {
    const answer = await call("puzzle_try", { puzzle: id, move });
    const kept = puzzlesHere();
    if (!(id in kept.tried)) {
      kept.tried[id] = answer.correct;
      kept.streak = answer.correct ? kept.streak + 1 : 0;
      kept.best = Math.max(kept.best, kept.streak);
      try {
        localStorage.setItem(PUZZLES, JSON.stringify(kept));
      } catch {
        /* private mode: not kept */
      }
    }
    return answer;
  },
  /** The card the puzzles' top bar shows: the streak kept here, no rating. */
  puzzleCard() {
    const kept = puzzlesHere();
    const tried = Object.values(kept.tried);
    return { rating: null, streak: kept.streak, best_streak: kept.best, solved: tried.filter(Boolean).length, tried: tried.length };
  },
};

/** Whether the worker answers (the offline pack is there and runs): true or false. */
export function localReady() {
  return call("lessons", { lang: "en", done: [] }).then(() => true, () => false);
}

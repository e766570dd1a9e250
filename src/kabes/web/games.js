// games.js — the games played on this phone alone (offline, against the computer), kept in
// IndexedDB so that a reload or the phone killing the tab loses no move. One record a game:
//
//   {code, variant, players, seats, started, updated, status, entries, record, result}
//
// `code` is the local table's code (it starts with "L", never a server's); `entries` is the
// table's log as the pure table (kabes.table) writes it, enough to rebuild the table exactly
// by replaying it; `status` is the table's status ("playing" until the match is over, then
// "over"); `record` is the match's record (DESIGN.md) once it is over, else null; `result`
// what the list of games shows ({scores, winners}), null while playing. The local table
// (offline/worker.js's driver) writes a game after every change; home's "My games on this
// phone" reads them. Every call survives a phone without IndexedDB (private mode) by
// answering nothing rather than failing.

const DB = "kabes-games";
const STORE = "games";
const VERSION = 1;

let opening = null;

function open() {
  if (opening) return opening;
  opening = new Promise((resolve) => {
    if (typeof indexedDB === "undefined") return resolve(null);
    let request;
    try {
      request = indexedDB.open(DB, VERSION);
    } catch {
      return resolve(null);
    }
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORE)) {
        db.createObjectStore(STORE, { keyPath: "code" }).createIndex("updated", "updated");
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  return opening;
}

function run(mode, work) {
  return open().then((db) => {
    if (!db) return null;
    return new Promise((resolve) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : null);
      tx.onerror = () => resolve(null);
      tx.onabort = () => resolve(null);
    });
  });
}

/** Keep `game` (a whole record as above), replacing the one of the same code. */
export function saveGame(game) {
  return run("readwrite", (games) => games.put({ ...game, updated: Date.now() }));
}

/** The game of `code`, or null. */
export function getGame(code) {
  return run("readonly", (games) => games.get(code)).then((game) => game || null);
}

/** Every game on this phone, the last played first. */
export function listGames() {
  return run("readonly", (games) => games.getAll()).then((all) =>
    (all || []).sort((a, b) => b.updated - a.updated));
}

/** Forget the game of `code`. */
export function removeGame(code) {
  return run("readwrite", (games) => games.delete(code));
}

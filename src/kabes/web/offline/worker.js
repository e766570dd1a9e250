// worker.js — the offline table's Web Worker (issue 26, docs/offline.md): it runs the same
// Python engine, levels, lessons and table as the server, in Pyodide, from the offline pack
// the server serves under /offline/, and serves the local tables (kabes.local) to the page.
// The pack is loaded once, at the first message. Started as a module worker:
// new Worker("/static/offline/worker.js", {type: "module"}) (web/local.js does).
//
// The page sends requests {id, op, ...}; each is answered by one message {id, answer} or
// {id, error: {code, message}} (the protocol's codes), with what the call also made:
//   out:   [{code, socket, text} | {code, socket, close}]  what each local socket is sent,
//          a message of /api/tables/{code}/ws as its JSON text, or the code it is closed with;
//   games: [{code, variant, players, seats, started, status, record, result, since, entries}]
//          each table that changed, its entries logged since it was last handed (`since`:
//          the first one's index), for the page to keep (web/games.js).
// The ops are kabes.local.tables' (open, resume, table, send, close, lessons, lesson, try).
// When a table acts by itself (a computer seat's move after its delay, the pause between
// hands), the worker posts {id: null, out, games} unasked. And, the proof that the pack runs:
//   {type: "ping", id} → {type: "pong", id, python, pyodide, kabes, variants, dealt}
// A pack that cannot be loaded is {id, error: {code: "unavailable", message}}; the next
// request tries again. Its answer's Content-Security-Policy lets it compile WebAssembly
// ('wasm-unsafe-eval'), which no other answer of the server allows.

const PACK = new URL("/offline/", self.location.origin);

/** Pyodide with the kabes archive unpacked, the manifest, and the worker's tables. */
async function load() {
  const answer = await fetch(new URL("manifest.json", PACK));
  if (!answer.ok) throw new Error(`no offline pack on this server (${answer.status})`);
  const manifest = await answer.json();
  const index = new URL(manifest.pyodide.index, PACK).href;
  const { loadPyodide } = await import(`${index}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: index });
  const archive = await fetch(new URL(manifest.kabes, PACK));
  if (!archive.ok) throw new Error(`the kabes archive is missing (${archive.status})`);
  pyodide.unpackArchive(new Uint8Array(await archive.arrayBuffer()), "zip");
  const tables = pyodide.runPython("from kabes.local.tables import Tables\nTables()");
  return { pyodide, manifest, tables };
}

let loading = null;
let timer = null;

/** What the engine says of itself: its Python, the variants, a first hand dealt. */
function pong(pyodide, manifest, id) {
  const found = JSON.parse(pyodide.runPython(`
import json, sys
import kabes
from kabes.match import Match
from kabes.rules import VARIANTS
match = Match("haitian", 4)
match.deal_hand()
json.dumps({"python": sys.version.split()[0], "kabes": kabes.__version__,
            "variants": list(VARIANTS), "dealt": [len(h) for h in match.hand.hands]})
`));
  return { type: "pong", id, pyodide: manifest.pyodide.version, ...found };
}

/** Run one request in Python, post its answer, and wake again when a table falls due. */
function run(tables, id, request) {
  const done = JSON.parse(tables.call(JSON.stringify(request)));
  self.postMessage({ id, ...done });
  clearTimeout(timer);
  timer = done.due === null ? null : setTimeout(() => tick(tables), done.due * 1000);
}

/** The tables' own time (a computer seat's move, the pause's end): what it sends goes unasked. */
function tick(tables) {
  try {
    run(tables, null, { op: "tick" });
  } catch (err) {
    console.error("the local tables' tick failed", err);
  }
}

self.onmessage = async (event) => {
  const { type, id, ...request } = event.data ?? {};
  const refuse = (code, message) => self.postMessage(request.op
    ? { id, error: { code, message }, out: [], games: [], due: null }
    : { type: "error", id, code, message });
  let loaded;
  try {
    loading ??= load();
    loaded = await loading;
  } catch (err) {
    loading = null;
    refuse("unavailable", String(err));
    return;
  }
  const { pyodide, manifest, tables } = loaded;
  try {
    if (type === "ping") self.postMessage(pong(pyodide, manifest, id));
    else if (request.op) run(tables, id, request);
    else refuse("bad_message", `no ${type} here`);
  } catch (err) {
    refuse("unavailable", String(err)); // a fault of this request only: the tables go on
  }
};

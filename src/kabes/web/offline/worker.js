// worker.js — the offline table's Web Worker (issue 26, docs/offline.md): it runs the same
// Python engine as the server, in Pyodide, from the offline pack the server serves under
// /offline/. The pack is loaded once, at the first message; each message is answered by one.
// For now it answers a ping, the proof that the pack runs in this browser:
//   {type: "ping", id} → {type: "pong", id, python, pyodide, kabes, variants, dealt}
// and anything else with {type: "error", id, code: "bad_message"}. A pack that cannot be
// loaded is {type: "error", id, code: "unavailable", message}; the next message tries again.
// Started as a module worker: new Worker("/static/offline/worker.js", {type: "module"}). Its
// answer's Content-Security-Policy lets it compile WebAssembly ('wasm-unsafe-eval'), which
// no other answer of the server allows.

const PACK = new URL("/offline/", self.location.origin);

/** Pyodide with the kabes archive unpacked and the engine imported, and the manifest. */
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
  pyodide.runPython("import kabes.match, kabes.ai, kabes.rules");
  return { pyodide, manifest };
}

let loading = null;

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

self.onmessage = async (event) => {
  const { type, id } = event.data ?? {};
  try {
    loading ??= load();
    const { pyodide, manifest } = await loading;
    if (type === "ping") {
      self.postMessage(pong(pyodide, manifest, id));
    } else {
      self.postMessage({ type: "error", id, code: "bad_message", message: `no ${type} here` });
    }
  } catch (err) {
    loading = null;
    self.postMessage({ type: "error", id, code: "unavailable", message: String(err) });
  }
};

// Runs Python in Node's Pyodide from the offline pack, as the page will run it: the pack's own
// Pyodide folder (the files the server serves), the kabes archive unpacked, then one function
// of a Python file called with a JSON text, which it answers with another.
//
//   node offline/run.mjs PACK FILE.py FUNCTION [JSON]
//
// Prints one JSON line: {"load_ms", "import_ms", "rss", "heap", "answer"}; what Python prints
// goes to stderr. Used by tests/offline (the pack plays whole matches) and bench/offline.py.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pack, file, name, text = "null"] = process.argv.slice(2);
if (!name) {
  console.error("usage: node offline/run.mjs PACK FILE.py FUNCTION [JSON]");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(pack, "manifest.json"), "utf8"));
const index = resolve(pack, manifest.pyodide.index) + "/";

let start = performance.now();
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index });
pyodide.setStdout({ batched: (line) => process.stderr.write(line + "\n") });
const loadMs = performance.now() - start;

start = performance.now();
pyodide.unpackArchive(new Uint8Array(readFileSync(join(pack, manifest.kabes))), "zip");
pyodide.runPython(
  "import kabes.match, kabes.ai, kabes.records, kabes.lessons.library, kabes.words",
);
const importMs = performance.now() - start;

const scope = pyodide.globals.get("dict")();
pyodide.runPython(readFileSync(file, "utf8"), { globals: scope });
const answer = JSON.parse(scope.get(name)(text));
const heap = pyodide._module.HEAP8.length;
process.stdout.write(
  JSON.stringify({ load_ms: loadMs, import_ms: importMs, rss: process.memoryUsage().rss, heap, answer }) +
    "\n",
);

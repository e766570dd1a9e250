// Runs Python in Node's Pyodide from the offline pack, as the page will run it: the pack's own
// Pyodide folder (the files the server serves), the kabes archive unpacked, then one function
// of a Python module called with a JSON text, which it answers with another.
//
//   node offline/run.mjs PACK MODULE.py FUNCTION [JSON [MORE.py ...]]
//
// MODULE.py (and MORE.py, which it may import) are put in a folder on sys.path and imported
// by their names. Prints one JSON line: {"load_ms", "import_ms", "rss", "heap", "answer"}
// (heap: the WebAssembly memory's bytes); what Python prints goes to stderr. Used by
// tests/offline (the pack plays whole matches) and bench/offline.py.
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pack, file, name, text = "null", ...more] = process.argv.slice(2);
if (!name) {
  console.error("usage: node offline/run.mjs PACK MODULE.py FUNCTION [JSON [MORE.py ...]]");
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
  "import kabes.match, kabes.ai, kabes.records, kabes.lessons.library, kabes.words, " +
    "kabes.local.tables",
);
const importMs = performance.now() - start;

const folder = "/home/pyodide/run";
pyodide.FS.mkdirTree(folder);
for (const path of [file, ...more]) {
  pyodide.FS.writeFile(`${folder}/${basename(path)}`, readFileSync(path, "utf8"));
}
const module = pyodide.runPython(
  `import importlib, sys\nsys.path.insert(0, "${folder}")\n` +
    `importlib.import_module("${basename(file, ".py")}")`,
);
const answer = JSON.parse(module[name](text));
const heap = pyodide._module.HEAP8.length;
process.stdout.write(
  JSON.stringify({ load_ms: loadMs, import_ms: importMs, rss: process.memoryUsage().rss, heap, answer }) +
    "\n",
);

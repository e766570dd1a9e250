"""The offline table's worker (web/offline/worker.js, docs/offline.md) runs the engine in
Chromium: it loads Pyodide and the kabes archive from the server's offline pack, under the
server's Content-Security-Policy (its script's own, which alone lets WebAssembly compile),
and answers a ping with what the engine says of itself. The page's own policy still refuses
WebAssembly.

Skipped where the server has no pack (npm was missing at setup); under CI that is a failure.
"""

from __future__ import annotations

from typing import Any

from kabes.rules import VARIANTS

PING = """async () => {
  const worker = new Worker("/static/offline/worker.js", {type: "module"});
  const answer = (message) => new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message || "the worker failed"));
    worker.postMessage(message);
  });
  const pong = await answer({type: "ping", id: "p1"});
  const refused = await answer({type: "deal", id: "d1"});
  worker.terminate();
  return {pong, refused};
}"""

COMPILE = """() => {
  try { new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); return "compiled"; }
  catch (err) { return String(err); }
}"""


def test_the_worker_runs_the_engine_from_the_pack_under_the_server_s_policy(
    server: str, new_page: Any, js_errors: list[str], pack: dict[str, Any]
) -> None:
    page = new_page()
    page.goto(server + "/")
    got = page.evaluate(PING)
    pong = got["pong"]
    assert pong["type"] == "pong" and pong["id"] == "p1", pong
    assert pong["pyodide"] == pack["pyodide"]["version"]
    assert pong["python"] == pack["pyodide"]["python"]
    assert pong["variants"] == list(VARIANTS)
    assert pong["dealt"] == [7, 7, 7, 7]
    assert got["refused"] == {"type": "error", "id": "d1", "code": "bad_message",
                              "message": "no deal here"}
    worker = page.request.get(server + "/static/offline/worker.js")
    assert "'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
    refused = page.evaluate(COMPILE)
    assert refused.startswith("CompileError") and "Content Security" in refused, refused
    js_errors[:] = [e for e in js_errors if "Content Security Policy" not in e]
    assert not js_errors, js_errors

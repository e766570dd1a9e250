// localsocket.js — a local table's socket (issue 26): what socket.js opens instead of a
// WebSocket for a table on this phone (its code starts with "L"), with the surface socket.js
// uses (readyState, send(text), close(code), onopen, onmessage({data}), onclose({code}),
// onerror), backed by the offline worker (local.js), which answers with exactly the messages
// of /api/tables/{code}/ws. So the table page, the hand's end, hints and "Review my moves"
// work unchanged. It opens once the worker holds the table (rebuilt from the game kept on
// this phone if need be); a table that is not there closes it with 4404 (not_found), which
// socket.js takes as final. It also hands on local.js's API for the pages that load it
// (newLocalTable, resumeLocalTable, localLessons, localPuzzles, isLocal, localReady).

import { call, resumeLocalTable, sockets } from "./local.js";

// What home, the lessons' and the puzzles' pages call (offline.js loads this module): local.js's.
export { isLocal, localLessons, localPuzzles, localReady, newLocalTable, resumeLocalTable } from "./local.js";

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

let counter = 0;

export class LocalSocket {
  constructor(code) {
    counter += 1;
    this.code = code;
    this.socket = counter;
    this.key = `${code}/${counter}`;
    this.readyState = CONNECTING;
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
    sockets.set(this.key, this);
    resumeLocalTable(code).then(() => {
      if (this.readyState !== CONNECTING) return;
      this.readyState = OPEN;
      this.onopen?.({});
    }, (e) => this.closed(e.code === "not_found" ? 4404 : 1013));
  }

  send(text) {
    if (this.readyState !== OPEN) return;
    call("send", { code: this.code, socket: this.socket, text }).catch(() => this.closed(1013));
  }

  close(code = 1000) {
    if (this.readyState === CLOSED) return;
    const open = this.readyState === OPEN;
    this.closed(code);
    if (open) call("close", { code: this.code, socket: this.socket }).catch(() => {});
  }

  /** What the worker sent this socket: a message, or its close. */
  deliver(out) {
    if ("close" in out) this.closed(out.close);
    else if (this.readyState === OPEN) this.onmessage?.({ data: out.text });
  }

  closed(code) {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    sockets.delete(this.key);
    // As a WebSocket's: after what was already received.
    setTimeout(() => this.onclose?.({ code }), 0);
  }
}

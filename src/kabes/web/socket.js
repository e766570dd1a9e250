// socket.js — one seat's WebSocket to a table (PROTOCOL.md), kept open by itself.
// It says hello with the token on every (re)connection, reconnects after a drop (the first
// try at a random moment within FIRST_RETRY, so that the many clients of a process that
// went away do not all come back at once, nor wait longer than they must; then backing off
// from 1 s doubling to 8 s; at once when the browser comes back online), asks for a sync when
// it sees a gap in seq, and re-sends unanswered actions with their same id (the server never
// applies an id twice). A server that stops answering (its process frozen, or cut off from
// the others: docs/scaling.md) is given up on: a socket whose handshake does not end within
// openWait() (twice answerWait() once answers were timed, else HELLO_WAIT), that has no
// welcome HELLO_WAIT after it was opened, or no message for a while after an action went
// unanswered (answerWait(): four times the answers' usual time on this network, 1.5 to 6 s;
// a hint or a review may take longer: not counted), is dropped and opened again (through any
// process of a cluster). Handlers: onMessage(msg), onStatus("connecting" | "open" |
// "reconnecting" | "closed"), onRefused(code) when the server will not seat us.
// A watcher's socket (watch: true) says hello with "watch": true and gets the table from no
// seat; its only action is sync.
//
// A table's first socket opens before its page is ready. On a first visit the table's modules
// take a second or two to download on 3G, and the page then needed round trips of its own (the
// socket's handshake, hello and welcome, a start at a table against the computer) before it
// could show the hand. So app.js runs start() as soon as this module is in (pages.js:
// "starts"): the table's summary (which the page's head asked for) and, for a player seated
// there, the socket's hello go out while the rest downloads; the table's page then takes both
// (take()) and gets the socket's messages in their order. The rule of a table that starts at
// once is here too, so that early socket and the page agree.
//
// A table on this phone (issue 26: its code starts with "L", never a server's) has the same
// page: its summary comes from the offline worker (local.js) and its socket is a LocalSocket
// (localsocket.js) with a WebSocket's surface, both loaded only for such a table.

import { api } from "./api.js";
import { store } from "./store.js";

// Closes after which reconnecting cannot help, with the refusal they stand for: not seated
// (4401), no such table (4404), removed by the host (4403), and a fifth socket of this seat
// that closed this one (4409: reconnecting would close another tab in turn).
const FINAL = { 4401: "not_seated", 4403: "removed", 4404: "not_found", 4409: "too_many_sockets" };
// Milliseconds a socket waits for its welcome (a hello may wait for a table whose process
// died to be taken over: a few seconds) and, with an action unanswered, for any message.
const HELLO_WAIT = 10000;
// An unanswered action is given four times the time answers usually take on this network
// (a moving average of the last ones: a phone on slow 3G is not dropped for being slow),
// within these bounds, and ANSWER_FIRST before any answer was timed. The lower bound is what
// keeps a frozen server's failover near the server's own (docs/scaling.md).
const ANSWER_MIN = 1500;
const ANSWER_MAX = 6000;
const ANSWER_FIRST = 3000;
// Milliseconds within which the first reconnection after a drop is tried, at random.
const FIRST_RETRY = 500;
// Actions whose answer may take longer (the expert searches): not timed, not waited for.
const SLOW = new Set(["hint", "review"]);

/** Whether `code` names a table on this phone (local.js's isLocal, without loading it). */
const isLocal = (code) => code.startsWith("L");

let counter = 0;
function newId() {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export class TableSocket {
  constructor(code, token, { onMessage, onStatus, onRefused, watch = false }) {
    this.code = code;
    this.token = token;
    this.watch = watch;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onRefused = onRefused;
    this.ws = null;
    this.seq = null;
    this.pending = new Map();
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.welcomed = false;
    this.silence = null;
    this.sentAt = new Map();
    this.answerTime = null;
    this.online = () => this.retryNow();
    this.offline = () => {
      if (this.ws && !isLocal(this.code)) this.ws.close();
    };
    window.addEventListener("online", this.online);
    window.addEventListener("offline", this.offline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/api/tables/${encodeURIComponent(this.code)}/ws`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.onStatus(this.welcomed ? "reconnecting" : "connecting");
    if (isLocal(this.code)) {
      import("./localsocket.js").then(({ LocalSocket }) => this.attach(new LocalSocket(this.code)), () => this.scheduleRetry());
      return;
    }
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.attach(ws);
  }

  attach(ws) {
    if (this.stopped) {
      ws.close(1000);
      return;
    }
    this.ws = ws;
    if (!isLocal(this.code)) this.expect(this.openWait());
    const hello = this.watch ? { type: "hello", watch: true, token: this.token } : { type: "hello", token: this.token };
    ws.onopen = () => {
      if (!isLocal(this.code) && this.ws === ws) this.expect(HELLO_WAIT);
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code in FINAL) {
        this.stopped = true;
        this.onStatus("closed");
        this.onRefused(this.refusal || FINAL[event.code]);
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {};
  }

  /** Whether an action that is answered at once waits for its answer (on a server's socket). */
  awaiting() {
    if (isLocal(this.code)) return false;
    for (const action of this.pending.values()) if (!SLOW.has(action.type)) return true;
    return false;
  }

  /** How long an unanswered action waits for a message before the socket is given up on. */
  answerWait() {
    if (this.answerTime === null) return ANSWER_FIRST;
    return Math.min(ANSWER_MAX, Math.max(ANSWER_MIN, 4 * this.answerTime));
  }

  /** How long a socket's handshake may take before the socket is given up on: twice the
   * wait for an answer once answers were timed (a frozen process accepts the connection in
   * its kernel but never answers it), else as long as a welcome. */
  openWait() {
    if (this.answerTime === null) return HELLO_WAIT;
    return Math.min(HELLO_WAIT, 2 * this.answerWait());
  }

  /** An answer to action `id` came: time it (from its last sending). */
  timed(id) {
    const at = this.sentAt.get(id);
    this.sentAt.delete(id);
    if (at === undefined) return;
    const took = performance.now() - at;
    this.answerTime = this.answerTime === null ? took : 0.75 * this.answerTime + 0.25 * took;
  }

  /** Give the server `ms` to say something on this socket, else drop it and reconnect. */
  expect(ms) {
    clearTimeout(this.silence);
    const ws = this.ws;
    this.silence = setTimeout(() => {
      if (this.ws !== ws || !ws) return;
      this.ws = null;
      ws.onclose = null;
      ws.onmessage = null;
      try {
        ws.close(4000);
      } catch {}
      this.scheduleRetry();
    }, ms);
  }

  receive(msg) {
    clearTimeout(this.silence);
    if (this.awaiting()) this.expect(this.answerWait());
    if (msg.type === "error" && msg.id === null && Object.values(FINAL).concat("bad_token").includes(msg.code)) {
      this.refusal = msg.code;
    }
    if (msg.type === "welcome") {
      this.welcomed = true;
      this.attempt = 0;
      this.seq = msg.seq;
      this.onStatus("open");
      this.onMessage(msg);
      for (const [id, action] of this.pending) this.raw({ ...action, id });
      return;
    }
    if (msg.type === "update") {
      const gap = this.seq !== null && msg.seq > this.seq + 1;
      if (this.seq === null || msg.seq > this.seq || gap) this.seq = msg.seq;
      this.onMessage(msg);
      if (gap) this.send("sync");
      return;
    }
    if (["ack", "error", "hint", "review"].includes(msg.type) && msg.id) {
      this.pending.delete(msg.id);
      if (msg.type === "ack" || msg.type === "error") this.timed(msg.id);
    }
    if (!this.awaiting()) clearTimeout(this.silence);
    this.onMessage(msg);
  }

  scheduleRetry() {
    if (this.stopped) return;
    this.onStatus(this.welcomed ? "reconnecting" : "connecting");
    const delay = this.attempt === 0 ? Math.random() * FIRST_RETRY : Math.min(8000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    this.attempt = 0;
    this.connect();
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed) {
      this.ws.send(JSON.stringify(message));
      if (this.pending.has(message.id) && !SLOW.has(message.type)) this.sentAt.set(message.id, performance.now());
      if (this.awaiting()) this.expect(this.answerWait());
      return true;
    }
    return false;
  }

  /** Send an action; returns its id. Kept until answered, re-sent after a reconnection. */
  send(type, fields = {}) {
    const id = newId();
    const action = { type, ...fields };
    if (type !== "sync") this.pending.set(id, action);
    this.raw({ ...action, id });
    return id;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.silence);
    window.removeEventListener("online", this.online);
    window.removeEventListener("offline", this.offline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}

/** The seat where `player` sits at the table of `summary`, else -1. */
export function seatOf(summary, player) {
  return summary.seats.findIndex((s) => s && s.kind === "person" && s.player === player);
}

/** Whether `seat` starts the table at once: it hosts a table still waiting where every other
 * seat is a computer (nobody to wait for). */
export function startsAtOnce(summary, seat) {
  if (summary.status !== "waiting" || summary.host !== seat) return false;
  const others = summary.seats.filter((x, i) => i !== seat);
  return others.length > 0 && others.every((x) => x && x.kind === "computer");
}

/** A seat's socket opened before its page: its messages wait, in order, for the page. */
class EarlySocket {
  constructor(code, token) {
    this.waiting = [];
    this.handlers = null;
    /** The id of the start this socket sent (a table against the computer), else null. */
    this.started = null;
    const pass = (name) => (arg) => {
      if (this.handlers) this.handlers[name](arg);
      else this.waiting.push([name, arg]);
    };
    this.socket = new TableSocket(code, token, {
      onMessage: (msg) => {
        if (!this.handlers && msg.type === "welcome" && startsAtOnce(msg.table, msg.seat)) {
          this.started = this.socket.send("start");
        }
        pass("onMessage")(msg);
      },
      onStatus: pass("onStatus"),
      onRefused: pass("onRefused"),
    });
    this.socket.connect();
  }

  /** The page's handlers from now on, after what came before them. */
  hand(handlers) {
    this.handlers = handlers;
    for (const [name, arg] of this.waiting.splice(0)) handlers[name](arg);
  }
}

let early = null;
let taken = false;

/** Ask for the table's summary and, when this device's player sits there, open the seat's
 * socket. Only once, at the page's start; after take(), nothing. */
export function start(code) {
  const me = store.identity();
  if (taken || early || !me) return;
  early = begin(code, me);
}

/** The table's summary and, for this device's player seated there, its socket opened now. */
function begin(code, me) {
  const asked = isLocal(code) ? import("./local.js").then((m) => m.resumeLocalTable(code)) : api.table(code);
  const found = { code, opened: asked.then((summary) => {
    const seat = seatOf(summary, me.player);
    const seated = seat >= 0;
    // What the page will show first, when not the table itself: a watcher's band, or the
    // waiting room of a table that waits for people.
    if (!seated && summary.watch && summary.status !== "waiting") import("./watching.js").catch(() => {});
    else if (summary.status === "waiting" && !startsAtOnce(summary, seat)) import("./waiting.js").catch(() => {});
    return { summary, socket: seated ? new EarlySocket(code, me.token) : null };
  }) };
  found.opened.catch(() => {});
  return found;
}

/** What start() began for the table `code`: a promise of {summary, socket (an EarlySocket, or
 * null when not seated)}; null when nothing was begun for it (the page asks for itself). What
 * was begun for another table (the visitor went elsewhere first) is closed. */
export function take(code) {
  taken = true;
  const found = early;
  early = null;
  if (found?.code === code) return found.opened;
  found?.opened.then((o) => o.socket?.socket.close(), () => {});
  // A table on this phone never asks the server: begun here when app.js did not begin it.
  const me = store.identity();
  if (code && isLocal(code) && me) return begin(code, me).opened;
  return null;
}

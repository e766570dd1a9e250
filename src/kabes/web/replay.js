// replay.js — a match's replay (/r/CODE; UI.md "A place that remembers"): the table as a
// watcher sees it with every hand face up, hand by hand and move by move. Every position is
// the server's (GET /api/tables/{code}/replay?hand=N: the record replayed by the engine, a
// watcher's VIEW and every seat's tiles after the deal and after each move); this page only
// draws them, with the table's own code (tableview.js, playarea.js: line.js or trains.js),
// and words a hand's end with results.js, as at the table. A match in play shows its finished
// hands only (the server's record holds no other).
//
// A bar at the bottom: first, back, play/pause (at a chosen speed), forward, last, and "hand 3
// of 7 · move 12"; the arrow keys (Home, End) and a swipe left or right step too. The address
// follows the moment (/r/CODE?hand=3&move=12, history.replaceState) and opens it. A share
// button at the top (share.js). Hooks for checks from outside: data-action replay-first,
// replay-prev, replay-play, replay-next (disabled at the match's last move), replay-last and
// share; the position (.replay-position) carries data-hand and data-move, its board data-line
// (the line's tiles left to right as shown, each left half first: "6-6 6-3 3-1") or, in
// Mexican Train, data-trains (replayparts.js's trainsText).

import { api } from "./api.js";
import { clear, h, svg } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { seatName, variantName } from "./names.js";
import { drawPosition } from "./playarea.js";
import { icon, lineText, moveText, seatRows, trainsText } from "./replayparts.js";
import { shareLink } from "./share.js";
import { store } from "./store.js";
import { scoreLine } from "./tableview.js";
import { pageLink, tableBar } from "./topbar.js";
import { addressedHand, take } from "./replaystart.js";

/** Speeds offered, and the time a move stays at speed 1. */
const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1400;
/** A hand's end stays this many steps' time, its counts to be read. */
const END_STEPS = 3;
const SWIPE = 40;

/** A whole number from the address, else `otherwise`. */
function whole(text, otherwise) {
  return text !== null && /^[0-9]{1,6}$/.test(text) ? Number(text) : otherwise;
}

/** The replay of table `code` in root; returns a function that leaves it. */
export async function replayPage(root, code, nav) {
  const replay = new Replay(root, code.toUpperCase(), nav);
  await replay.open();
  return () => replay.close();
}

class Replay {
  constructor(root, code, nav) {
    Object.assign(this, { root, code, nav });
    this.hands = new Map();
    this.total = 0;
    this.hand = 1;
    this.move = 0;
    this.data = null;
    this.speed = 1;
    this.timer = null;
    this.playing = false;
    this.endHidden = false;
    this.going = false;
    this.onKey = (e) => this.key(e);
  }

  /** Hand `n`'s positions (asked once; a failure is asked again next time). */
  load(n) {
    if (!this.hands.has(n)) {
      this.hands.set(n, api.replay(this.code, n).catch((e) => {
        this.hands.delete(n);
        throw e;
      }));
    }
    return this.hands.get(n);
  }

  async open() {
    clear(this.root).append(h("p", { class: "loading" }, t("loading")));
    const hand = addressedHand();
    const move = whole(new URLSearchParams(location.search).get("move"), 0);
    // What app.js asked for while this module downloaded (replaystart.js), else asked now.
    const early = take(this.code);
    if (early?.hand === hand) {
      this.hands.set(hand, early.data.catch((e) => {
        this.hands.delete(hand);
        throw e;
      }));
    }
    const summary = early?.summary ?? api.table(this.code);
    const asked = this.load(hand);
    let first;
    try {
      this.summary = await summary;
      first = await asked.catch((e) => (e.code === "not_found" && hand > 1 ? this.load(1) : Promise.reject(e)));
    } catch (e) {
      return this.problem(e.code === "not_found" && this.summary ? t("replay.none") : errorText(e.code, e.message));
    }
    if (this.closed) return undefined;
    this.data = first;
    this.skeleton();
    this.show(first, move);
    document.addEventListener("keydown", this.onKey);
    // A hand's end is worded by results.js: in once the first position is painted.
    requestAnimationFrame(() => setTimeout(() => import("./results.js").catch(() => {}), 0));
    return undefined;
  }

  problem(text) {
    clear(this.root).append(h("section", { class: "problem card" },
      h("h1", {}, t("replay.title")),
      h("p", {}, text),
      pageLink(this.nav, `/t/${this.code}`, { class: "button-link", "data-action": "table" }, t("replay.to_table")),
      h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => this.nav.go("/") }, t("action.home"))));
  }

  close() {
    this.closed = true;
    this.stop();
    document.removeEventListener("keydown", this.onKey);
    this.resize?.disconnect();
  }

  // ---- moving -------------------------------------------------------------------------------

  get last() {
    return this.data.positions.length - 1;
  }

  get atEnd() {
    return this.hand >= this.total && this.move >= this.last;
  }

  get atStart() {
    return this.hand <= 1 && this.move <= 0;
  }

  /** Show hand data's position `move` (-1: its last). */
  show(data, move) {
    this.data = data;
    this.total = data.hands;
    this.hand = data.hand;
    this.move = move < 0 ? this.last : Math.min(Math.max(0, move), this.last);
    this.endHidden = false;
    this.render();
    history.replaceState(history.state, "", `/r/${encodeURIComponent(this.code)}?hand=${this.hand}&move=${this.move}`);
    // The next hand is asked for before it is needed.
    if (this.hand < this.total && this.move >= this.last - 2) this.load(this.hand + 1).catch(() => {});
  }

  /** Go to hand `hand`, position `move` (-1: the hand's last); one step at a time. */
  async go(hand, move) {
    if (hand === this.hand) {
      this.show(this.data, move);
      return;
    }
    if (this.going) return;
    this.going = true;
    try {
      const data = await this.load(hand);
      if (!this.closed) this.show(data, move);
    } catch (e) {
      this.stop();
      this.say(errorText(e.code, e.message));
    } finally {
      this.going = false;
    }
  }

  next() {
    if (this.move < this.last) return this.go(this.hand, this.move + 1);
    if (this.hand < this.total) return this.go(this.hand + 1, 0);
    return null;
  }

  prev() {
    if (this.move > 0) return this.go(this.hand, this.move - 1);
    if (this.hand > 1) return this.go(this.hand - 1, -1);
    return null;
  }

  first() {
    return this.go(1, 0);
  }

  lastMove() {
    return this.go(this.total, -1);
  }

  toggle() {
    if (this.playing) this.stop();
    else {
      if (this.atEnd) this.first();
      this.playing = true;
      this.tick();
    }
    this.renderBar();
  }

  tick() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    const ending = this.move >= this.last;
    this.timer = setTimeout(async () => {
      if (!this.playing || this.closed) return;
      if (this.atEnd) {
        this.stop();
        this.renderBar();
        return;
      }
      await this.next();
      this.tick();
    }, (STEP_MS * (ending ? END_STEPS : 1)) / this.speed);
  }

  stop() {
    this.playing = false;
    clearTimeout(this.timer);
  }

  /** A person's step: stops the play. */
  step(fn) {
    this.stop();
    fn();
    this.renderBar();
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target?.closest?.("select, input, textarea, dialog")) return;
    const keys = { ArrowRight: () => this.next(), ArrowLeft: () => this.prev(), Home: () => this.first(), End: () => this.lastMove() };
    const fn = keys[e.key];
    if (!fn) return;
    e.preventDefault();
    this.step(fn);
  }

  // ---- drawing ------------------------------------------------------------------------------

  get view() {
    return this.data.positions[this.move].view;
  }

  names(seat) {
    return seatName(this.summary, seat, null);
  }

  skeleton() {
    const view = this.data.positions[0].view;
    const trains = view.traits.board === "trains";
    this.scoresEl = h("div", { class: "top-scores" });
    this.seatsEl = h("section", { class: "replay-hands", "aria-label": t("replay.hands") });
    this.board = h("main", { class: `board felt${trains ? " mt" : ""}`, "aria-label": t("board.label"), tabindex: "0" });
    this.endEl = h("div", { class: "replay-end" });
    this.position = h("div", { class: "replay-position" }, this.board, this.endEl);
    this.statusEl = h("p", { class: "status replay-status", role: "status", "aria-live": "polite" });
    this.barEl = h("nav", { class: "replay-controls", "aria-label": t("replay.controls") });
    const share = h("button", {
      type: "button", class: "icon-button replay-share", "data-action": "share", "aria-label": t("replay.share"),
      onclick: () => shareLink(location.href, t("replay.share_text", { variant: variantName(this.summary.variant, view.traits.title) }), (text) => this.say(text)),
    }, svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "replay-icon" },
      svg("path", { d: "M18 16a3 3 0 0 0-2.4 1.2l-6.8-3.5a3 3 0 0 0 0-1.4l6.8-3.5A3 3 0 1 0 15 7l-6.8 3.5a3 3 0 1 0 0 3L15 17a3 3 0 1 0 3-1z" })));
    clear(this.root).append(h("div", { class: "table-screen replay-screen" },
      tableBar(
        pageLink(this.nav, "/", { class: "brand replay-brand" }, "Kabès"),
        h("h1", { class: "sr-only" }, `${t("replay.title")} · ${variantName(this.summary.variant, view.traits.title)}`),
        this.scoresEl, share),
      this.seatsEl,
      this.position,
      this.statusEl,
      this.barEl));
    this.swipes();
    let size = "";
    this.resize = new ResizeObserver(() => {
      const now = `${this.board.clientWidth}x${this.board.clientHeight}`;
      if (now === size) return;
      size = now;
      this.drawBoard();
    });
    this.resize.observe(this.board);
  }

  /** A swipe left steps forward, a swipe right back (the board scrolls up and down itself). */
  swipes() {
    let start = null;
    this.position.addEventListener("pointerdown", (e) => {
      start = e.isPrimary ? { x: e.clientX, y: e.clientY } : null;
    });
    this.position.addEventListener("pointerup", (e) => {
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      start = null;
      if (Math.abs(dx) < SWIPE || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
      this.step(() => (dx < 0 ? this.next() : this.prev()));
    });
    this.position.addEventListener("pointercancel", () => (start = null));
  }

  render() {
    if (!this.board) return;
    const view = this.view;
    this.position.dataset.hand = String(this.hand);
    this.position.dataset.move = String(this.move);
    clear(this.scoresEl).append(scoreLine(view, this.summary));
    this.renderSeats();
    this.drawBoard();
    this.renderStatus();
    this.renderEnd();
    this.renderBar();
  }

  drawBoard() {
    if (!this.board || !this.data) return;
    const view = this.view;
    if (view.traits.board === "trains") {
      this.board.dataset.trains = trainsText(view);
      this.board.dataset.engine = view.engine || "";
    } else this.board.dataset.line = lineText(view);
    drawPosition(this.board, view, (seat) => this.names(seat), [], () => {}, t("board.empty"));
  }

  /** Every seat's tiles, face up, in seat order; the seat to play lit, its passes said. */
  renderSeats() {
    const view = this.view;
    clear(this.seatsEl).append(seatRows(view, this.data.positions[this.move].hands, this.summary, (seat) => this.names(seat)));
  }


  /** What the move shown did, in words: "Anne: six-three, the right end (3)". */
  renderStatus() {
    const before = this.move > 0 ? this.data.positions[this.move - 1].view : null;
    this.statusEl.textContent = moveText(this.view, before, (seat) => this.names(seat));
  }


  /** At a hand's end, its counts worded as at the table (results.js), over the board. */
  async renderEnd() {
    const view = this.view;
    const shown = () => !this.closed && view === this.view && view.last_hand && this.move === this.last;
    if (!shown()) {
      clear(this.endEl);
      return;
    }
    if (this.endHidden) {
      clear(this.endEl).append(h("button", { type: "button", class: "replay-results", "data-action": "results", onclick: () => {
        this.endHidden = false;
        this.renderEnd();
      } }, t("action.results")));
      return;
    }
    const { resultsPanel } = await import("./results.js");
    if (!shown() || this.endHidden) return;
    const panel = resultsPanel(view, this.summary, { bare: true });
    panel.append(h("div", { class: "actions" },
      this.reviewable ? h("button", { type: "button", "data-action": "review", onclick: () => this.review() }, t("action.review")) : null,
      h("button", { type: "button", "data-action": "see-table", onclick: () => {
        this.endHidden = true;
        this.renderEnd();
      } }, t("action.see_table"))));
    clear(this.endEl).append(panel);
  }

  /** The words of the bar's "hand 3 of 7 · move 12". */
  whereKey() {
    const over = this.summary.status === "over";
    if (this.view.traits.rounds) return over ? "replay.where_round" : "replay.where_round_so_far";
    return over ? "replay.where" : "replay.where_so_far";
  }

  /** The seat this device's player held in the match, else null. */
  get mySeat() {
    const me = store.identity()?.player;
    const seat = (this.summary.seats || []).findIndex((s) => s && s.player === me);
    return seat < 0 ? null : seat;
  }

  /** The expert reviews one's own hands of a match that is over, or against the computer
   * (the server's rule: POST /api/tables/{code}/review). */
  get reviewable() {
    const people = (this.summary.seats || []).filter((s) => s && s.kind !== "computer").length;
    return this.mySeat !== null && (this.summary.status === "over" || people <= 1);
  }

  /** "Review my moves": the expert's review of this hand's own moves (review.js's dialog). */
  async review() {
    this.stop();
    this.renderBar();
    const { ReviewDialog } = await import("./review.js");
    if (this.closed) return;
    const dialog = new ReviewDialog(this.summary, this.mySeat);
    dialog.open();
    try {
      dialog.show(await api.reviewHand(this.code, this.hand));
    } catch (e) {
      dialog.fail(e.code, e.message);
    }
  }

  renderBar() {
    if (!this.barEl) return;
    const focused = document.activeElement?.dataset?.action;
    const button = (action, kind, label, onclick, disabled = false, extra = {}) =>
      h("button", { type: "button", class: "replay-button", "data-action": action, "aria-label": label, title: label, disabled, onclick, ...extra }, icon(kind));
    const speed = h("select", { id: "replay-speed", class: "replay-speed", onchange: (e) => {
      this.speed = Number(e.target.value);
      if (this.playing) this.tick();
    } }, SPEEDS.map((s) => h("option", { value: s, selected: s === this.speed }, `×${s}`)));
    clear(this.barEl).append(
      h("p", { class: "replay-where num", "data-hand": this.hand, "data-move": this.move },
        // A round where the variant plays rounds (its traits), as its score line says; "so far"
        // while the match goes on (its score line counts the rounds still to come).
        t(this.whereKey(), { hand: this.hand, of: this.total, move: this.move })),
      h("div", { class: "replay-buttons" },
        button("replay-first", "first", t("replay.first"), () => this.step(() => this.first()), this.atStart),
        button("replay-prev", "prev", t("replay.prev"), () => this.step(() => this.prev()), this.atStart),
        button("replay-play", this.playing ? "pause" : "play", this.playing ? t("replay.pause") : t("replay.play"), () => this.toggle(), false,
          { "aria-pressed": this.playing ? "true" : "false" }),
        button("replay-next", "next", t("replay.next"), () => this.step(() => this.next()), this.atEnd),
        button("replay-last", "last", t("replay.last"), () => this.step(() => this.lastMove()), this.atEnd),
        h("label", { class: "replay-speed-field" }, h("span", { class: "sr-only" }, t("replay.speed")), speed)));
    if (focused) (this.barEl.querySelector(`[data-action="${focused}"]:not([disabled])`) || this.barEl.querySelector("button:not([disabled])"))?.focus({ preventScroll: true });
  }

  say(text) {
    if (this.statusEl) this.statusEl.textContent = text;
  }
}

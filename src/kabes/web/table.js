// table.js — the page of one table (/t/CODE): joins it if needed, keeps its WebSocket
// (socket.js), and draws the waiting room or the table from the latest summary and view.
// Everything shown comes from the server's view; the page only sends intentions (play,
// start, next_hand, finish, hint, review, leave, remove) and says in one line why one was refused.
// The board and the hand are a PlayArea (playarea.js), shared with the lessons.
// A table that began without us (or is full) is watched when the host lets anyone watch
// (summary.watch): the same page from no seat (watching.js), with no hand and no actions.
// Seats say phrases (phrases.js); every socket sees them by the sayer's seat.

import { api, ApiError, newTableLike } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, onLangChange, t, tileName } from "./i18n.js";
import { Ring } from "./clock.js";
import { seatName, variantName } from "./names.js";
import { PlayArea, placeLabel } from "./playarea.js";
import { seatOf, startsAtOnce, TableSocket, take } from "./socket.js";
import { store } from "./store.js";
import { memoryAid, opponents, passesText, scoreLine, seatStrip, watchersText } from "./tableview.js";
import { tileKey } from "./tiles.js";
import { langPicker, sayButton, tableBar, tournamentTag } from "./topbar.js";

/** Open the table page in root; returns a function that leaves it (closes the socket). */
export async function tablePage(root, code, nav) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  const me = store.identity();
  let summary;
  let early = null;
  try {
    // What app.js started while this page's modules downloaded (socket.js), else asked now.
    ({ summary, socket: early } = await (take(code) || api.table(code).then((s) => ({ summary: s, socket: null }))));
  } catch (e) {
    return problem(root, nav, e);
  }
  let seat = seatOf(summary, me.player);
  if (seat < 0 && summary.watch && summary.status !== "waiting") seat = null;
  if (seat !== null && seat < 0) {
    try {
      const joined = await api.join(code);
      seat = joined.seat;
      summary = joined.table;
    } catch (e) {
      if (!(summary.watch && e instanceof ApiError && ["started", "table_full"].includes(e.code))) return problem(root, nav, e);
      seat = null;
    }
  }
  const controller = new TableController(root, code, seat, summary, nav, me, early);
  controller.start();
  return () => controller.close();
}

/** Why the table cannot be opened: an ApiError, or a socket's refusal ({code}). */
function problem(root, nav, e) {
  clear(root).append(h("section", { class: "problem card" },
    h("h1", {}, t("table.cannot_open")),
    h("p", {}, errorText(e.code || "unknown", e.message)),
    h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => nav.go("/") }, t("action.home"))));
  return () => {};
}

class TableController {
  constructor(root, code, seat, summary, nav, me, early) {
    this.root = root;
    this.code = code;
    this.seat = seat;
    this.summary = summary;
    this.nav = nav;
    this.me = me;
    this.view = null;
    this.mode = null;
    this.area = null;
    this.hint = null;
    this.flash = null;
    this.busy = null;
    this.conn = "connecting";
    this.dismissed = new Set();
    this.showMemory = false;
    this.seatsOpen = false;
    this.ring = new Ring(t("clock.label"));
    this.bubbles = null;
    this.offLang = onLangChange(() => {
      this.mode = null;
      this.render();
    });
    // A seat's socket opened before this page (socket.js) goes on; it may have started the table.
    this.early = early;
    this.starting = early?.started ?? null;
    this.autoStarted = !!this.starting;
    this.socket = early ? early.socket : this.openSocket(seat === null);
  }

  get watching() {
    return this.seat === null;
  }

  get handlers() {
    return { onMessage: (msg) => this.receive(msg), onStatus: (status) => this.connStatus(status), onRefused: (reason) => this.refused(reason) };
  }

  openSocket(watch) {
    return new TableSocket(this.code, this.me.token, { ...this.handlers, watch });
  }

  start() {
    this.render();
    if (this.early) this.early.hand(this.handlers);
    else this.socket.connect();
  }

  close() {
    this.closed = true;
    this.review?.close();
    this.bubbles?.close();
    this.socket.close();
    this.offLang();
    this.resize?.disconnect();
    clearTimeout(this.flashTimer);
  }

  // ---- messages -------------------------------------------------------------------------

  receive(msg) {
    if (msg.type === "welcome" || msg.type === "update") {
      if (msg.seq !== undefined && this.lastSeq !== undefined && msg.seq < this.lastSeq) return;
      this.lastSeq = msg.seq;
      const before = this.view;
      this.summary = msg.table;
      this.view = msg.view;
      if (msg.type === "welcome") this.seat = msg.seat;
      const moved = !before || before.turn !== this.view.turn || before.hand_number !== this.view.hand_number || (before.played?.length ?? 0) !== (this.view.played?.length ?? 0);
      if (moved) {
        this.hint = null;
        this.busy = null;
      }
      this.maybeAutoStart();
      if (this.wantNext && this.summary.next_table) {
        this.nav.go(`/t/${this.summary.next_table}`);
        return;
      }
      this.render();
    } else if (msg.type === "ack") {
      this.busy = null;
    } else if (msg.type === "review") {
      if (this.review && msg.id === this.reviewId) this.review.show(msg);
    } else if (msg.type === "error" && this.review && msg.id && msg.id === this.reviewId) {
      this.review.fail(msg.code, msg.message);
    } else if (msg.type === "error") {
      this.busy = null;
      if (msg.id && msg.id === this.starting) {
        this.startFailed = true;
        this.render();
      }
      if (msg.id && msg.id === this.playAgainId && msg.code === "bad_message") {
        this.playAgainByHand();
        return;
      }
      const { view, summary } = this;
      import("./explain.js").then((m) => this.say(m.refusalText(view, summary, msg)), () => this.say(errorText(msg.code, msg.message)));
      if (msg.code === "illegal_move" || msg.code === "not_your_turn") this.socket.send("sync");
    } else if (msg.type === "hint") {
      this.hint = msg;
      this.render();
    } else if (msg.type === "said") {
      this.heard(msg);
    }
  }

  /** A phrase said at the table: its bubble by the seat, and its words for screen readers. */
  async heard(msg) {
    const { Bubbles, phraseText } = await import("./phrases.js");
    this.bubbles ??= new Bubbles(() => this.placeBubbles());
    const phrase = await this.bubbles.heard(msg, this.seat);
    if (phrase && this.saidEl) this.saidEl.textContent = t("phrase.said", { name: seatName(this.summary, msg.seat, this.seat), text: phraseText(phrase) });
  }

  placeBubbles() {
    if (this.mode === "table") this.bubbles?.place(this.root, this.seat, this.statusEl?.parentElement);
  }

  connStatus(status) {
    this.conn = status;
    let banner = document.querySelector(".conn-banner");
    const show = status === "reconnecting" || (status === "connecting" && this.view);
    if (show && !banner) {
      banner = h("div", { class: "conn-banner", role: "status" }, t("conn.reconnecting"));
      document.body.append(banner);
    } else if (!show && banner) banner.remove();
  }

  async refused(reason) {
    if (reason === "not_seated" && !this.watching && !this.closed) {
      // Not (or no longer) seated here: watch instead, when the table lets anyone watch.
      const summary = await api.table(this.code).catch(() => null);
      if (summary?.watch && !this.closed) {
        this.seat = null;
        this.summary = summary;
        this.view = null;
        this.mode = null;
        this.lastSeq = undefined;
        this.socket = this.openSocket(true);
        this.socket.connect();
        return;
      }
    }
    if (!this.closed) problem(this.root, this.nav, { code: reason });
  }

  maybeAutoStart() {
    if (this.watching || this.autoStarted || !startsAtOnce(this.summary, this.seat)) return;
    this.autoStarted = true;
    this.starting = this.socket.send("start");
  }

  say(text) {
    this.flash = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.flash = null;
      this.renderStatus();
    }, 4000);
    this.renderStatus();
  }

  // ---- derived state ----------------------------------------------------------------------

  get myTurn() {
    return this.view && this.view.turn === this.seat && this.summary.status === "playing";
  }

  get selected() {
    return this.area?.selected ?? null;
  }

  get computerTable() {
    return this.summary.seats.every((s, i) => i === this.seat || (s && s.kind === "computer"));
  }

  placeLabel(place) {
    return placeLabel(this.view, place, (seat) => seatName(this.summary, seat, this.seat));
  }

  // ---- actions ------------------------------------------------------------------------------

  /** A move chosen on the board: the tile flies to its place and the move goes to the table. */
  play(key, move) {
    if (this.busy) return;
    this.area.animate(key);
    this.busy = this.socket.send("play", { move });
  }

  action(type) {
    this.busy = null;
    this.socket.send(type);
  }

  askHint() {
    if (!this.myTurn) {
      this.say(t("play.not_your_turn"));
      return;
    }
    this.socket.send("hint");
  }

  /** The expert's review of the hand just played (tables against the computer). */
  async askReview() {
    this.review?.close();
    // Loaded when first asked for: a table's first paint does not wait for it.
    const { ReviewDialog } = await import("./review.js");
    if (this.closed) return;
    this.review?.close();
    const review = new ReviewDialog(this.summary, this.seat, () => {
      if (this.review === review) this.review = null;
    });
    this.review = review;
    review.open();
    this.reviewId = this.socket.send("review");
  }

  leave() {
    if (!window.confirm(t("table.leave_confirm"))) return;
    this.socket.send("leave");
    setTimeout(() => this.nav.go("/"), 150);
  }

  /** The host, before the start: remove the person at seat (they cannot come back). */
  remove(seat, name) {
    if (!window.confirm(t("waiting.remove_confirm", { name }))) return;
    this.socket.send("remove", { seat });
  }

  playAgain() {
    if (this.summary.next_table) {
      this.nav.go(`/t/${this.summary.next_table}`);
      return;
    }
    this.wantNext = true;
    this.playAgainId = this.socket.send("play_again");
  }

  /** Without the server's play_again: open a table with the same settings over HTTP. */
  async playAgainByHand() {
    try {
      this.nav.go(`/t/${(await newTableLike(this.summary)).code}`);
    } catch (e) {
      this.say(errorText(e.code, e.message));
    }
  }

  // ---- drawing ------------------------------------------------------------------------------

  render() {
    if (this.summary.status === "waiting" || !this.view) {
      this.mode = "waiting";
      this.resize?.disconnect();
      // The waiting room, once the table waits for people: not while a table against the
      // computer starts at once (its module is then never needed), nor before a view.
      const starts = startsAtOnce(this.summary, this.seat) && !this.startFailed;
      if (this.summary.status === "waiting" && !starts) import("./waiting.js").then((m) => this.drawWaiting(m));
      return;
    }
    if (this.mode !== "table") this.skeleton();
    this.renderTop();
    this.renderOpponents();
    this.drawBoard();
    this.renderHand();
    this.renderTools();
    this.renderStatus();
    this.renderOverlay();
    this.placeBubbles();
  }

  drawWaiting({ waitingPage }) {
    if (this.closed || this.mode !== "waiting" || this.summary.status !== "waiting") return;
    waitingPage(this.root, this.nav, this.summary, this.flash, {
      seat: this.seat,
      title: this.view?.traits.title,
      onStart: () => this.action("start"),
      onLeave: () => this.leave(),
      onRemove: (seat, name) => this.remove(seat, name),
      say: (text) => this.say(text),
    });
  }

  renderStatus() {
    if (this.mode === "waiting") {
      const el = this.root.querySelector(".status.flash");
      if (el) el.textContent = this.flash || "";
      return;
    }
    if (!this.statusEl || !this.view) return;
    const v = this.view;
    let text = "";
    let cls = "status";
    if (this.flash) {
      text = this.flash;
      cls += " flash";
    } else if (this.hint && this.myTurn) {
      const [tile, place] = this.hint.move.split("@");
      const where = place ? this.placeLabel(place).label : t("place.lead");
      text = t("hint.text", { tile: tileName(tile), where });
      cls += " hinted";
    } else if (this.summary.status === "over") text = t("status.over");
    else if (this.summary.status === "between_hands") text = t("status.between");
    else if (this.myTurn) {
      text = this.selected ? t("status.choose_place") : v.line === null && !v.engine ? t("status.your_lead") : t("status.your_turn");
      cls += " mine";
    } else if (v.turn !== null && v.turn !== undefined) text = t("status.waiting_for", { name: seatName(this.summary, v.turn, this.seat) });
    this.statusEl.className = cls;
    this.statusEl.textContent = text;
    if (this.hint && this.myTurn && !this.flash && this.hint.reason) {
      this.statusEl.append(h("span", { class: "reason", lang: "en" }, ` ${this.hint.reason}`));
    }
  }

  skeleton() {
    this.mode = "table";
    // Once the table is painted, what a hand's end shows comes in meanwhile (on 3G, no wait then).
    requestAnimationFrame(() => setTimeout(() => import("./results.js").catch(() => {}), 0));
    this.menuButton = h("button", { type: "button", class: "icon-button", "aria-label": t("menu.open"), "data-action": "menu", onclick: () => this.openMenu() }, "☰");
    this.sayButton = this.watching ? null : sayButton(async () => (await import("./phrases.js")).openPhrases((phrase) => this.socket.send("say", { phrase }), () => this.bubbles?.mute(this.seat)));
    this.bandEl = h("div", { class: "band-host" });
    this.saidEl = h("p", { class: "sr-only", role: "status", "aria-live": "polite" });
    this.topScores = h("div", { class: "top-scores" });
    this.opponentsEl = h("div", { class: "opponents-host" });
    this.board = h("main", { class: `board felt${this.view.traits.board === "trains" ? " mt" : ""}`, "aria-label": t("board.label"), tabindex: "0" });
    this.statusEl = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.handEl = h("div", { class: "hand", role: "toolbar", "aria-label": t("hand.label") });
    this.toolsEl = h("div", { class: "tools" });
    this.overlayEl = h("div", { class: "overlay-host" });
    this.memoryEl = h("div", { class: "memory-host" });
    this.area = new PlayArea(this.board, this.handEl, {
      play: (key, move) => this.play(key, move),
      say: (text) => this.say(text),
      changed: () => this.renderStatus(),
      blocked: () => !!this.busy || this.summary.status !== "playing",
      root: this.root,
    });
    clear(this.root).append(h("div", { class: "table-screen" },
      tableBar(this.topScores, this.ring.el, this.sayButton, this.menuButton),
      // The tournament and round on a line of their own: the top bar is full on a phone.
      this.summary.tournament ? h("div", { class: "tour-line" }, tournamentTag(this.summary, this.nav)) : null,
      this.opponentsEl,
      this.board,
      this.watching
        ? h("section", { class: "me watching", "aria-label": t("watch.mark") }, this.statusEl, this.bandEl, this.toolsEl)
        : h("section", { class: "me", "aria-label": t("hand.section") }, this.statusEl, this.handEl, this.toolsEl),
      this.saidEl,
      this.memoryEl,
      this.overlayEl));
    this.resize?.disconnect();
    let last = "";
    this.resize = new ResizeObserver(() => {
      const size = `${this.board.clientWidth}x${this.board.clientHeight}`;
      if (size === last) return;
      last = size;
      this.drawBoard();
      this.renderHand();
    });
    this.resize.observe(this.board);
  }

  renderTop() {
    clear(this.topScores).append(scoreLine(this.view, this.summary));
    // A table on this phone (its code starts with "L") plays for nobody when time runs out.
    const clock = this.code.startsWith("L") ? null : this.view.clock;
    this.ring.set(clock && this.summary.status === "playing" ? clock : null);
    this.ring.el.classList.toggle("mine", !!clock && clock.seat === this.seat);
  }

  renderOpponents() {
    if (this.view.traits.board !== "trains") {
      clear(this.opponentsEl).append(opponents(this.view, this.summary));
      return;
    }
    // Mexican Train: up to seven other seats, as a strip that a tap opens.
    clear(this.opponentsEl).append(seatStrip(this.view, this.summary, this.seatsOpen, () => {
      this.seatsOpen = !this.seatsOpen;
      this.renderOpponents();
      this.placeBubbles();
      this.opponentsEl.querySelector(".seat-strip")?.focus();
    }));
  }

  /** The board and the hand, from the latest view. */
  drawBoard() {
    if (!this.area || !this.view) return;
    const hinted = this.hint && this.myTurn ? tileKey(this.hint.move.split("@")[0]) : null;
    this.area.set(this.view, {
      myTurn: this.myTurn,
      names: (seat) => seatName(this.summary, seat, this.seat),
      hinted,
    });
    this.area.drawBoard();
  }

  renderHand() {
    if (!this.area || !this.view) return;
    if (this.watching) {
      import("./watching.js").then(({ watchBand }) => this.view && clear(this.bandEl).append(watchBand(this.view, this.summary)));
      return;
    }
    this.area.renderHand();
  }

  renderTools() {
    const v = this.view;
    const tools = [];
    if (this.computerTable && this.summary.status === "playing") {
      tools.push(h("button", { type: "button", class: "tool", "data-action": "hint", "aria-disabled": this.myTurn ? "false" : "true", onclick: () => this.askHint() }, t("action.hint")));
      tools.push(h("button", { type: "button", class: "tool", "data-action": "memory", "aria-pressed": this.showMemory ? "true" : "false", onclick: () => {
        this.showMemory = !this.showMemory;
        this.renderTools();
      } }, t("action.memory")));
    }
    const info = [];
    if (v.stock > 0 || v.traits.stock_always_shown || (v.draws || []).some((d) => d > 0)) info.push(t("table.stock", { n: v.stock }));
    const mine = passesText(v, this.seat);
    if (mine) info.push(t("table.you_passed", { numbers: mine }));
    if (v.draws?.[this.seat]) info.push(t("table.you_drew", { n: v.draws[this.seat] }));
    const watchers = this.watching ? null : watchersText(this.summary);
    if (watchers) info.push(watchers);
    const showResults = v.last_hand && this.dismissed.has(v.hand_number) && this.summary.status !== "playing";
    if (showResults) {
      tools.push(h("button", { type: "button", class: "tool", "data-action": "results", onclick: () => {
        this.dismissed.delete(v.hand_number);
        this.renderOverlay();
        this.renderTools();
      } }, t("action.results")));
    }
    clear(this.toolsEl).append(
      h("div", { class: "tool-buttons" }, tools),
      h("span", { class: "info num" }, info.join(" · ")));
    clear(this.memoryEl);
    if (this.showMemory && this.computerTable) this.memoryEl.append(memoryAid(v, this.summary));
  }

  async renderOverlay() {
    const v = this.view;
    const shown = () => !this.closed && v === this.view && v.last_hand && this.summary.status !== "playing" && !this.dismissed.has(v.hand_number);
    if (!shown()) {
      clear(this.overlayEl);
      return;
    }
    const { resultsPanel } = await import("./results.js");
    if (!shown()) return;
    const panel = resultsPanel(v, this.summary, {
      isHost: this.seat === this.summary.host,
      onNextHand: () => this.action("next_hand"),
      onFinish: () => this.action("finish"),
      onPlayAgain: this.watching ? null : () => this.playAgain(),
      onTournament: this.summary.tournament && !this.watching ? () => this.nav.go(`/c/${this.summary.tournament}`) : null,
      onHome: () => this.nav.go("/"),
      // A table on this phone (its code starts with "L") keeps no record on the server.
      replay: this.code.startsWith("L") ? null : `/r/${this.code}`,
      onReplay: () => this.nav.go(`/r/${this.code}`),
      onReview: this.computerTable ? () => this.askReview() : null,
      onClose: () => {
        this.dismissed.add(v.hand_number);
        this.renderOverlay();
        this.renderTools();
      },
    });
    clear(this.overlayEl).append(h("div", { class: "overlay" }, panel));
  }

  openMenu() {
    const dialog = h("dialog", { class: "menu", "aria-label": t("menu.title") },
      h("h2", {}, t("menu.title")),
      h("p", {}, `${variantName(this.summary.variant, this.view?.traits.title)} · ${t("menu.code", { code: this.code })}`),
      langPicker(),
      h("div", { class: "actions column" },
        h("button", { type: "button", "data-action": "home", onclick: () => { dialog.close(); this.nav.go("/"); } }, t("action.home")),
        this.watching ? null : h("button", { type: "button", "data-action": "leave", onclick: () => { dialog.close(); this.leave(); } }, t("action.leave")),
        h("button", { type: "button", "data-action": "link-device", onclick: () => { dialog.close(); import("./link.js").then((m) => m.linkDialog()); } }, t("link.action")),
        h("button", { type: "button", class: "primary", "data-action": "close", onclick: () => dialog.close() }, t("action.close"))));
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }
}

// table.js — the page of one table (/t/CODE): joins it if needed, keeps its WebSocket
// (socket.js), and draws the waiting room or the table from the latest summary and view.
// Everything shown comes from the server's view; the page only sends intentions (play,
// start, next_hand, finish, hint, leave) and says in one line why one was refused.

import { api, ApiError, variants } from "./api.js";
import { clear, h, reducedMotion } from "./dom.js";
import { refusalText } from "./explain.js";
import { errorText, onLangChange, t, tileName } from "./i18n.js";
import { Ring } from "./clock.js";
import { HandView } from "./hand.js";
import { langPicker } from "./langpick.js";
import { renderLine } from "./line.js";
import { seatName, variantName } from "./names.js";
import { resultsPanel } from "./results.js";
import { TableSocket } from "./socket.js";
import { store } from "./store.js";
import { memoryAid, opponents, passesText, scoreLine } from "./tableview.js";
import { renderTrains } from "./trains.js";
import { tileKey } from "./tiles.js";
import { waitingRoom } from "./waiting.js";

/** Open the table page in root; returns a function that leaves it (closes the socket). */
export async function tablePage(root, code, nav) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  const me = store.identity();
  let summary;
  try {
    summary = await api.table(code);
  } catch (e) {
    return problem(root, nav, e);
  }
  let seat = summary.seats.findIndex((s) => s && s.kind === "person" && s.player === me.player);
  if (seat < 0) {
    try {
      const joined = await api.join(code);
      seat = joined.seat;
      summary = joined.table;
    } catch (e) {
      return problem(root, nav, e);
    }
  }
  const controller = new TableController(root, code, seat, summary, nav, me);
  controller.start();
  return () => controller.close();
}

function problem(root, nav, e) {
  const code = e instanceof ApiError ? e.code : "unknown";
  clear(root).append(h("section", { class: "problem card" },
    h("h1", {}, t("table.cannot_open")),
    h("p", {}, errorText(code, e.message)),
    h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => nav.go("/") }, t("action.home"))));
  return () => {};
}

function groupMoves(legal) {
  const byTile = new Map();
  for (const move of legal || []) {
    const [tile, place = null] = move.split("@");
    const key = tileKey(tile);
    const list = byTile.get(key) || [];
    if (!list.some((m) => m.place === place)) list.push({ move, place });
    byTile.set(key, list);
  }
  return byTile;
}

class TableController {
  constructor(root, code, seat, summary, nav, me) {
    this.root = root;
    this.code = code;
    this.seat = seat;
    this.summary = summary;
    this.nav = nav;
    this.me = me;
    this.view = null;
    this.mode = null;
    this.selected = null;
    this.hint = null;
    this.flash = null;
    this.busy = null;
    this.conn = "connecting";
    this.dismissed = new Set();
    this.showMemory = false;
    this.autoStarted = false;
    this.ring = new Ring(t("clock.label"));
    this.offLang = onLangChange(() => {
      this.mode = null;
      this.render();
    });
    this.socket = new TableSocket(code, me.token, {
      onMessage: (msg) => this.receive(msg),
      onStatus: (status) => this.connStatus(status),
      onRefused: (reason) => this.refused(reason),
    });
  }

  start() {
    this.render();
    this.socket.connect();
  }

  close() {
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
      if (this.selected && !groupMoves(this.view.legal).has(this.selected)) this.selected = null;
      this.maybeAutoStart();
      if (this.wantNext && this.summary.next_table) {
        this.nav.go(`/t/${this.summary.next_table}`);
        return;
      }
      this.render();
    } else if (msg.type === "ack") {
      this.busy = null;
    } else if (msg.type === "error") {
      this.busy = null;
      if (msg.id && msg.id === this.playAgainId && msg.code === "bad_message") {
        this.playAgainByHand();
        return;
      }
      this.say(refusalText(this.view, this.summary, msg));
      if (msg.code === "illegal_move" || msg.code === "not_your_turn") this.socket.send("sync");
    } else if (msg.type === "hint") {
      this.hint = msg;
      this.render();
    }
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

  refused(reason) {
    clear(this.root).append(h("section", { class: "problem card" },
      h("h1", {}, t("table.cannot_open")), h("p", {}, errorText(reason)),
      h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => this.nav.go("/") }, t("action.home"))));
  }

  maybeAutoStart() {
    const s = this.summary;
    if (this.autoStarted || s.status !== "waiting" || s.host !== this.seat) return;
    const others = s.seats.filter((x, i) => i !== this.seat);
    if (others.length && others.every((x) => x && x.kind === "computer")) {
      this.autoStarted = true;
      this.socket.send("start");
    }
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

  get moves() {
    return groupMoves(this.myTurn ? this.view.legal : []);
  }

  get computerTable() {
    return this.summary.seats.every((s, i) => i === this.seat || (s && s.kind === "computer"));
  }

  placeLabel(place) {
    const v = this.view;
    if (place === "L") return { label: t("place.left", { n: v.ends?.[0] ?? "" }), short: String(v.ends?.[0] ?? "") };
    if (place === "R") return { label: t("place.right", { n: v.ends?.[1] ?? "" }), short: String(v.ends?.[1] ?? "") };
    if (place === "M") return { label: t("train.public"), short: "M" };
    const owner = Number(place);
    return { label: owner === this.seat ? t("train.mine") : t("train.of", { name: seatName(this.summary, owner, this.seat) }), short: place };
  }

  places() {
    if (!this.selected) return [];
    return (this.moves.get(this.selected) || []).filter((m) => m.place !== null).map((m) => ({ place: m.place, move: m.move, ...this.placeLabel(m.place) }));
  }

  // ---- actions ------------------------------------------------------------------------------

  tap(key) {
    if (this.busy) return;
    if (this.summary.status !== "playing") return;
    if (!this.myTurn) {
      this.say(t("play.not_your_turn"));
      return;
    }
    const moves = this.moves.get(key);
    if (!moves) {
      this.say(t("play.does_not_fit", { tile: tileName(key) }));
      return;
    }
    if (moves.length === 1) {
      this.play(key, moves[0].move);
      return;
    }
    this.selected = this.selected === key ? null : key;
    this.drawBoard();
    this.renderHand();
    this.renderStatus();
    if (this.selected) this.root.querySelector("[data-place]")?.focus();
  }

  play(key, move) {
    if (this.busy) return;
    // Played from the keyboard: once the hand is drawn again, focus goes back to it.
    this.refocus = !!document.activeElement?.closest?.("[data-tile], [data-place]");
    const target = this.root.querySelector(`[data-move="${CSS.escape(move)}"]`) || this.board;
    this.animate(key, target);
    this.selected = null;
    this.busy = this.socket.send("play", { move });
  }

  animate(key, target) {
    if (reducedMotion() || !target) return;
    const from = this.root.querySelector(`[data-tile="${key}"]`);
    if (!from) return;
    const a = from.getBoundingClientRect();
    const b = target.getBoundingClientRect();
    const ghost = h("div", { class: "fly", "aria-hidden": "true", style: `left:${a.left}px;top:${a.top}px;width:${a.width}px;height:${a.height}px` }, from.firstChild.cloneNode(true));
    document.body.append(ghost);
    from.style.visibility = "hidden";
    requestAnimationFrame(() => {
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      ghost.style.transform = `translate(${dx}px, ${dy}px) scale(0.5)`;
      ghost.style.opacity = "0.2";
    });
    setTimeout(() => ghost.remove(), 190);
  }

  dragStart(key) {
    this.selected = key;
    this.drawBoard();
    this.renderStatus();
  }

  drop(key, move, point) {
    if (move) {
      this.play(key, move);
      return true;
    }
    const moves = this.moves.get(key) || [];
    const b = this.board?.getBoundingClientRect();
    const onBoard = b && point.x >= b.left && point.x <= b.right && point.y >= b.top && point.y <= b.bottom;
    if (onBoard && moves.length === 1) {
      this.play(key, moves[0].move);
      return true;
    }
    this.say(moves.length ? t("play.drop_on_end") : t("play.does_not_fit", { tile: tileName(key) }));
    return false;
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

  leave() {
    if (!window.confirm(t("table.leave_confirm"))) return;
    this.socket.send("leave");
    setTimeout(() => this.nav.go("/"), 150);
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
    const s = this.summary;
    try {
      const list = await variants();
      const spec = list.find((v) => v.id === s.variant)?.options?.[String(s.players)] || {};
      const options = {};
      for (const name of Object.keys(spec)) if (s.options?.[name] !== undefined && s.options[name] !== null) options[name] = s.options[name];
      const computers = {};
      s.seats.forEach((x, i) => {
        if (x && x.kind === "computer") computers[String(i)] = x.level;
      });
      const body = { variant: s.variant, players: s.players, options };
      if (Object.keys(computers).length) body.computers = computers;
      const table = await api.newTable(body);
      this.nav.go(`/t/${table.code}`);
    } catch (e) {
      this.say(errorText(e.code, e.message));
    }
  }

  // ---- drawing ------------------------------------------------------------------------------

  render() {
    const status = this.summary.status;
    const mode = status === "waiting" || !this.view ? "waiting" : "table";
    if (mode === "waiting") {
      this.mode = "waiting";
      this.resize?.disconnect();
      const focused = document.activeElement?.dataset?.action;
      clear(this.root).append(
        h("header", { class: "topbar plain" },
          h("a", { class: "brand", href: "/", onclick: (e) => { e.preventDefault(); this.nav.go("/"); } }, "Kabès"),
          langPicker()),
        h("main", { class: "page" }, waitingRoom(this.summary, {
          seat: this.seat,
          onStart: () => this.action("start"),
          onLeave: () => this.leave(),
          say: (text) => this.say(text),
        }), h("p", { class: "status flash", role: "status", "aria-live": "polite" }, this.flash || "")));
      if (focused) this.root.querySelector(`[data-action="${focused}"]`)?.focus();
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
    this.menuButton = h("button", { type: "button", class: "icon-button", "aria-label": t("menu.open"), "data-action": "menu", onclick: () => this.openMenu() }, "☰");
    this.topScores = h("div", { class: "top-scores" });
    this.opponentsEl = h("div", { class: "opponents-host" });
    this.board = h("main", { class: `board felt${this.view.variant === "mexican-train" ? " mt" : ""}`, "aria-label": t("board.label"), tabindex: "0" });
    this.statusEl = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.handEl = h("div", { class: "hand", role: "toolbar", "aria-label": t("hand.label") });
    this.toolsEl = h("div", { class: "tools" });
    this.overlayEl = h("div", { class: "overlay-host" });
    this.memoryEl = h("div", { class: "memory-host" });
    this.hand = new HandView(this.handEl, {
      onTap: (key) => this.tap(key),
      onDragStart: (key) => this.dragStart(key),
      onDrop: (key, move, point) => this.drop(key, move, point),
    });
    clear(this.root).append(h("div", { class: "table-screen" },
      h("header", { class: "topbar" }, this.topScores, this.ring.el, this.menuButton),
      this.opponentsEl,
      this.board,
      h("section", { class: "me", "aria-label": t("hand.section") }, this.statusEl, this.handEl, this.toolsEl),
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
    const clock = this.view.clock;
    this.ring.set(clock && this.summary.status === "playing" ? clock : null);
    this.ring.el.classList.toggle("mine", !!clock && clock.seat === this.seat);
  }

  renderOpponents() {
    clear(this.opponentsEl).append(opponents(this.view, this.summary));
  }

  drawBoard() {
    if (!this.board || !this.view || this.hand?.dragging && !this.selected) return;
    const v = this.view;
    const places = this.places();
    const focusedPlace = document.activeElement?.dataset?.place;
    const opts = {
      places,
      onPlace: (move) => this.play(this.selected, move),
      emptyText: this.myTurn ? t("board.your_lead") : t("board.empty"),
    };
    let buttons;
    if (v.variant === "mexican-train") {
      buttons = renderTrains(this.board, v, { ...opts, seat: this.seat, names: this.summary.seats.map((_, i) => seatName(this.summary, i, this.seat)) });
    } else {
      buttons = renderLine(this.board, v.line, { ...opts, cross: v.variant !== "partnership", played: v.played });
    }
    for (const b of buttons) b.addEventListener("keydown", (e) => this.placeKey(e, buttons));
    if (focusedPlace) buttons.find((b) => b.dataset.place === focusedPlace)?.focus({ preventScroll: true });
    if (v.variant === "mexican-train" && places.length) buttons[0]?.scrollIntoView({ block: "nearest" });
  }

  placeKey(e, buttons) {
    const i = buttons.indexOf(e.currentTarget);
    if (e.key === "Escape") {
      const key = this.selected;
      this.selected = null;
      this.drawBoard();
      this.renderHand();
      this.renderStatus();
      this.hand.focusTile(key);
      e.preventDefault();
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key)) {
      const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
      buttons[(i + step + buttons.length) % buttons.length].focus();
      e.preventDefault();
    }
  }

  renderHand() {
    if (!this.hand || !this.view) return;
    if (this.hand.dragging) return;
    const moves = this.moves;
    const hinted = this.hint && this.myTurn ? tileKey(this.hint.move.split("@")[0]) : null;
    this.hand.render(this.view.hand, (key) => moves.has(key), {
      selected: this.selected,
      hinted,
      colored: this.view.variant === "mexican-train",
      myTurn: this.myTurn,
    });
    if (this.refocus && !this.busy && !this.root.contains(document.activeElement)) {
      this.refocus = false;
      this.hand.focusTile(this.hand.focusKey);
    }
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
    if (v.stock > 0 || v.variant === "mexican-train" || (v.draws || []).some((d) => d > 0)) info.push(t("table.stock", { n: v.stock }));
    const mine = passesText(v, this.seat);
    if (mine) info.push(t("table.you_passed", { numbers: mine }));
    if (v.draws?.[this.seat]) info.push(t("table.you_drew", { n: v.draws[this.seat] }));
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

  renderOverlay() {
    clear(this.overlayEl);
    const v = this.view;
    const st = this.summary.status;
    if (!v.last_hand || st === "playing" || this.dismissed.has(v.hand_number)) return;
    const panel = resultsPanel(v, this.summary, {
      isHost: this.seat === this.summary.host,
      onNextHand: () => this.action("next_hand"),
      onFinish: () => this.action("finish"),
      onPlayAgain: () => this.playAgain(),
      onHome: () => this.nav.go("/"),
      onClose: () => {
        this.dismissed.add(v.hand_number);
        this.renderOverlay();
        this.renderTools();
      },
    });
    this.overlayEl.append(h("div", { class: "overlay" }, panel));
  }

  openMenu() {
    const dialog = h("dialog", { class: "menu", "aria-label": t("menu.title") },
      h("h2", {}, t("menu.title")),
      h("p", {}, `${variantName(this.summary.variant)} · ${t("menu.code", { code: this.code })}`),
      langPicker(),
      h("div", { class: "actions column" },
        h("button", { type: "button", "data-action": "home", onclick: () => { dialog.close(); this.nav.go("/"); } }, t("action.home")),
        h("button", { type: "button", "data-action": "leave", onclick: () => { dialog.close(); this.leave(); } }, t("action.leave")),
        h("button", { type: "button", class: "primary", "data-action": "close", onclick: () => dialog.close() }, t("action.close"))));
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }
}

// playarea.js — the board and the hand as one surface to play on, shared by the table (moves
// sent over the socket) and the lessons (tries posted to the server). It draws the view's line
// or trains and the hand, and turns a person's taps, drags and keys into a move: a tile that
// fits one place plays at once, one that fits several lights its places (data-place) to tap or
// drop on, Escape puts it back. What a move then does is the owner's business (hooks.play).
//
// new PlayArea(board, handEl, hooks) with hooks: play(key, move), say(text), changed() (the
// selection changed: redraw the status line), blocked() (true while a move is on its way),
// root (the page's element: focus lost from it goes back to the hand after a keyboard move).
// set(view, {myTurn, names, hinted, tryAll}) takes a new view; names(seat) names a seat.
// tryAll (lessons): every tile may be tried, even one that fits nowhere (sent as the bare tile,
// so the learner hears why from the rules).

import { h, reducedMotion } from "./dom.js";
import { t, tileName } from "./i18n.js";
import { HandView } from "./hand.js";
import { renderLine } from "./line.js";
import { renderTrains } from "./trains.js";
import { tileKey } from "./tiles.js";

/** The legal moves by tile (low half first): [{move, place}] with place "L", "R", a train or
 * null for a lead. */
export function groupMoves(legal) {
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

/** Where a move goes, in words: {label} for a screen reader and sentences, {short} for the lit
 * place ("the left end (5)", "Your train", "as the lead"). */
export function placeLabel(view, place, names) {
  if (place === null || place === undefined) return { label: t("place.lead"), short: "" };
  if (place === "L") return { label: t("place.left", { n: view.ends?.[0] ?? "" }), short: String(view.ends?.[0] ?? "") };
  if (place === "R") return { label: t("place.right", { n: view.ends?.[1] ?? "" }), short: String(view.ends?.[1] ?? "") };
  if (place === "M") return { label: t("train.public"), short: "M" };
  const owner = Number(place);
  return { label: owner === view.seat ? t("train.mine") : t("train.of", { name: names(owner) }), short: place };
}

/** Draw a view's line or trains in `board` (no places lit): for pictures of a position.
 * redraw(): draw it again (a train folded or opened); by default, the same picture. */
export function drawPosition(board, view, names, places = [], onPlace = () => {}, emptyText = "", redraw = null) {
  const again = redraw || (() => drawPosition(board, view, names, places, onPlace, emptyText));
  const opts = { places, onPlace, emptyText, redraw: again };
  if (view.traits.board === "trains") {
    return renderTrains(board, view, { ...opts, seat: view.seat, names: Array.from({ length: view.players }, (_, i) => names(i)) });
  }
  return renderLine(board, view.line, { ...opts, cross: view.traits.crosswise_doubles, played: view.played });
}

export class PlayArea {
  constructor(board, handEl, hooks) {
    this.board = board;
    this.handEl = handEl;
    this.hooks = hooks;
    this.view = null;
    this.myTurn = false;
    this.names = (seat) => t("seat.empty", { n: seat + 1 });
    this.hinted = null;
    this.tryAll = false;
    this.selected = null;
    this.refocus = false;
    this.hand = new HandView(handEl, {
      onTap: (key) => this.tap(key),
      onDragStart: (key) => this.dragStart(key),
      onDrop: (key, move, point) => this.drop(key, move, point),
    });
  }

  /** A new view to play on; a chosen tile stays chosen while it can still be played. */
  set(view, { myTurn = false, names = null, hinted = null, tryAll = false } = {}) {
    this.view = view;
    this.myTurn = myTurn;
    if (names) this.names = names;
    this.hinted = hinted;
    this.tryAll = tryAll;
    if (this.selected && !this.moves.has(this.selected)) this.selected = null;
  }

  get moves() {
    return groupMoves(this.myTurn ? this.view?.legal : []);
  }

  get dragging() {
    return this.hand.dragging;
  }

  places() {
    if (!this.selected) return [];
    return (this.moves.get(this.selected) || []).filter((m) => m.place !== null)
      .map((m) => ({ place: m.place, move: m.move, ...placeLabel(this.view, m.place, this.names) }));
  }

  unselect() {
    this.selected = null;
    this.draw();
    this.hooks.changed?.();
  }

  draw() {
    this.drawBoard();
    this.renderHand();
  }

  // ---- what a person does ---------------------------------------------------------------

  tap(key) {
    if (this.hooks.blocked?.()) return;
    if (!this.myTurn) {
      this.hooks.say(t("play.not_your_turn"));
      return;
    }
    const moves = this.moves.get(key);
    if (!moves) {
      if (this.tryAll) this.play(key, key);
      else this.hooks.say(t("play.does_not_fit", { tile: tileName(key) }));
      return;
    }
    if (moves.length === 1) {
      this.play(key, moves[0].move);
      return;
    }
    this.selected = this.selected === key ? null : key;
    this.draw();
    this.hooks.changed?.();
    if (this.selected) this.board.querySelector("[data-place]")?.focus();
  }

  play(key, move) {
    if (this.hooks.blocked?.()) return;
    // Played from the keyboard: once the hand is drawn again, focus goes back to it.
    this.refocus = !!document.activeElement?.closest?.("[data-tile], [data-place]");
    this.target = this.board.querySelector(`[data-move="${CSS.escape(move)}"]`) || this.board;
    this.selected = null;
    this.hooks.play(key, move);
  }

  /** The tile flies from the hand to where it was played (none when reduced motion is asked). */
  animate(key, target = this.target) {
    if (reducedMotion() || !target) return;
    const from = this.handEl.querySelector(`[data-tile="${key}"]`);
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
    this.hooks.changed?.();
  }

  drop(key, move, point) {
    if (move) {
      this.play(key, move);
      return true;
    }
    const moves = this.moves.get(key) || [];
    const b = this.board.getBoundingClientRect();
    const onBoard = point.x >= b.left && point.x <= b.right && point.y >= b.top && point.y <= b.bottom;
    if (onBoard && moves.length === 1) {
      this.play(key, moves[0].move);
      return true;
    }
    if (onBoard && !moves.length && this.tryAll && this.myTurn) {
      this.play(key, key);
      return false;
    }
    this.hooks.say(moves.length ? t("play.drop_on_end") : t("play.does_not_fit", { tile: tileName(key) }));
    return false;
  }

  placeKey(e, buttons) {
    const i = buttons.indexOf(e.currentTarget);
    if (e.key === "Escape") {
      const key = this.selected;
      this.unselect();
      this.hand.focusTile(key);
      e.preventDefault();
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key)) {
      const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
      buttons[(i + step + buttons.length) % buttons.length].focus();
      e.preventDefault();
    }
  }

  // ---- drawing ------------------------------------------------------------------------------

  drawBoard() {
    if (!this.view || (this.hand.dragging && !this.selected)) return;
    const v = this.view;
    const places = this.places();
    const focusedPlace = document.activeElement?.dataset?.place;
    const focusedFold = document.activeElement?.dataset?.action === "unfold-train" ? document.activeElement.closest("[data-train]")?.dataset.train : null;
    const emptyText = this.myTurn ? t("board.your_lead") : t("board.empty");
    const buttons = drawPosition(this.board, v, this.names, places, (move) => this.play(this.selected, move), emptyText, () => this.drawBoard());
    for (const b of buttons) b.addEventListener("keydown", (e) => this.placeKey(e, buttons));
    if (focusedPlace) buttons.find((b) => b.dataset.place === focusedPlace)?.focus({ preventScroll: true });
    if (focusedFold) this.board.querySelector(`[data-train="${focusedFold}"] [data-action="unfold-train"]`)?.focus({ preventScroll: true });
    if (v.traits.board === "trains" && places.length) buttons[0]?.scrollIntoView({ block: "nearest" });
  }

  renderHand() {
    if (!this.view || this.hand.dragging) return;
    const moves = this.moves;
    const tryAll = this.tryAll && this.myTurn;
    this.hand.render(this.view.hand, (key) => moves.has(key), {
      selected: this.selected,
      hinted: this.hinted,
      colored: this.view.traits.colored_tiles,
      myTurn: this.myTurn,
      tryAll,
      compact: this.view.traits.board === "trains",
    });
    const root = this.hooks.root || document.body;
    if (this.refocus && !this.hooks.blocked?.() && !root.contains(document.activeElement)) {
      this.refocus = false;
      this.hand.focusTile(this.hand.focusKey);
    }
  }
}

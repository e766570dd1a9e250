// review.js — after a hand against the computer, the expert's review: the moves where it would
// have played otherwise, one at a time, each on the board as it was (the move's `view`), with
// "You played X; the expert would play Y", its reason, and Previous / Next. An empty list gets
// a kind word. The table asks over its socket ({"type": "review"}) and hands the reply
// ({"type": "review", "hand", "moves": [{index, played, better, reason, view}]}) or the
// error's code to this dialog; nothing here changes the table.

import { clear, h } from "./dom.js";
import { errorText, onLangChange, t, tileName } from "./i18n.js";
import { seatName } from "./names.js";
import { drawPosition, placeLabel } from "./playarea.js";
import { tileSvg, tileKey } from "./tiles.js";

/** A move in words: "six-three, the right end (3)". */
export function moveWords(view, move, names) {
  const [tile, place = null] = move.split("@");
  return t("review.move", { tile: tileName(tile), where: placeLabel(view, place, names).label });
}

export class ReviewDialog {
  /** table: the table's summary (names), seat: the reviewer's seat, onClose(). */
  constructor(table, seat, onClose = () => {}) {
    this.table = table;
    this.seat = seat;
    this.onClose = onClose;
    this.state = { kind: "loading" };
    this.index = 0;
    this.body = h("div", { class: "review-body" });
    this.dialog = h("dialog", { class: "review", "aria-labelledby": "review-title" },
      h("h2", { id: "review-title" }, t("review.title")), this.body);
    this.dialog.addEventListener("close", () => this.closed());
    this.offLang = onLangChange(() => this.render());
  }

  open() {
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.render();
  }

  /** The server's reply: the moves to go through. */
  show(reply) {
    this.state = { kind: "moves", moves: reply.moves || [] };
    this.index = 0;
    this.render();
  }

  /** The server refused (`no_hints`, `not_now`, ...). */
  fail(code, message) {
    this.state = { kind: "error", code, message };
    this.render();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  closed() {
    this.offLang();
    this.dialog.remove();
    this.onClose();
  }

  names(seat) {
    return seatName(this.table, seat, this.seat);
  }

  render() {
    this.dialog.querySelector("#review-title").textContent = t("review.title");
    const focused = document.activeElement?.dataset?.action;
    clear(this.body);
    const close = h("button", { type: "button", "data-action": "close-review", onclick: () => this.close() }, t("action.close"));
    const s = this.state;
    if (s.kind === "loading") {
      this.body.append(h("p", { class: "loading", role: "status" }, t("review.loading")), h("div", { class: "actions" }, close));
      return;
    }
    if (s.kind === "error") {
      this.body.append(h("p", { class: "error", role: "alert" }, errorText(s.code, s.message)), h("div", { class: "actions" }, close));
      return;
    }
    if (!s.moves.length) {
      this.body.append(h("p", { class: "review-empty", role: "status" }, t("review.none")), h("div", { class: "actions" }, close));
      close.classList.add("primary");
      return;
    }
    const m = s.moves[this.index];
    const view = m.view;
    const names = (seat) => this.names(seat);
    const board = h("div", { class: `board felt review-board${view.traits.board === "trains" ? " mt" : ""}`, role: "region", "aria-label": t("board.label"), tabindex: "0" });
    const played = tileKey(m.played.split("@")[0]);
    const better = tileKey(m.better.split("@")[0]);
    const hand = h("ul", { class: "review-hand", "aria-label": t("hand.label") }, (view.hand || []).map((tile) => {
      const key = tileKey(tile);
      // The same tile may be both: played on one end where the expert would use the other.
      const marks = [key === played ? "played" : null, key === better ? "better" : null].filter(Boolean);
      const label = [tileName(key), ...marks.map((m) => t(`review.${m}_mark`))].join(", ");
      return h("li", { class: ["review-tile", ...marks].join(" "), "aria-label": label }, tileSvg(key, { colored: view.traits.colored_tiles }));
    }));
    const prev = h("button", { type: "button", "data-action": "review-prev", disabled: this.index === 0, onclick: () => this.go(-1) }, t("review.previous"));
    const next = h("button", { type: "button", class: "primary", "data-action": "review-next", disabled: this.index === s.moves.length - 1, onclick: () => this.go(1) }, t("review.next"));
    this.body.append(
      h("p", { class: "review-count num", "aria-live": "polite" }, t("review.count", { n: this.index + 1, of: s.moves.length })),
      board,
      hand,
      h("div", { class: "review-words", "data-index": m.index },
        h("p", { class: "review-played" }, t("review.you_played", { move: moveWords(view, m.played, names) })),
        h("p", { class: "review-better" }, t("review.expert_plays", { move: moveWords(view, m.better, names) })),
        m.reason ? h("p", { class: "review-reason", lang: "en" }, m.reason) : null),
      h("div", { class: "actions review-nav" }, prev, next),
      h("div", { class: "actions" }, close));
    requestAnimationFrame(() => drawPosition(board, view, names));
    if (focused) (this.body.querySelector(`[data-action="${focused}"]:not([disabled])`) || this.body.querySelector(".review-nav button:not([disabled])"))?.focus();
  }

  go(step) {
    const n = this.state.moves.length;
    this.index = Math.min(n - 1, Math.max(0, this.index + step));
    this.render();
  }
}

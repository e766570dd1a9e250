// hand.js — your hand at the bottom of the table: one <button data-tile="a-b"> per tile,
// aria-disabled="true" when it cannot be played now (in a lesson every tile may be tried),
// playable tiles raised. A tap chooses a tile (the table decides: one place plays at once,
// several light the places); dragging a playable tile onto a lit place (data-place) plays it
// there, a drop anywhere else slides back. Keyboard: arrows move between tiles (one tab
// stop), Enter or Space chooses.
// Callbacks: onTap(key), onDragStart(key), onDrop(key, move|null, point).

import { clear, h, reducedMotion } from "./dom.js";
import { tileName } from "./i18n.js";
import { tileSvg, tileKey } from "./tiles.js";

const DRAG_START_PX = 8;

export class HandView {
  constructor(el, callbacks) {
    this.el = el;
    this.cb = callbacks;
    this.drag = null;
    this.suppressClick = false;
    this.focusKey = null;
    el.addEventListener("keydown", (e) => this.keydown(e));
  }

  get dragging() {
    return this.drag !== null && this.drag.active;
  }

  /** tiles: ["a-b"...]; playable(key) -> bool; opts: selected, hinted, colored, myTurn,
   * tryAll (a lesson: every tile may be tapped or dragged, to hear why one does not fit),
   * compact (a crowded board: the hand in as few rows as 44 px tiles allow). */
  render(tiles, playable, opts) {
    const focused = document.activeElement?.closest?.("[data-tile]")?.dataset.tile;
    clear(this.el);
    const width = this.el.clientWidth || 360;
    let perRow = tiles.length <= 8 ? Math.max(tiles.length, 1) : Math.ceil(tiles.length / 2);
    let gap = perRow >= 8 ? 3 : 6;
    let most = tiles.length > 8 ? 50 : 64;
    if (opts.compact && tiles.length > 8) {
      // A crowded table (Mexican Train): as few rows of 44 px tiles as the width allows.
      gap = 3;
      const fit = Math.max(1, Math.floor((width - 2 + gap) / (44 + gap)));
      perRow = Math.ceil(tiles.length / Math.ceil(tiles.length / fit));
      most = 44;
    }
    const w = Math.max(44, Math.min(most, Math.floor((width - (perRow - 1) * gap - 2) / perRow)));
    this.el.style.setProperty("--tw", `${w}px`);
    this.el.style.setProperty("--gap", `${gap}px`);
    const keys = tiles.map(tileKey);
    if (!keys.includes(this.focusKey)) this.focusKey = keys.find((k) => playable(k)) || keys[0] || null;
    for (const key of keys) {
      const can = playable(key);
      const tryable = can || !!opts.tryAll;
      const button = h(
        "button",
        {
          type: "button",
          class: ["tile", can ? "playable" : "", opts.selected === key ? "selected" : "", opts.hinted === key ? "hinted" : ""].join(" ").trim(),
          "data-tile": key,
          "aria-disabled": tryable ? "false" : "true",
          "aria-pressed": opts.selected === key ? "true" : "false",
          "aria-label": tileName(key),
          tabindex: key === this.focusKey ? "0" : "-1",
          onclick: (e) => {
            if (this.suppressClick) {
              this.suppressClick = false;
              e.preventDefault();
              return;
            }
            this.focusKey = key;
            this.cb.onTap(key);
          },
          onpointerdown: (e) => this.pointerdown(e, key, tryable),
        },
        tileSvg(key, { colored: opts.colored }),
      );
      this.el.append(button);
    }
    this.el.classList.toggle("my-turn", !!opts.myTurn);
    if (focused) this.el.querySelector(`[data-tile="${focused}"]`)?.focus({ preventScroll: true });
  }

  focusTile(key) {
    this.el.querySelector(`[data-tile="${key}"]`)?.focus();
  }

  keydown(e) {
    const buttons = [...this.el.querySelectorAll("[data-tile]")];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = buttons[(i + 1) % buttons.length];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = buttons[(i - 1 + buttons.length) % buttons.length];
    else if (e.key === "Home") next = buttons[0];
    else if (e.key === "End") next = buttons[buttons.length - 1];
    if (!next) return;
    e.preventDefault();
    for (const b of buttons) b.tabIndex = -1;
    next.tabIndex = 0;
    this.focusKey = next.dataset.tile;
    next.focus();
  }

  pointerdown(e, key, can) {
    if (!can || e.button !== 0) return;
    const button = e.currentTarget;
    this.drag = { key, x: e.clientX, y: e.clientY, button, active: false, ghost: null, over: null, id: e.pointerId };
    const move = (ev) => this.pointermove(ev);
    const up = (ev) => {
      button.removeEventListener("pointermove", move);
      button.removeEventListener("pointerup", up);
      button.removeEventListener("pointercancel", up);
      this.pointerup(ev, ev.type === "pointercancel");
    };
    try {
      button.setPointerCapture(e.pointerId);
    } catch {
      /* capture is a nicety */
    }
    button.addEventListener("pointermove", move);
    button.addEventListener("pointerup", up);
    button.addEventListener("pointercancel", up);
  }

  pointermove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START_PX) return;
      d.active = true;
      const rect = d.button.getBoundingClientRect();
      d.rect = rect;
      d.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true", style: `left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px` }, d.button.firstChild.cloneNode(true));
      document.body.append(d.ghost);
      d.button.classList.add("lifted");
      this.cb.onDragStart(d.key);
    }
    d.ghost.style.transform = `translate(${e.clientX - d.x}px, ${e.clientY - d.y}px)`;
    const under = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-place]") || null;
    if (under !== d.over) {
      d.over?.classList.remove("over");
      under?.classList.add("over");
      d.over = under;
    }
  }

  pointerup(e, cancelled) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.active) return;
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 400);
    const target = cancelled ? null : document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-place]");
    const ghost = d.ghost;
    d.button.classList.remove("lifted");
    if (target) {
      ghost.remove();
      this.cb.onDrop(d.key, target.dataset.move, { x: e.clientX, y: e.clientY });
      return;
    }
    const played = !cancelled && this.cb.onDrop(d.key, null, { x: e.clientX, y: e.clientY });
    if (played || reducedMotion()) {
      ghost.remove();
      return;
    }
    ghost.classList.add("returning");
    ghost.style.transform = "translate(0, 0)";
    setTimeout(() => ghost.remove(), 200);
  }
}

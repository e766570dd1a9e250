// clock.js — countdowns drawn from the server's remaining_ms. Ring(): an SVG ring that
// drains and the seconds left inside it; set({remaining_ms, total_ms}) restarts it from the
// time of the message, set(null) hides it. Countdown(el, fmt) writes a text every second
// (the pause between hands), with a bar draining over the pause's total_ms. Both stop
// themselves when their element leaves the page.

import { h, svg } from "./dom.js";

const R = 15;
const CIRC = 2 * Math.PI * R;

export class Ring {
  constructor(label) {
    this.arc = svg("circle", { class: "ring-arc", cx: 18, cy: 18, r: R, "stroke-dasharray": CIRC.toFixed(2) });
    this.text = h("span", { class: "ring-text" });
    this.el = h("div", { class: "ring", role: "timer", "aria-label": label, hidden: true },
      svg("svg", { viewBox: "0 0 36 36", "aria-hidden": "true" },
        svg("circle", { class: "ring-track", cx: 18, cy: 18, r: R }), this.arc),
      this.text);
    this.deadline = 0;
    this.total = 45000;
    this.interval = null;
  }

  set(clock, defaultTotal = 45000) {
    clearInterval(this.interval);
    if (!clock) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.deadline = performance.now() + clock.remaining_ms;
    this.total = Math.max(clock.total_ms || (clock.away ? 5000 : defaultTotal), clock.remaining_ms, 1);
    this.el.classList.toggle("away", !!clock.away);
    this.tick();
    this.interval = setInterval(() => this.tick(), 250);
  }

  tick() {
    if (this.el.isConnected) this.mounted = true;
    else if (this.mounted) {
      clearInterval(this.interval);
      return;
    }
    const left = Math.max(0, this.deadline - performance.now());
    this.arc.setAttribute("stroke-dashoffset", (CIRC * (1 - left / this.total)).toFixed(2));
    this.text.textContent = String(Math.ceil(left / 1000));
    this.el.classList.toggle("low", left < 10000);
  }
}

export class Countdown {
  constructor(el, format) {
    this.el = el;
    this.format = format;
    this.interval = null;
  }

  /** bar: an element whose width shows the share of totalMs left (the server's total_ms). */
  set(remainingMs, totalMs = null, bar = null) {
    clearInterval(this.interval);
    if (remainingMs === null || remainingMs === undefined) {
      this.el.textContent = "";
      return;
    }
    const deadline = performance.now() + remainingMs;
    const total = Math.max(totalMs || remainingMs, remainingMs, 1);
    let mounted = false;
    const tick = () => {
      if (this.el.isConnected) mounted = true;
      else if (mounted) {
        clearInterval(this.interval);
        return;
      }
      const left = Math.max(0, deadline - performance.now());
      this.el.textContent = this.format(Math.ceil(left / 1000));
      if (bar) bar.style.width = `${((100 * left) / total).toFixed(1)}%`;
    };
    tick();
    this.interval = setInterval(tick, 500);
  }
}

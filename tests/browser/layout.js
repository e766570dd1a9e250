// layout.js — run in the page by checks.py (layout_problems): returns the screen's problems in
// words. The layer looked at is the one on top: an open dialog, else the end-of-hand overlay,
// else the whole page. "Atoms" are what a person reads or touches: elements with text of their
// own, form controls, buttons, tiles, pictures. Atoms must lie inside the screen's width (and,
// on the table, its height), must not overlap one another, and no element may have more
// content than its box shows (a clipped or spilling text); scrolling boxes (the board, the
// trains, the results) may scroll. Every button, link, field and picture must have a name.
(() => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const say = (el) => {
    const cls = typeof el.className === "string" ? el.className.trim().replace(/\s+/g, ".") : "";
    const text = (el.innerText || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ");
    return `${el.tagName.toLowerCase()}${cls ? "." + cls : ""} "${text.slice(0, 40)}"`;
  };
  const shown = (el) => {
    if (el.closest(".sr-only, .fly, .drag-ghost, .conn-banner")) return false;
    const s = getComputedStyle(el);
    if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const scrolls = (s, axis) => ["auto", "scroll"].includes(axis === "x" ? s.overflowX : s.overflowY);
  // The part of el's box not clipped away by scrolling or clipping ancestors.
  const visibleRect = (el) => {
    const r = el.getBoundingClientRect();
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const q = a.getBoundingClientRect();
      box = { l: Math.max(box.l, q.left), t: Math.max(box.t, q.top), r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom) };
    }
    return box;
  };
  const layer = document.querySelector("dialog[open]") || document.querySelector(".overlay") || document.body;
  const all = [...layer.querySelectorAll("*")].filter((el) => !(el instanceof SVGElement) || el.tagName === "svg");
  const visible = all.filter(shown);

  // 1. Nothing scrolls sideways; the table screen fits the screen's height.
  const sideways = document.documentElement.scrollWidth - W;
  if (sideways > 0) problems.push(`the page scrolls sideways by ${sideways}px`);
  const table = document.querySelector(".table-screen");
  if (table && document.documentElement.scrollHeight > H + 1)
    problems.push(`the table is taller than the screen (${document.documentElement.scrollHeight} > ${H})`);

  // 2. No text overflowing: a box with more content than it shows, unless it scrolls.
  for (const el of visible) {
    if (el instanceof SVGElement) continue;
    const s = getComputedStyle(el);
    if (s.display === "inline" || ["HTML", "BODY", "SELECT", "INPUT", "svg"].includes(el.tagName)) continue;
    // (a line cut on purpose with an ellipsis, e.g. a long name, shows that it was cut)
    const ellipsis = s.textOverflow === "ellipsis" && s.whiteSpace === "nowrap";
    if (el.scrollWidth > el.clientWidth + 1 && !scrolls(s, "x") && !ellipsis)
      problems.push(`text overflows sideways (${el.scrollWidth} > ${el.clientWidth}): ${say(el)}`);
    if (el.scrollHeight > el.clientHeight + 1 && !scrolls(s, "y") && s.overflowY !== "visible")
      problems.push(`text is cut at the bottom (${el.scrollHeight} > ${el.clientHeight}): ${say(el)}`);
  }

  // 3. Atoms: inside the screen, and not on top of one another.
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const kinds = "button, select, input, img, svg, [data-tile], .dot, .seg span, .mini";
  // (a decorative picture drawn under its own text, like the clock's ring, is not an atom)
  let atoms = visible.filter((el) => (el.matches(kinds) || ownText(el)) && !el.matches("svg[aria-hidden=true]"));
  atoms = atoms.filter((el) => !atoms.some((o) => o !== el && o.contains(el) && !(o instanceof SVGElement)));
  const boxes = [];
  for (const el of atoms) {
    const v = visibleRect(el);
    if (v.r - v.l < 1 || v.b - v.t < 1) continue;  // scrolled out of its box
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > W + 1) problems.push(`off-screen sideways (${Math.round(r.left)}..${Math.round(r.right)}): ${say(el)}`);
    if (table && (r.top < -1 || r.bottom > H + 1) && !el.closest(".overlay, dialog"))
      problems.push(`off-screen vertically (${Math.round(r.top)}..${Math.round(r.bottom)}): ${say(el)}`);
    boxes.push([el, v]);
  }
  const floating = (el) => el.matches(".place") || el.matches("svg.line");
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, p] = boxes[i];
      const [b, q] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (floating(a) && floating(b)) continue;
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l);
      const h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 2 && h > 2) problems.push(`overlap (${Math.round(w)}x${Math.round(h)}px): ${say(a)} / ${say(b)}`);
    }
  }

  // 4. Every button, link, field and picture has a name.
  for (const el of visible.filter((e) => e.matches("button, a[href], select, input, [role=img], img"))) {
    const named = (el.getAttribute("aria-label") || el.innerText || el.getAttribute("alt") !== null ||
      (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest("label") || el.title || "").toString().trim();
    if (!named && !el.matches("img[alt='']")) problems.push(`no accessible name: ${say(el)}`);
  }
  return [...new Set(problems)];
})

// dom.js — tiny helpers to build HTML and SVG elements. h(tag, attrs, ...children) returns
// an element; attrs keys: "class", "text", "style" (CSS text, set through el.style),
// "on<event>" (listeners), anything else is set as an attribute (null/false skips it, true
// sets it empty). Children may be nodes, strings or arrays (nested, null skipped). svg() is
// the same in the SVG namespace.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = value;
    // Through the CSSOM: the server's Content-Security-Policy refuses style attributes.
    else if (key === "style") el.style.cssText = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else el.setAttribute(key === "className" ? "class" : key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// playerlink.js — a person's name that opens their page (/p/ID, player.js): in the lobby in
// place (go), from a table (waiting room or in play) in a new tab, so that a tap on a name never
// takes a player away from their seat. Computers and empty seats have no
// page: their name stays plain text.

import { h } from "./dom.js";

/** The address of a player's page. */
export function playerHref(id) {
  return `/p/${encodeURIComponent(id)}`;
}

/** `text` (a seat's name as shown) linked to the page of `seat`'s person: `go` a function to
 * open it in place, "tab" for a new tab, or null for a plain link. */
export function playerLink(seat, text, go = null) {
  if (!seat || seat.kind === "computer" || seat.player === null || seat.player === undefined) return text;
  const href = playerHref(seat.player);
  const attrs = { class: "player-link", href, "data-player": String(seat.player) };
  if (typeof go === "function") attrs.onclick = (e) => { e.preventDefault(); go(href); };
  else if (go === "tab") Object.assign(attrs, { target: "_blank", rel: "noopener" });
  return h("a", attrs, text);
}

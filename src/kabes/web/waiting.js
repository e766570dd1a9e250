// waiting.js — the waiting room: the table's code in big letters to read aloud, the share
// button (the phone's share sheet, else copy the link), the seats filling in arrival order
// with who is connected, the host's Start once every seat is taken, and the host's Remove
// beside each other person seated (before the start; a removed player cannot come back).
// A table's page loads it when the table waits for people (table.js).

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { levelName, variantName } from "./names.js";
import { playerLink } from "./playerlink.js";
import { shareLink } from "./share.js";
import { topBar, tournamentTag } from "./topbar.js";

export function tableLink(code) {
  return `${location.origin}/t/${code}`;
}

/** opts: seat (mine), title (the variant's title from the view's traits), onStart, onLeave,
 * onRemove(seat, name) (the host's), say(text). */
export function waitingRoom(table, opts) {
  const free = table.seats.filter((s) => s === null).length;
  const isHost = opts.seat === table.host;
  const seats = h("ol", { class: "seat-list" });
  table.seats.forEach((s, i) => {
    seats.append(h("li", { class: `seat-row${s ? " taken" : ""}`, "data-seat": i },
      h("span", { class: "seat-no num" }, String(i + 1)),
      s
        ? [
            h("span", { class: `dot${s.kind === "person" && !s.connected ? " off" : ""}`, "aria-hidden": "true" }),
            h("span", { class: "seat-name" }, i === opts.seat ? t("waiting.you", { name: s.name }) : playerLink(s, s.name, "tab")),
            s.kind === "computer" ? h("span", { class: "seat-tag" }, levelName(s.level)) : null,
            i === table.host ? h("span", { class: "seat-tag host" }, t("waiting.host")) : null,
            s.kind === "person" && !s.connected ? h("span", { class: "seat-tag" }, t("seat.away")) : null,
            isHost && s.kind === "person" && i !== opts.seat
              ? h("button", { type: "button", class: "seat-remove", "data-action": "remove", "aria-label": t("waiting.remove_name", { name: s.name }), onclick: () => opts.onRemove(i, s.name) }, t("action.remove"))
              : null,
          ]
        : h("span", { class: "seat-free" }, t("waiting.free"))));
  });
  const code = table.code;
  return h("section", { class: "waiting" },
    h("h1", {}, variantName(table.variant, opts.title)),
    h("p", { class: "lead-text" }, t("waiting.share_this")),
    h("p", { class: "big-code", "aria-label": t("waiting.code_is", { code: code.split("").join(" ") }) }, code),
    h("button", { type: "button", class: "primary big", "data-action": "share", onclick: () => shareLink(tableLink(code), t("share.text", { code }), opts.say) }, t("action.share")),
    h("p", { class: "link-text" }, h("a", { href: `/t/${code}` }, tableLink(code))),
    h("h2", {}, free ? t("waiting.waiting_for", { n: free }) : t("waiting.full")),
    seats,
    h("div", { class: "actions" },
      isHost
        ? h("button", { type: "button", class: "primary big", "data-action": "start", disabled: free > 0, onclick: opts.onStart }, t("action.start"))
        : h("p", { class: "hint-text" }, t("waiting.host_starts")),
      h("button", { type: "button", "data-action": "leave", onclick: opts.onLeave }, t("action.leave"))),
  );
}

/** The waiting room as the page: the top bar, the room, and the line saying why an action was
 * refused (`flash`); the focus stays on the button that had it. opts: as waitingRoom's. */
export function waitingPage(root, nav, table, flash, opts) {
  const focused = document.activeElement?.dataset?.action;
  clear(root).append(
    topBar(nav, { noLogo: true, after: tournamentTag(table, nav) }),
    h("main", { class: "page" }, waitingRoom(table, opts),
      h("p", { class: "status flash", role: "status", "aria-live": "polite" }, flash || "")));
  if (focused) root.querySelector(`[data-action="${focused}"]`)?.focus();
}

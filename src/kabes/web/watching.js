// watching.js — a table seen from no seat (PROTOCOL.md, "Watching"): where a seat's hand
// would be, a thin band saying "Watching" with the watchers count, beside the chip of the
// seat the watcher looks over (seat 0: the others sit left, across and right of it, as a
// seat sees them). The watchers count a seat sees at its table is tableview.js's watchersText().

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { seatChip } from "./tableview.js";

export function eyeIcon() {
  return svg("svg", { class: "eye", viewBox: "0 0 24 16", width: 22, height: 15, "aria-hidden": "true" },
    svg("path", { d: "M1 8C4 3 8 1 12 1s8 2 11 7c-3 5-7 7-11 7S4 13 1 8z" }),
    svg("circle", { cx: 12, cy: 8, r: 3.2 }));
}

/** The band of a watcher: the bottom seat's chip, "Watching" and the watchers count. */
export function watchBand(view, table) {
  return h("div", { class: "watch-band" },
    seatChip(view, table, 0),
    h("p", { class: "watch-mark", "data-watching": "true" },
      eyeIcon(), h("strong", {}, t("watch.mark")),
      table.watchers ? h("span", { class: "num watchers" }, t("watch.count", { n: table.watchers })) : null));
}

// replaystart.js — what a replay's visit asks for while its modules download (pages.js:
// "starts", run by app.js): the table's summary and the hand that the address names
// (/r/CODE?hand=N), so that replay.js draws its first position as soon as it is in, rather
// than asking for them once it is.

import { api } from "./api.js";

let early = null;

/** The hand the address names (1 when none). */
export function addressedHand() {
  const text = new URLSearchParams(location.search).get("hand");
  return text !== null && /^[0-9]{1,6}$/.test(text) ? Math.max(1, Number(text)) : 1;
}

/** Ask now for table `code`'s summary and the addressed hand. */
export function start(code) {
  const upper = code.toUpperCase();
  const hand = addressedHand();
  early = { code: upper, hand, summary: api.table(upper), data: api.replay(upper, hand) };
  // Failures are the page's to tell, when it takes them.
  early.summary.catch(() => {});
  early.data.catch(() => {});
}

/** What start() asked for table `code` ({code, hand, summary, data} promises), once, or null
 * (none asked, or for another table). */
export function take(code) {
  const found = early;
  early = null;
  return found && found.code === code ? found : null;
}

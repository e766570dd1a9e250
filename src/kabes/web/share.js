// share.js — a link passed on from the page: the phone's share sheet where there is one, else
// the link copied to the clipboard, the person told which (a table's code in the waiting
// room, a tournament's page).

import { t } from "./i18n.js";

/** Share url with text through the share sheet, else copy it; say(text) tells the person.
 * Closing the share sheet is no failure: nothing is said then. */
export async function shareLink(url, text, say) {
  if (navigator.share) {
    try {
      await navigator.share({ title: "Kabès", text, url });
      return;
    } catch (e) {
      if (e?.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    say(t("share.copied"));
  } catch {
    say(t("share.copy_failed", { url }));
  }
}

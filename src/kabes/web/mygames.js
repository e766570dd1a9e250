// mygames.js — home's "My games on this phone" (issue 26, UI.md "With no network"): the games
// played against the computer on this phone alone, as the local table keeps them in IndexedDB
// (games.js), the last played first: the game, when, and in play or its result with the score.
// A game in play opens again at /t/CODE (the local table takes it up from where it was); a
// finished one's record (DESIGN.md's, as `kabes replay` reads it) downloads as kabes-CODE.json
// (data-action="download-record"); each may be removed, with a second tap to be sure. They were
// played with no server, so they are not rated. Loaded by home after its first paint; the
// card stays hidden while the phone holds no game (unless `always`).

import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { listGames, removeGame } from "./games.js";
import { variantName } from "./names.js";
import { pageLink } from "./topbar.js";

/** The party of the person at a game of this phone: the home form seats them at 0, the
 * computers after, and seat 0 is party 0 both alone and in teams (team 0 = seats 0 and 2). */
const MINE = 0;

/** Fill `card` with the games on this phone; `always`: show it even with none. */
export async function myGamesCard(card, nav, always = false) {
  const games = await listGames();
  card.hidden = !games.length && !always;
  const list = h("ul", { class: "history my-games" }, games.map((game) => gameRow(game, nav, () => myGamesCard(card, nav, always))));
  clear(card).append(
    h("h2", { id: "my-games-title" }, t("offline.my_games")),
    games.length ? list : h("p", { class: "hint-text" }, t("offline.no_games")),
    h("p", { class: "hint-text" }, t("offline.not_rated")));
}

function when(game) {
  const at = new Date(game.updated ?? game.started ?? Date.now());
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(at);
}

/** "Won · 102 – 64", "Lost · …", or "In progress". */
function state(game) {
  const result = game.result ?? game.record?.result ?? null;
  if (game.status !== "over" || !result) return t("history.unfinished");
  const won = (result.winners || []).includes(MINE);
  const scores = (result.scores || []).join(" – ");
  return [won ? t("history.won") : t("history.lost"), scores].filter(Boolean).join(" · ");
}

/** Hand the browser the record as a file named for the game. */
export function downloadRecord(game) {
  const file = new Blob([`${JSON.stringify(game.record, null, 1)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(file);
  const link = h("a", { href: url, download: `kabes-${game.code}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function gameRow(game, nav, redraw) {
  const over = game.status === "over";
  const remove = h("button", { type: "button", "data-action": "remove-game", "aria-label": t("offline.remove_game", { code: game.code }) }, t("action.remove"));
  remove.addEventListener("click", async () => {
    if (remove.dataset.sure !== "yes") {
      remove.dataset.sure = "yes";
      remove.textContent = t("offline.remove_sure");
      return;
    }
    remove.disabled = true;
    await removeGame(game.code);
    redraw();
  });
  return h("li", { "data-code": game.code, "data-status": game.status },
    h("span", {}, variantName(game.variant), h("span", { class: "hint-text game-when" }, when(game))),
    h("span", { class: "hist-state num" }, state(game)),
    over ? null : pageLink(nav, `/t/${game.code}`, { "data-action": "resume-game" }, t("history.open")),
    over && game.record ? h("button", { type: "button", "data-action": "download-record", "aria-label": t("history.download_of", { code: game.code }), onclick: () => downloadRecord(game) }, t("history.download")) : null,
    remove);
}

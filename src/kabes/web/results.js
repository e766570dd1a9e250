// results.js — the end of a hand and of a match, drawn from view.last_hand and view.result:
// the ending named big (Domino!, capicú, TONBE, 2 KABÈS, BLÒK, blocked), every hand face up
// with its count, the points each party took, the scores, the pause before the next deal
// and the host's buttons; at the end of a match the winner, kochon, the Wa and Play again.
// How the points were counted is the engine's own explanation, worded by explain.js. Each
// person's name opens their page (playerlink.js), in a new tab.

import { h } from "./dom.js";
import { t, tileName } from "./i18n.js";
import { Countdown } from "./clock.js";
import { explanationLines } from "./explain.js";
import { endingName, hasWa, inTeams, myParty, partyName, partyOf, penalties, seatName, variantName } from "./names.js";
import { playerLink } from "./playerlink.js";
import { shareLink } from "./share.js";
import { tileSvg } from "./tiles.js";

/** A seat's name as shown, opening its person's page in a new tab (never one's own seat, nor a
 * computer's: playerlink.js). */
function linkedSeat(view, table, seat, text) {
  return seat === view.seat ? text : playerLink(table?.seats?.[seat], text, "tab");
}

function faceUp(tiles, colored) {
  return h("div", { class: "face-up", role: tiles.length ? "list" : null },
    tiles.length
      ? tiles.map((tile) => h("span", { class: "mini", role: "listitem", "aria-label": tileName(tile) }, tileSvg(tile, { colored })))
      : h("span", { class: "out" }, t("end.out")));
}

function winnerLine(view, table, result) {
  if (result.winner === null || result.winner === undefined) return t("end.nobody");
  const name = partyName(view, table, result.winner);
  if (myParty(view) === null) return t("end.wins_hand", { name });
  const mine = result.winner === myParty(view);
  if (inTeams(view)) return mine ? t("end.we_win_hand") : t("end.they_win_hand");
  return mine ? t("end.you_win_hand") : t("end.wins_hand", { name });
}

/** opts: isHost, onNextHand, onFinish, onPlayAgain (or onTournament, back to its page), onHome, onClose; onReview (a table
 * against the computer: the expert's review of the hand); replay (the match's replay, /r/CODE:
 * at its end, a link "Watch the replay" opened by onReplay, and a share button giving it);
 * bare (a lesson, a replay: the hand's end and the scores, with no pause or buttons). */
export function resultsPanel(view, table, opts) {
  const last = view.last_hand;
  const over = !!view.result?.finished;
  const colored = view.traits.colored_tiles;
  const panel = h("section", { class: `results${over ? " match-over" : ""}`, role: "dialog", "aria-modal": "false", "aria-labelledby": "results-title" });
  if (last) {
    const r = last.result;
    panel.append(
      h("h2", { id: "results-title", class: "ending" }, endingName(r)),
      h("p", { class: "winner-line" }, winnerLine(view, table, r)),
    );
    const list = h("ul", { class: "hands-up" });
    for (let seat = 0; seat < view.players; seat += 1) {
      const party = partyOf(view, seat);
      const pts = r.points?.[party] || 0;
      list.append(h("li", { class: `hand-up${seat === view.seat ? " mine" : ""}` },
        h("div", { class: "hand-up-head" },
          h("span", { class: "seat-name" }, linkedSeat(view, table, seat, seatName(table, seat, view.seat))),
          h("span", { class: "num count-pips" }, t("end.count", { n: r.counts?.[seat] ?? 0 })),
          !inTeams(view) && pts ? h("span", { class: `num pts${penalties(view) ? " bad" : ""}` }, `+${pts}`) : null),
        faceUp(last.hands?.[seat] || [], colored)));
    }
    panel.append(list);
    if (inTeams(view) && r.points) {
      panel.append(h("p", { class: "team-points num" },
        r.points.map((p, party) => `${partyName(view, table, party)} +${p}`).join(" · ")));
    }
    const lines = explanationLines(view, table, last.explanation || []);
    if (lines.length) {
      panel.append(h("section", { class: "explanation", "aria-labelledby": "explanation-title" },
        h("h3", { id: "explanation-title", class: "explanation-title" }, t("end.how_counted")),
        h("ol", { class: "explanation-steps" }, lines.map((line) => h("li", {}, line)))));
    }
  }
  const scores = (over ? view.result.scores : view.scores).map((s, p) =>
    h("li", { class: `total${p === myParty(view) ? " mine" : ""}` },
      h("span", { class: "total-name" }, inTeams(view) ? partyName(view, table, p) : linkedSeat(view, table, p, partyName(view, table, p))), " ", h("strong", { class: "num" }, String(s))));
  panel.append(h("div", { class: "totals" },
    h("h3", { class: "totals-title" }, penalties(view) ? t("score.penalties") : t("score.points")),
    h("ul", { class: "total-list" }, scores)));

  const buttons = h("div", { class: "actions" });
  let said = null;
  if (over) {
    const res = view.result;
    const names = res.winners.map((p) => partyName(view, table, p));
    const watching = myParty(view) === null;
    const mine = res.winners.includes(myParty(view));
    panel.prepend(h("div", { class: "match-banner" },
      h("p", { class: "match-winner" }, mine ? (inTeams(view) ? t("match.we_win") : t("match.you_win"))
        : inTeams(view) && !watching ? t("match.they_win") : t("match.winners", { names: names.join(", ") })),
      hasWa(view) ? h("p", { class: "wa" }, "♛ ", t("match.wa", { names: names.join(", ") })) : null,
      res.kochon ? h("p", { class: "kochon" }, t("match.kochon")) : null));
  }
  if (opts.bare) {
    panel.classList.add("bare");
    panel.removeAttribute("role");
    panel.removeAttribute("aria-modal");
    return panel;
  }
  if (over) {
    if (table.next_table) panel.append(h("p", { class: "new-table" }, t("match.new_table", { code: table.next_table })));
    buttons.append(
      opts.onTournament
        ? h("button", { type: "button", class: "primary", "data-action": "back-tournament", onclick: opts.onTournament }, t("tour.back"))
        : opts.onPlayAgain ? h("button", { type: "button", class: "primary", "data-action": "play-again", onclick: opts.onPlayAgain }, table.next_table ? t("action.go_new_table") : t("action.play_again")) : null,
      h("button", { type: "button", "data-action": "home", onclick: opts.onHome }, t("action.home")),
    );
    if (opts.replay) said = replayLinks(view, table, opts, buttons);
  } else {
    const pause = h("p", { class: "pause", role: "timer" });
    const fill = h("span", { class: "pause-fill" });
    new Countdown(pause, (s) => t("end.next_in", { s })).set(view.pause?.remaining_ms ?? null, view.pause?.total_ms, fill);
    panel.append(pause);
    if (view.pause) panel.append(h("div", { class: "pause-bar", "aria-hidden": "true" }, fill));
    if (opts.isHost) {
      buttons.append(h("button", { type: "button", class: "primary", "data-action": "next-hand", onclick: opts.onNextHand }, t("action.next_hand")));
      if (view.options?.open_ended) {
        buttons.append(h("button", { type: "button", "data-action": "finish", onclick: opts.onFinish }, t("action.finish")));
      }
    } else {
      panel.append(h("p", { class: "hint-text" }, t("end.host_deals")));
    }
  }
  if (opts.onReview) buttons.append(h("button", { type: "button", "data-action": "review", onclick: opts.onReview }, t("action.review")));
  buttons.append(h("button", { type: "button", "data-action": "see-table", onclick: opts.onClose }, t("action.see_table")));
  panel.append(buttons);
  if (said) panel.append(said);
  return panel;
}

/** At a match's end: its replay's link ("Watch the replay") and a share button giving it. */
function replayLinks(view, table, opts, buttons) {
  const said = h("p", { class: "share-said", role: "status", "aria-live": "polite" });
  const url = new URL(opts.replay, location.href).href;
  const text = t("replay.share_text", { variant: variantName(table.variant, view.traits.title) });
  buttons.append(
    h("a", { class: "button", href: opts.replay, "data-action": "watch-replay", onclick: (e) => {
      if (!opts.onReplay) return;
      e.preventDefault();
      opts.onReplay();
    } }, t("replay.watch")),
    h("button", { type: "button", "data-action": "share", onclick: () => shareLink(url, text, (words) => (said.textContent = words)) }, t("replay.share")));
  return said;
}

// tournament.js — one tournament's page (/c/ID), read from GET /api/tournaments/ID every few
// seconds while the page is open: before the start, its link to share, who has entered,
// "Enter" (in a team variant, naming a partner among those entered) and the host's "Start";
// then, for an entrant whose match is ready, one big "Your table" at the top; the standings
// (your own row marked) and every round's pairings, each table's score as it goes (from the
// table's record) with a link to watch it; after the last round, the winner.

import { api, variantCatalog } from "./api.js";
import { clear, h, svg } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { variantName } from "./names.js";
import { playerLink } from "./playerlink.js";
import { shareLink } from "./share.js";
import { store } from "./store.js";
import { formatName, sidesAt } from "./tournaments.js";
import { topBar } from "./topbar.js";

const POLL_MS = 3000;
/** Tables in play whose scores are read at each look (the current round's, yours first). */
const LIVE_SCORES = 16;
const LIVE = ["playing", "between_hands"];

export function tournamentLink(id) {
  return `${location.origin}/c/${id}`;
}

/** For a tournament table's top bar: "Tournament · round 2", a link back to its page. */
function eyeIcon() {
  return svg("svg", { class: "eye", viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true" },
    svg("path", { d: "M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z", fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    svg("circle", { cx: 12, cy: 12, r: 3.2, fill: "currentColor" }));
}

/** Open the page of tournament id in root; returns a function that leaves it. */
export async function tournamentPage(root, id, nav) {
  const page = new TournamentPage(root, id, nav);
  await page.start();
  return () => page.close();
}

class TournamentPage {
  constructor(root, id, nav) {
    this.root = root;
    this.id = id;
    this.nav = nav;
    this.me = store.identity();
    this.doc = null;
    this.scores = new Map(); // table code -> scores per side, in seat order
    this.finals = new Set(); // codes whose final scores are read (they change no more)
    this.partner = "";
    this.flash = "";
    this.drawn = "";
    this.timer = null;
    this.closed = false;
    this.titles = {};
    this.variant = null;
  }

  async start() {
    clear(this.root).append(h("p", { class: "loading" }, t("loading")));
    try {
      const catalog = await variantCatalog();
      this.titles = Object.fromEntries(catalog.variants.map((v) => [v.id, v.title]));
      this.catalog = catalog.variants;
    } catch {
      this.catalog = [];
    }
    await this.look();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
  }

  async look() {
    if (this.closed) return;
    try {
      const doc = await api.tournament(this.id);
      this.doc = doc;
      this.variant = this.catalog.find((v) => v.id === doc.variant) || null;
      await this.readScores();
    } catch (e) {
      if (!this.doc) {
        this.problem(e);
        return;
      }
    }
    if (this.closed) return;
    this.render();
    if (this.doc.status !== "over") this.timer = setTimeout(() => this.look(), POLL_MS);
  }

  /** Each table's scores: the last finished hand's, from the table's record. */
  async readScores() {
    const doc = this.doc;
    const mine = this.myEntrant();
    const wanted = [];
    doc.pairings.forEach((round, r) => {
      for (const p of round) {
        if (!p.table || this.finals.has(p.table)) continue;
        const live = LIVE.includes(p.status) && r === doc.pairings.length - 1;
        if (p.status === "over" || live) wanted.push({ p, live, mine: mine !== null && p.entrants.includes(mine.entrant) });
      }
    });
    wanted.sort((a, b) => Number(b.mine) - Number(a.mine));
    const finals = wanted.filter((w) => !w.live);
    const lives = wanted.filter((w) => w.live).slice(0, LIVE_SCORES);
    await Promise.all([...finals, ...lives].map(async ({ p }) => {
      try {
        const record = await api.record(p.table);
        const last = record.hands?.[record.hands.length - 1]?.result?.scores;
        const scores = record.result?.scores || last;
        if (scores) this.scores.set(p.table, scores);
        if (record.result && p.status === "over") this.finals.add(p.table);
      } catch {
        // The score is shown at the next look.
      }
    }));
  }

  myEntrant() {
    return this.doc?.entrants.find((e) => e.players.includes(this.me.player)) || null;
  }

  /** My match of the round in play, when its table is open and not over. */
  myTable() {
    const mine = this.myEntrant();
    if (!mine || this.doc.status !== "running") return null;
    const round = this.doc.pairings[this.doc.pairings.length - 1] || [];
    return round.find((p) => p.table && p.status !== "over" && p.status !== "bye" && p.entrants.includes(mine.entrant)) || null;
  }

  /** The entrant's names, each opening its player's page (entrants, pairings, standings, the
   * winner). */
  linkedName(entrant) {
    const e = this.doc.entrants.find((x) => x.entrant === entrant);
    if (!e) return `#${entrant}`;
    return e.names.flatMap((name, i) => [i ? " & " : null, playerLink({ player: e.players[i] }, name, (href) => this.nav.go(href))]);
  }

  say(text) {
    this.flash = text;
    this.drawn = "";
    this.render();
  }

  async act(button, call) {
    button.disabled = true;
    try {
      this.doc = await call();
      this.flash = "";
      this.drawn = "";
      this.render();
    } catch (e) {
      button.disabled = false;
      this.say(e.code === "started" ? t("tour.started") : errorText(e.code, e.message));
    }
  }

  problem(e) {
    clear(this.root).append(h("section", { class: "problem card" },
      h("h1", {}, t("tour.cannot_open")),
      h("p", {}, e.status === 404 ? t("tour.not_found") : errorText(e.code, e.message)),
      h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => this.nav.go("/") }, t("action.home"))));
  }

  render() {
    const key = JSON.stringify([this.doc, [...this.scores], this.flash, this.partner]);
    if (key === this.drawn) return;
    this.drawn = key;
    const doc = this.doc;
    const focused = document.activeElement?.dataset?.action || document.activeElement?.id;
    const main = h("main", { class: "page tournament" });
    const ready = this.myTable();
    if (ready) {
      main.append(h("a", { class: "button primary big your-table", href: `/t/${ready.table}`, "data-action": "go-table", onclick: (e) => { e.preventDefault(); this.nav.go(`/t/${ready.table}`); } },
        t("tour.your_table")));
    }
    main.append(this.heading());
    if (doc.status === "over") main.append(this.winner());
    if (doc.status === "open") main.append(this.shareCard(), this.entryCard());
    else {
      main.append(this.standings());
      for (let r = doc.pairings.length - 1; r >= 0; r -= 1) main.append(this.roundCard(r));
      main.append(this.entrantsCard());
    }
    main.append(h("p", { class: "status flash", role: "status", "aria-live": "polite" }, this.flash));
    clear(this.root).append(
      topBar(this.nav),
      main);
    if (focused) (this.root.querySelector(`[data-action="${focused}"]`) || document.getElementById(focused))?.focus();
  }

  heading() {
    const doc = this.doc;
    const target = doc.options?.target ? t("score.target", { n: doc.options.target }) : null;
    const rounds = doc.rounds ? t("tour.rounds_n", { n: doc.rounds }) : null;
    let state;
    if (doc.status === "open") state = t("tour.status_open");
    else if (doc.status === "over") state = t("tour.status_over");
    else state = t("tour.status_running", { n: doc.round, of: doc.rounds ?? "?" });
    return h("section", { class: "tour-head" },
      h("h1", {}, t("tour.title", { variant: variantName(doc.variant, this.titles[doc.variant]) })),
      h("p", { class: "lead-text" }, [formatName(doc.format), rounds, target, t("home.players_fixed", { n: doc.players })].filter(Boolean).join(" · ")),
      h("p", { class: "tour-state" }, state));
  }

  winner() {
    const doc = this.doc;
    const mine = this.myEntrant();
    const won = mine && mine.entrant === doc.winner;
    return h("section", { class: "card tour-winner", "aria-labelledby": "winner-title" },
      h("h2", { id: "winner-title" }, t("tour.winner")),
      h("p", { class: "winner-name" }, doc.winner ? this.linkedName(doc.winner) : "—"),
      won ? h("p", { class: "lead-text" }, t("tour.you_won")) : null);
  }

  shareCard() {
    const url = tournamentLink(this.id);
    const isHost = this.doc.host === this.me.player;
    return h("section", { class: "card", "aria-labelledby": "share-title" },
      h("h2", { id: "share-title" }, isHost ? t("tour.share_this") : t("tour.share")),
      h("button", { type: "button", class: "primary big", "data-action": "share", onclick: () => shareLink(url, t("tour.share_text"), (x) => this.say(x)) }, t("action.share")),
      h("p", { class: "link-text" }, h("a", { href: `/c/${this.id}`, "data-link": "tournament" }, url)));
  }

  entryCard() {
    const doc = this.doc;
    const mine = this.myEntrant();
    const isHost = doc.host === this.me.player;
    const teams = this.variant ? sidesAt(this.variant, doc.players) !== doc.players : (doc.waiting?.length ?? 0) > 0;
    const sides = this.variant ? sidesAt(this.variant, doc.players) : 2;
    const card = h("section", { class: "card", "aria-labelledby": "entered-title" },
      h("h2", { id: "entered-title" }, t("tour.entered", { n: doc.entrants.length })));
    card.append(this.entrantList());
    const waiting = doc.waiting || [];
    if (waiting.length) {
      card.append(h("h3", {}, t("tour.without_partner")),
        h("ul", { class: "tour-waiting" }, waiting.map((w) => h("li", {},
          playerLink(w, w.name, (href) => this.nav.go(href)), w.partner ? h("span", { class: "hint-text" }, ` → ${this.playerName(w.partner)}`) : null))));
    }
    const meWaiting = waiting.find((w) => w.player === this.me.player);
    if (!mine) {
      if (teams) {
        const others = waiting.filter((w) => w.player !== this.me.player);
        const options = [h("option", { value: "" }, t("tour.no_partner_yet")),
          ...others.map((w) => h("option", { value: String(w.player), selected: String(w.player) === this.partner }, w.name))];
        card.append(h("div", { class: "field" },
          h("label", { for: "tour-partner" }, t("tour.partner")),
          h("select", { id: "tour-partner", onchange: (e) => { this.partner = e.target.value; } }, options)),
        h("p", { class: "hint-text" }, meWaiting ? (meWaiting.partner ? t("tour.waiting_for_partner", { name: this.playerName(meWaiting.partner) }) : t("tour.name_partner")) : t("tour.pairs_explained")));
      }
      card.append(h("button", { type: "button", class: "primary big", "data-action": "enter", onclick: (e) => this.act(e.currentTarget, () => api.enterTournament(this.id, this.partner ? Number(this.partner) : null)) },
        meWaiting ? t("tour.enter_again") : t("tour.enter")));
    } else {
      card.append(h("p", { class: "lead-text" }, t("tour.you_entered")));
    }
    if (isHost) {
      const enough = doc.entrants.length >= sides;
      card.append(h("button", { type: "button", class: `big${enough ? " primary" : ""}`, "data-action": "start", disabled: !enough, onclick: (e) => this.act(e.currentTarget, () => api.startTournament(this.id)) }, t("tour.start")));
      if (!enough) card.append(h("p", { class: "hint-text" }, t("tour.need_entrants", { n: sides })));
    } else {
      card.append(h("p", { class: "hint-text" }, t("tour.host_starts")));
    }
    return card;
  }

  playerName(player) {
    for (const e of this.doc.entrants) {
      const i = e.players.indexOf(player);
      if (i >= 0) return e.names[i];
    }
    return (this.doc.waiting || []).find((w) => w.player === player)?.name || `#${player}`;
  }

  entrantList() {
    const mine = this.myEntrant();
    if (!this.doc.entrants.length) return h("p", { class: "hint-text" }, t("tour.nobody_yet"));
    return h("ol", { class: "tour-entrants" }, this.doc.entrants.map((e) =>
      h("li", { class: mine && mine.entrant === e.entrant ? "mine" : null }, this.linkedName(e.entrant),
        e.players.includes(this.doc.host) ? h("span", { class: "seat-tag host" }, t("tour.host")) : null)));
  }

  entrantsCard() {
    return h("section", { class: "card", "aria-labelledby": "entrants-title" },
      h("h2", { id: "entrants-title" }, t("tour.entered", { n: this.doc.entrants.length })), this.entrantList());
  }

  standings() {
    const mine = this.myEntrant();
    const rows = this.doc.standings.map((s, i) => {
      const me = mine && mine.entrant === s.entrant;
      return h("tr", { class: me ? "mine" : null, "aria-current": me ? "true" : null },
        h("td", { class: "num" }, String(i + 1)),
        h("th", { scope: "row" }, this.linkedName(s.entrant), me ? h("span", { class: "sr-only" }, ` (${t("tour.you")})`) : null),
        h("td", { class: "num" }, String(s.points)),
        h("td", { class: "num" }, String(s.buchholz)),
        h("td", { class: "num" }, String(s.played)),
        h("td", { class: "num" }, String(s.difference)));
    });
    return h("section", { class: "card", "aria-labelledby": "standings-title" },
      h("h2", { id: "standings-title" }, this.doc.status === "over" ? t("tour.final_standings") : t("tour.standings")),
      h("div", { class: "rank-table tour-standings" }, h("table", {},
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "#"),
          h("th", { scope: "col" }, t("rank.name")),
          h("th", { scope: "col" }, h("abbr", { title: t("tour.points") }, t("tour.points_short"))),
          h("th", { scope: "col" }, h("abbr", { title: t("tour.buchholz") }, t("tour.buchholz_short"))),
          h("th", { scope: "col" }, h("abbr", { title: t("tour.played") }, t("tour.played_short"))),
          h("th", { scope: "col" }, h("abbr", { title: t("tour.difference") }, "+/−")))),
        h("tbody", {}, rows))),
      h("p", { class: "hint-text" }, t("tour.tie_breaks")));
  }

  roundCard(r) {
    const round = this.doc.pairings[r];
    const mine = this.myEntrant();
    return h("section", { class: "card", "aria-labelledby": `round-${r + 1}` },
      h("h2", { id: `round-${r + 1}` }, t("tour.round", { n: r + 1 })),
      h("ul", { class: "pairings" }, round.map((p) => this.pairing(p, mine))));
  }

  pairing(p, mine) {
    const isMine = mine && p.entrants.includes(mine.entrant);
    if (p.status === "bye") {
      return h("li", { class: `pairing bye${isMine ? " mine" : ""}` },
        h("span", { class: "pair-names" }, this.linkedName(p.entrants[0])),
        h("span", { class: "pair-state" }, t("tour.bye")));
    }
    const scores = p.table ? this.scores.get(p.table) : null;
    const names = p.entrants.map((e, i) => h("span", { class: `pair-side${p.winner === e ? " won" : ""}` },
      this.linkedName(e),
      scores && scores[i] !== undefined ? h("span", { class: "pair-score num" }, ` ${scores[i]}`) : null,
      p.winner === e ? h("span", { class: "sr-only" }, ` (${t("tour.won")})`) : null));
    const joined = [];
    names.forEach((n, i) => joined.push(i ? h("span", { class: "vs", "aria-hidden": "true" }, " – ") : null, n));
    let state;
    if (p.status === "over") state = t("tour.match_over");
    else if (LIVE.includes(p.status)) state = t("tour.in_play");
    else state = t("tour.table_waiting");
    const watch = p.table && !isMine && p.status !== "over"
      ? h("a", { class: "watch", href: `/t/${p.table}`, "data-action": "watch", "aria-label": t("tour.watch_table", { code: p.table }), onclick: (e) => { e.preventDefault(); this.nav.go(`/t/${p.table}`); } }, eyeIcon())
      : null;
    return h("li", { class: `pairing${isMine ? " mine" : ""}`, "data-table": p.table || "" },
      h("span", { class: "pair-names" }, joined),
      h("span", { class: "pair-state" }, state),
      watch);
  }
}

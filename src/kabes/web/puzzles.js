// puzzles.js — the puzzles (/puzzles; PROTOCOL.md "Puzzles", UI.md "Puzzles"): the daily
// puzzle, then one after another near the player's puzzle rating. The position is drawn with
// the table's own board and hand (playarea.js), played by tapping as at the table; one try per
// puzzle is sent (POST /api/puzzles/ID/try), and its answer shown green or red with the proof's
// numbers in words: the deals counted, and how far each other move falls behind. The streak
// and the puzzle rating sit small in the top bar (the player's page gives them, the try's
// answer the new rating). Nothing here knows a variant: the view's traits say what to draw.
// With no network and the offline pack on the phone, offline.js's puzzleApi answers from the
// starter set the pack ships, and the streak is the phone's (no rating).

import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, lang, onLangChange, t } from "./i18n.js";
import { inTeams, myParty, partySeats, penalties, variantName } from "./names.js";
import { offlineNote, phonePuzzleCard, puzzleApi } from "./offline.js";
import { PlayArea, placeLabel } from "./playarea.js";
import { store } from "./store.js";
import { opponents } from "./tableview.js";
import { topBar } from "./topbar.js";

/** Open the puzzles in root; returns a function that leaves them. */
export async function puzzlesPage(root, _parts, nav) {
  const page = new PuzzlePage(root, nav);
  await page.start();
  return () => page.close();
}

/** A number as the page's language writes it ("1,680", "1 680"). */
function num(n) {
  return new Intl.NumberFormat(lang()).format(n);
}

/** Where another seat sits, seen from the puzzle's seat: the compass the line on top and the
 * chips name them by (you are South). */
function compass(players, seat, other) {
  const k = (other - seat + players) % players;
  const points = { 2: ["", "north"], 3: ["", "east", "west"], 4: ["", "east", "north", "west"] }[players];
  return points?.[k] ? t(`puzzle.${points[k]}`) : t("seat.empty", { n: other + 1 });
}

/** A stand-in for a table's summary: the seats named by compass. */
function puzzleTable(puzzle) {
  return {
    code: "",
    variant: puzzle.variant,
    players: puzzle.players,
    host: puzzle.seat,
    status: "playing",
    next_table: null,
    seats: Array.from({ length: puzzle.players }, (_, i) => ({
      seat: i, name: i === puzzle.seat ? t("seat.you") : compass(puzzle.players, puzzle.seat, i),
      player: null, kind: "person", level: null, connected: true, left: false,
    })),
  };
}

/** The line on top: "Your move. Partnership, you and North to make 100." */
export function puzzleLine(puzzle) {
  const v = puzzle.view;
  const game = variantName(puzzle.variant, v.traits.title);
  const target = v.target ?? v.options?.target;
  if (inTeams(v)) {
    const mate = partySeats(v, myParty(v)).find((s) => s !== puzzle.seat);
    const partner = compass(puzzle.players, puzzle.seat, mate);
    if (target && !penalties(v)) return t("puzzle.line_team", { game, partner, n: target });
    return t("puzzle.line_team_plain", { game, partner });
  }
  if (target && !penalties(v)) return t("puzzle.line_solo", { game, n: target });
  return t("puzzle.line_plain", { game });
}

/** A move in words: its tile, and its end when the same tile may go on two ends. */
function moveWords(view, move, all) {
  const [tile, place = null] = move.split("@");
  const twice = all.filter((m) => m.split("@")[0] === tile).length > 1;
  if (!twice || place === null) return tile;
  return t("puzzle.move_at", { tile, place: placeLabel(view, place, () => "").label });
}

/** The answer in words: the verdict, why the solution is best over every deal, and how far
 * each other move falls behind (the one tried first). */
export function answerLines(puzzle, tried, answer) {
  const v = puzzle.view;
  const moves = answer.proof.moves.map((m) => m.move);
  const best = moveWords(v, answer.solution[0], moves);
  const deals = answer.proof.deals;
  const lines = [deals === 1 ? t("puzzle.why_one", { move: best }) : t("puzzle.why", { move: best, deals: num(deals) })];
  const behind = answer.proof.moves
    .filter((m) => m.behind > 0)
    .sort((a, b) => (b.move === tried) - (a.move === tried) || b.behind - a.behind);
  for (const m of behind) {
    const key = deals === 1 ? "puzzle.loses_one" : "puzzle.loses";
    lines.push(t(key, { move: moveWords(v, m.move, moves), points: num(m.most_behind), count: num(m.behind) }));
  }
  return lines;
}

class PuzzlePage {
  constructor(root, nav) {
    this.root = root;
    this.nav = nav;
    this.puzzle = null;
    this.answer = null;
    this.tried = null;
    this.busy = false;
    this.card = null;
    this.offLang = onLangChange(() => this.render());
  }

  async start() {
    clear(this.root).append(this.topbar(), h("main", { class: "page" }, h("p", { class: "loading" }, t("loading"))));
    this.loadCard();
    await this.load(() => puzzleApi.puzzleDaily());
  }

  close() {
    this.closed = true;
    this.offLang();
    this.resize?.disconnect();
  }

  /** The player's puzzle card (rating, streak) from their page, for the top bar. */
  async loadCard() {
    const me = store.identity();
    try {
      const here = await phonePuzzleCard();
      if (!here && !me) return;
      this.card = here || (await api.player(me.player)).puzzles || null;
      if (!this.closed && this.stats) this.drawStats();
    } catch {
      /* the bar shows no figures */
    }
  }

  async load(fetcher) {
    try {
      const puzzle = await fetcher();
      if (this.closed) return;
      this.puzzle = puzzle;
      this.answer = null;
      this.tried = null;
      this.render();
    } catch (e) {
      if (!this.closed) this.problem(e);
    }
  }

  problem(e) {
    const code = e instanceof ApiError ? e.code : "unknown";
    this.resize?.disconnect();
    clear(this.root).append(
      this.topbar(),
      h("main", { class: "page" }, h("section", { class: "problem card" },
        h("h1", {}, t("puzzle.title")),
        h("p", { class: "puzzle-none" }, code === "not_found" ? t("puzzle.none") : errorText(code, e.message)),
        h("button", { type: "button", class: "primary", "data-action": "home", onclick: () => this.nav.go("/") }, t("puzzle.home")))));
  }

  topbar() {
    this.stats = h("span", { class: "puzzle-stats num", "data-role": "puzzle-stats" });
    this.drawStats();
    return topBar(this.nav, { after: this.stats, cls: "puzzle-bar", note: offlineNote() });
  }

  drawStats() {
    const c = this.card;
    clear(this.stats);
    if (!c) return;
    this.stats.append(
      h("span", { class: "puzzle-streak", title: t("puzzle.streak_label") }, t("puzzle.streak", { n: num(c.streak) })));
    if (c.rating === null || c.rating === undefined) return;
    this.stats.append(
      h("span", { class: "sep", "aria-hidden": "true" }, " · "),
      h("span", { class: "puzzle-rating", title: t("puzzle.rating_label") }, t("puzzle.rating", { n: num(c.rating) })));
  }

  render() {
    if (this.closed || !this.puzzle) return;
    const puzzle = this.puzzle;
    this.table = puzzleTable(puzzle);
    document.title = `Kabès · ${t("puzzle.title")}`;
    this.resize?.disconnect();
    this.board = h("div", { class: `board felt lesson-board puzzle-board${puzzle.view.traits.board === "trains" ? " mt" : ""}`, role: "region", "aria-label": t("board.label"), tabindex: "0" });
    this.handEl = h("div", { class: "hand", role: "toolbar", "aria-label": t("hand.label") });
    this.sayEl = h("p", { class: "status lesson-say puzzle-say" });
    this.feedback = h("div", { class: "feedback", role: "status", "aria-live": "polite" });
    this.foot = h("div", { class: "lesson-foot puzzle-foot" });
    this.area = new PlayArea(this.board, this.handEl, {
      play: (key, move) => this.tryMove(key, move),
      say: (text) => this.say(text),
      changed: () => this.renderSay(),
      blocked: () => this.busy || !!this.answer,
      root: this.root,
    });
    const kicker = puzzle.date ? t("puzzle.daily", { date: new Date(`${puzzle.date}T12:00:00`).toLocaleDateString(lang()) }) : t("puzzle.title");
    clear(this.root).append(
      this.topbar(),
      h("main", { class: "lesson-screen puzzle-screen", "aria-labelledby": "puzzle-line", "data-puzzle": puzzle.id },
        h("div", { class: "lesson-head" },
          h("p", { class: "lesson-kicker" }, kicker),
          h("h1", { id: "puzzle-line", class: "lesson-title puzzle-line" }, puzzleLine(puzzle))),
        h("section", { class: "lesson-table puzzle-table", "aria-label": t("board.label") },
          h("div", { class: "lesson-top" }, opponents(puzzle.view, this.table)), this.board, h("div", { class: "me" }, this.sayEl, this.handEl)),
        this.feedback,
        this.foot));
    this.renderSay();
    this.renderAnswer();
    this.drawArea();
    let last = "";
    this.resize = new ResizeObserver(() => {
      const size = `${this.board.clientWidth}x${this.board.clientHeight}`;
      if (size === last) return;
      last = size;
      this.drawArea();
    });
    this.resize.observe(this.board);
  }

  drawArea() {
    this.area.set(this.puzzle.view, {
      myTurn: !this.answer,
      names: (seat) => this.table.seats[seat].name,
    });
    this.area.draw();
  }

  say(text) {
    this.flash = text;
    this.renderSay();
  }

  renderSay() {
    let text = this.flash || "";
    if (!text && !this.answer) text = this.area?.selected ? t("status.choose_place") : t("puzzle.do_play");
    this.sayEl.textContent = text;
    this.sayEl.classList.toggle("mine", !this.answer && !this.flash);
  }

  renderAnswer() {
    clear(this.feedback);
    clear(this.foot);
    const a = this.answer;
    if (!a) return;
    this.feedback.className = `feedback ${a.correct ? "right" : "wrong"}`;
    this.feedback.append(
      h("p", { class: "verdict" }, h("span", { "aria-hidden": "true" }, a.correct ? "✓ " : "✗ "), a.correct ? t("puzzle.right") : t("puzzle.wrong")),
      ...answerLines(this.puzzle, this.tried, a).map((line) => h("p", { class: "puzzle-why" }, line)));
    this.foot.append(h("div", { class: "actions" },
      h("button", { type: "button", class: "primary big", "data-action": "puzzle-next", onclick: () => this.next() }, t("puzzle.next"))));
  }

  async tryMove(key, move) {
    if (this.busy || this.answer) return;
    this.busy = true;
    const id = this.puzzle.id;
    try {
      const answer = await puzzleApi.tryPuzzle(id, move);
      if (this.closed || this.puzzle.id !== id) return;
      this.answer = answer;
      this.tried = move;
      this.flash = null;
      if (this.card && answer.rating !== null) this.card = { ...this.card, rating: answer.rating };
      this.area.animate(key);
      this.drawArea();
      this.renderSay();
      this.renderAnswer();
      this.loadCard();
      this.foot.querySelector("[data-action=puzzle-next]")?.scrollIntoView({ block: "nearest" });
    } catch (e) {
      if (!this.closed) {
        this.say(errorText(e.code, e.message));
        this.drawArea();
      }
    } finally {
      this.busy = false;
    }
  }

  async next() {
    if (this.busy) return;
    this.flash = null;
    window.scrollTo(0, 0);
    await this.load(() => puzzleApi.puzzleNext());
  }
}

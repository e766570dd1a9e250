// lesson.js — one lesson played through (/learn/ID): its steps one at a time, each a short text
// and a real position drawn with the game's own board and hand (playarea.js), then its
// "remember" points. A `play` step is done with the same taps, drags and keys as a game; every
// tile of the hand may be tried, and each try is judged by the server (POST /api/lessons/ID/try,
// docs/lessons.md): a wrong one gets the lesson's words and the rules' own refusal worded here
// (explain.js), a hint after two wrong tries, and another go; a right one its `done` words and
// the position after it (the table's answers, and the end of the hand where it ended). A
// `choose` step offers its answers as buttons (the right one plays the table's moves too); a
// `read` step goes on, first letting the table play its moves where it has some. The last
// screen marks the lesson finished on the server (POST /api/lessons/ID/done) and offers the
// next lesson.
// With no network and the offline pack on the phone, the phone's own engine judges the tries
// (offline.js's lessonApi: the same calls, the same answers).
// The step reached is kept in history.state, so a reload comes back to it. Changing the
// language fetches the lesson's words again (and the answer to the last try).

import { ApiError } from "./api.js";
import { clear, h } from "./dom.js";
import { refusalText } from "./explain.js";
import { errorText, lang, onLangChange, t } from "./i18n.js";
import { seatName, variantName } from "./names.js";
import { lessonApi, offlineNote } from "./offline.js";
import { PlayArea } from "./playarea.js";
import { resultsPanel } from "./results.js";
import { opponents, scoreLine } from "./tableview.js";
import { pageLink, topBar } from "./topbar.js";

/** Open lesson `id` in root; returns a function that leaves it. */
export async function lessonPage(root, id, nav) {
  const player = new LessonPlayer(root, id, nav);
  await player.start();
  return () => player.close();
}

/** The lesson's game in the page's words, else the title its views' traits give. */
function gameName(lesson) {
  return variantName(lesson.variant, lesson.steps.find((s) => s.view)?.view.traits.title);
}

/** A stand-in for a table's summary: the names the board and the results give the seats. */
function lessonTable(lesson, seat) {
  return {
    code: "",
    variant: lesson.variant,
    players: lesson.players,
    host: seat,
    status: "playing",
    next_table: null,
    seats: Array.from({ length: lesson.players }, (_, i) => ({
      seat: i, name: t("lesson.player", { n: i + 1 }), player: null, kind: "person", level: null, connected: true, left: false,
    })),
  };
}

/** What the table did after the learner's move (afterMine: the events start with it, left
 * out), in sentences ("Player 2 played 12-9."). */
function thenLines(events, seat, table, afterMine = true) {
  const lines = [];
  let mine = afterMine;
  for (const e of events || []) {
    if (e.kind === "played" && e.seat === seat && mine) {
      mine = false;
      continue;
    }
    const who = e.seat === seat ? "you" : "then";
    const name = e.seat === undefined ? "" : seatName(table, e.seat, seat);
    // The tile as the table wrote the move ("12-9"), as the lessons' words write tiles.
    if (e.kind === "played") lines.push(t(`lesson.${who}_played`, { name, tile: (e.move || e.tile).split("@")[0] }));
    else if (e.kind === "passed") lines.push(t(`lesson.${who}_passed`, { name }));
    else if (e.kind === "drew" || (e.kind === "drew_count" && e.seat !== seat)) lines.push(t(`lesson.${who}_drew`, { name, n: e.count ?? e.tiles?.length ?? 0 }));
  }
  return lines;
}

class LessonPlayer {
  constructor(root, id, nav) {
    this.root = root;
    this.id = id;
    this.nav = nav;
    this.lesson = null;
    const kept = history.state?.lesson === id ? history.state.step : 0;
    this.step = Number.isInteger(kept) && kept >= 0 ? kept : 0;
    this.resetStep();
    this.busy = false;
    this.finished = null;
    this.serial = 0;
    this.offLang = onLangChange(() => this.relang());
  }

  resetStep() {
    this.tries = 0;
    this.answer = null;
    this.lastTry = null;
    this.wrongChoices = new Set();
    this.rightChoice = null;
  }

  async start() {
    clear(this.root).append(h("p", { class: "loading" }, t("loading")));
    if (!(await this.load())) return;
    this.step = Math.min(this.step, this.lesson.steps.length);
    this.render();
  }

  close() {
    this.closed = true;
    this.offLang();
    this.resize?.disconnect();
    clearTimeout(this.flashTimer);
  }

  /** The lesson in the page's language; false (and a problem shown) if it cannot be had. */
  async load() {
    const mine = ++this.serial;
    try {
      const lesson = await lessonApi.lesson(this.id, lang());
      if (mine !== this.serial || this.closed) return false;
      this.lesson = lesson;
      return true;
    } catch (e) {
      if (mine === this.serial && !this.closed) this.problem(e);
      return false;
    }
  }

  problem(e) {
    const code = e instanceof ApiError ? e.code : "unknown";
    this.resize?.disconnect();
    clear(this.root).append(
      this.topbar(),
      h("main", { class: "page" }, h("section", { class: "problem card" },
        h("h1", {}, t("lesson.cannot_open")),
        h("p", {}, code === "not_found" ? t("lesson.not_found") : errorText(code, e.message)),
        h("button", { type: "button", class: "primary", "data-action": "back-to-path", onclick: () => this.nav.go("/learn") }, t("lesson.back")))));
  }

  async relang() {
    if (!(await this.load())) return;
    if (this.lastTry && this.answer) {
      try {
        this.answer = await lessonApi.tryLesson(this.id, lang(), this.lastTry);
      } catch {
        /* the words of the last answer stay as they were */
      }
    }
    this.render();
  }

  keepStep() {
    history.replaceState({ ...(history.state || {}), lesson: this.id, step: this.step }, "");
  }

  get current() {
    return this.lesson.steps[this.step];
  }

  /** Whether the step is done: its task answered right, or a read step read (and its table
   * moves, if any, played). */
  get solved() {
    const task = this.current.task;
    if (task.kind === "read") return !task.then?.length || !!this.answer;
    return !!this.answer?.correct;
  }

  /** The position shown: the step's, or the one after the learner's right answer and the
   * table's moves. */
  get view() {
    return this.answer?.correct && this.answer.view ? this.answer.view : this.current.view;
  }

  get canPlay() {
    const v = this.view;
    return this.current.task.kind === "play" && !this.solved && v.turn === this.current.seat;
  }

  // ---- drawing -------------------------------------------------------------------------------

  topbar() {
    const back = pageLink(this.nav, "/learn", { class: "back-link", "data-action": "back-to-path" },
      h("span", { "aria-hidden": "true" }, "← "), t("learn.lessons"));
    return topBar(this.nav, { start: back, cls: "lesson-bar", note: offlineNote() });
  }

  render() {
    if (this.closed || !this.lesson) return;
    this.keepStep();
    this.resize?.disconnect();
    document.title = `Kabès · ${this.lesson.title}`;
    if (this.step >= this.lesson.steps.length) {
      this.renderEnd();
      return;
    }
    const lesson = this.lesson;
    const step = this.current;
    this.table = lessonTable(lesson, step.seat);
    const focusText = this.focusText;
    this.focusText = false;
    this.stepText = h("p", { class: "step-text", id: "step-text", tabindex: "-1" }, step.text);
    this.topEl = h("div", { class: "lesson-top" });
    this.board = h("div", { class: `board felt lesson-board${this.view.traits.board === "trains" ? " mt" : ""}`, role: "region", "aria-label": t("board.label"), tabindex: "0" });
    this.sayEl = h("p", { class: "status lesson-say" });
    this.handEl = h("div", { class: "hand", role: "toolbar", "aria-label": t("hand.label") });
    this.feedback = h("div", { class: "feedback", role: "status", "aria-live": "polite" });
    this.foot = h("div", { class: "lesson-foot" });
    this.area = new PlayArea(this.board, this.handEl, {
      play: (key, move) => this.tryMove(key, move),
      say: (text) => this.flash(text),
      changed: () => this.renderSay(),
      blocked: () => this.busy || !this.canPlay,
      root: this.root,
    });
    clear(this.root).append(
      this.topbar(),
      h("main", { class: "lesson-screen", "aria-labelledby": "lesson-title" },
        h("div", { class: "lesson-head" },
          h("p", { class: "lesson-kicker num" },
            `${gameName(lesson)} · ${t("learn.lesson_n", { n: lesson.order })} · ${t("lesson.step", { n: this.step + 1, of: lesson.steps.length })}`),
          h("h1", { id: "lesson-title", class: "lesson-title" }, lesson.title),
          this.stepText),
        h("section", { class: "lesson-table", "aria-label": t("board.label") },
          this.topEl, this.board, h("div", { class: "me" }, this.sayEl, this.handEl)),
        this.feedback,
        this.foot));
    this.renderTop();
    this.renderFeedback();
    this.renderFoot();
    this.renderSay();
    this.drawArea();
    let last = "";
    this.resize = new ResizeObserver(() => {
      const size = `${this.board.clientWidth}x${this.board.clientHeight}`;
      if (size === last) return;
      last = size;
      this.drawArea();
    });
    this.resize.observe(this.board);
    if (focusText) this.stepText.focus();
  }

  renderTop() {
    const v = this.view;
    const info = v.stock > 0 || v.traits.stock_always_shown ? h("span", { class: "info num" }, t("table.stock", { n: v.stock })) : null;
    clear(this.topEl).append(h("div", { class: "lesson-scores" }, scoreLine(v, this.table), info), opponents(v, this.table));
  }

  drawArea() {
    this.area.set(this.view, {
      myTurn: this.canPlay,
      names: (seat) => seatName(this.table, seat, this.current.seat),
      tryAll: true,
    });
    this.area.draw();
  }

  renderSay() {
    const kind = this.current.task.kind;
    let text = "";
    if (this.sayFlash) text = this.sayFlash;
    else if (kind === "play" && !this.solved) text = this.area.selected ? t("status.choose_place") : t("lesson.do_play");
    else if (kind === "choose" && !this.solved) text = t("lesson.do_choose");
    this.sayEl.textContent = text;
    this.sayEl.classList.toggle("mine", !this.sayFlash && !this.solved);
    this.sayEl.classList.toggle("flash", !!this.sayFlash);
  }

  flash(text) {
    this.sayFlash = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.sayFlash = null;
      if (!this.closed && this.sayEl) this.renderSay();
    }, 4000);
    this.renderSay();
  }

  renderFeedback() {
    clear(this.feedback);
    const a = this.answer;
    const task = this.current.task;
    if (!a) return;
    if (task.kind === "read") {
      this.feedback.className = "feedback note";
      if (a.text) this.feedback.append(h("p", { class: "lesson-words" }, a.text));
      const then = thenLines(a.events, this.current.seat, this.table, false);
      if (then.length) this.feedback.append(h("ul", { class: "then" }, then.map((line) => h("li", {}, line))));
      return;
    }
    if (a.correct) {
      this.feedback.className = "feedback right";
      const check = h("span", { class: "check", "aria-hidden": "true" }, "✓ ");
      if (a.text) this.feedback.append(h("p", { class: "lesson-words" }, check, h("span", { class: "sr-only" }, `${t("lesson.right")} `), a.text));
      else this.feedback.append(h("p", { class: "verdict" }, check, t("lesson.right")));
      const then = thenLines(a.events, this.current.seat, this.table, task.kind === "play");
      if (then.length) this.feedback.append(h("ul", { class: "then" }, then.map((line) => h("li", {}, line))));
      return;
    }
    this.feedback.className = "feedback wrong";
    this.feedback.append(h("p", { class: "verdict" }, t("lesson.wrong")));
    if (a.reason) {
      const refusal = refusalText(this.current.view, this.table, { code: "illegal_move", reason: a.reason, facts: a.facts, message: "" });
      this.feedback.append(h("p", { class: "refusal" }, refusal));
    }
    if (a.text) this.feedback.append(h("p", { class: "lesson-words" }, a.text));
    this.feedback.append(h("p", { class: "again" }, t("lesson.try_again")));
    if (this.tries >= 2 && task.hint) {
      this.feedback.append(h("p", { class: "hint-box" }, h("strong", {}, `${t("lesson.hint")} `), task.hint));
    }
  }

  renderFoot() {
    clear(this.foot);
    const task = this.current.task;
    if (task.kind === "choose") {
      this.foot.append(h("div", { class: "choices", role: "group", "aria-label": t("lesson.do_choose") },
        task.choices.map((text, k) => {
          const right = this.rightChoice === k;
          const wrong = this.wrongChoices.has(k);
          return h("button", {
            type: "button",
            class: `choice${right ? " right" : ""}${wrong ? " wrong" : ""}`,
            "data-choice": k,
            "aria-pressed": right || wrong ? "true" : "false",
            "aria-disabled": this.solved ? "true" : "false",
            onclick: () => this.tryChoice(k),
          }, text);
        })));
    }
    const v = this.view;
    if (v.last_hand && (this.solved || task.kind !== "play")) {
      this.foot.append(resultsPanel(v, this.table, { bare: true }));
    }
    if (task.kind === "read" && !this.solved) {
      this.foot.append(h("div", { class: "actions" },
        h("button", { type: "button", class: "primary big", "data-action": "play-on", onclick: () => this.playOn() }, t("lesson.play_on"))));
    }
    if (this.solved) {
      const last = this.step === this.lesson.steps.length - 1;
      this.foot.append(h("div", { class: "actions" },
        h("button", { type: "button", class: "primary big", "data-action": "next-step", onclick: () => this.next() }, last ? t("lesson.finish") : t("lesson.next"))));
    }
  }

  // ---- tries ---------------------------------------------------------------------------------

  async send(body) {
    this.busy = true;
    const step = this.step;
    try {
      const answer = await lessonApi.tryLesson(this.id, lang(), body);
      return step === this.step && !this.closed ? answer : null;
    } catch (e) {
      if (!this.closed) this.flash(errorText(e.code, e.message));
      return null;
    } finally {
      this.busy = false;
    }
  }

  async tryMove(key, move) {
    if (this.busy || !this.canPlay) return;
    const body = { step: this.step, move };
    const answer = await this.send(body);
    if (!answer) {
      this.drawArea();
      return;
    }
    this.lastTry = body;
    this.answer = answer;
    if (answer.correct) {
      this.area.animate(key);
    } else {
      this.tries += 1;
    }
    this.sayFlash = null;
    this.redraw();
    this.reveal();
  }

  async tryChoice(k) {
    if (this.busy || this.solved) return;
    const body = { step: this.step, choice: k };
    const answer = await this.send(body);
    if (!answer) return;
    this.lastTry = body;
    this.answer = answer;
    if (answer.correct) this.rightChoice = k;
    else {
      this.tries += 1;
      this.wrongChoices.add(k);
    }
    this.redraw();
    this.foot.querySelector(`[data-choice="${k}"]`)?.focus();
    this.reveal();
  }

  /** A read step whose table plays on: the position after the table's moves. */
  async playOn() {
    if (this.busy || this.solved) return;
    const body = { step: this.step };
    const answer = await this.send(body);
    if (!answer) return;
    this.lastTry = body;
    this.answer = answer;
    this.redraw();
    this.reveal();
  }

  /** Everything of the step drawn again after a try or an answer. */
  redraw() {
    this.renderTop();
    this.drawArea();
    this.renderSay();
    this.renderFeedback();
    this.renderFoot();
  }

  /** Bring the feedback (and the Next button) into view on a small screen. */
  reveal() {
    const target = this.foot.querySelector("[data-action=next-step]") || this.feedback;
    target.scrollIntoView({ block: "nearest" });
  }

  next() {
    this.step += 1;
    this.resetStep();
    this.focusText = true;
    window.scrollTo(0, 0);
    this.render();
  }

  // ---- the end -----------------------------------------------------------------------------

  renderEnd() {
    const lesson = this.lesson;
    const status = h("p", { class: "status flash lesson-saved", role: "status", "aria-live": "polite" });
    const actions = h("div", { class: "actions" });
    const heading = h("h2", { id: "remember-title", tabindex: "-1" }, t("lesson.remember"));
    clear(this.root).append(
      this.topbar(),
      h("main", { class: "page lesson-end", "aria-labelledby": "lesson-title" },
        h("p", { class: "lesson-kicker" }, `${gameName(lesson)} · ${t("learn.lesson_n", { n: lesson.order })}`),
        h("h1", { id: "lesson-title", class: "lesson-title" }, lesson.title),
        h("p", { class: "finished-line" }, t("lesson.finished")),
        h("section", { class: "card remember", "aria-labelledby": "remember-title" },
          heading,
          h("ul", { class: "remember-list" }, lesson.remember.map((text) => h("li", {}, text)))),
        status,
        actions));
    heading.focus();
    const leave = (path) => async () => {
      await this.saving?.catch(() => {});
      this.nav.go(path);
    };
    const draw = (next) => {
      clear(actions);
      if (next) {
        actions.append(h("button", { type: "button", class: "primary big", "data-action": "next-lesson", onclick: leave(`/learn/${encodeURIComponent(next)}`) }, t("lesson.next_lesson")));
      } else {
        actions.append(h("p", { class: "all-done" }, t("learn.all_done", { game: gameName(lesson) })));
      }
      actions.append(h("button", { type: "button", class: next ? "big" : "primary big", "data-action": "back-to-path", onclick: leave("/learn") }, t("lesson.back")));
    };
    this.endActions = draw;
    this.endStatus = status;
    draw(this.finished ? this.finished.next : lesson.next);
    if (this.saving) return;
    this.saving = lessonApi.lessonDone(lesson.id);
    this.saving.then((done) => {
      this.finished = done;
      if (!this.closed) this.endActions(done.next);
    }).catch((e) => {
      this.saving = null;
      if (!this.closed) this.endStatus.textContent = `${t("lesson.not_saved")} ${errorText(e.code, e.message)}`;
    });
  }
}

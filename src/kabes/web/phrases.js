// phrases.js — the table's fixed phrases (PROTOCOL.md, "Phrases"): the list from GET
// /api/phrases (each phrase in the six languages, fetched once), the list the speech-bubble
// button beside the menu (topbar.js's sayButton) opens, in two columns ([data-phrase=ID]), with
// the switch that mutes the other players' phrases (kept on this device), and the bubbles of
// the phrases said: each by its sayer's seat for a few seconds, in the reader's language.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { store } from "./store.js";

/** How long a phrase said stays by its seat. */
export const SHOWN_MS = 3500;

let listPromise = null;

/** The phrases [{id, text: {lang: text}}], fetched once per page load. */
export function phraseList() {
  if (!listPromise) {
    listPromise = api.phrases().then((d) => d.phrases).catch((e) => {
      listPromise = null;
      throw e;
    });
  }
  return listPromise;
}

/** A phrase in the reader's language (English when it has no words in it). */
export function phraseText(phrase) {
  return phrase.text[lang()] || phrase.text.en || phrase.id;
}

/** The list in a dialog: tapping a phrase says it and closes the list. */
export async function openPhrases(onSay, onMuted) {
  const grid = h("div", { class: "phrase-grid" }, h("p", { class: "loading" }, t("loading")));
  const mute = h("input", { type: "checkbox", id: "mute-phrases", "data-action": "mute-phrases", checked: store.phrasesMuted(),
    onchange: (e) => {
      store.setPhrasesMuted(e.target.checked);
      onMuted?.(e.target.checked);
    } });
  const dialog = h("dialog", { class: "menu phrases", "aria-labelledby": "phrases-title" },
    h("h2", { id: "phrases-title" }, t("phrase.open")),
    grid,
    h("div", { class: "field check" }, mute, h("label", { for: "mute-phrases" }, t("phrase.mute"))),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-action": "close", onclick: () => dialog.close() }, t("action.close"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  try {
    const list = await phraseList();
    clear(grid).append(...list.map((p) => h("button", { type: "button", class: "phrase", "data-phrase": p.id, lang: lang(),
      onclick: () => {
        dialog.close();
        onSay(p.id);
      } }, phraseText(p))));
    grid.querySelector("button")?.focus();
  } catch {
    clear(grid).append(h("p", { class: "error" }, t("phrase.none")));
  }
}

/** The phrases said lately, by seat, drawn as bubbles on the seats of the page. */
export class Bubbles {
  constructor(redraw) {
    this.redraw = redraw;
    this.said = new Map();
    this.timers = new Map();
  }

  /** A `said` message: shown by its seat for SHOWN_MS, unless muted (one's own always). */
  async heard(msg, mySeat) {
    if (msg.seat !== mySeat && store.phrasesMuted()) return null;
    let phrase;
    try {
      phrase = (await phraseList()).find((p) => p.id === msg.phrase);
    } catch {
      return null;
    }
    if (!phrase) return null;
    this.said.set(msg.seat, phrase);
    clearTimeout(this.timers.get(msg.seat));
    this.timers.set(msg.seat, setTimeout(() => {
      this.said.delete(msg.seat);
      this.redraw();
    }, SHOWN_MS));
    this.redraw();
    return phrase;
  }

  /** Muted now: the bubbles of the others go at once. */
  mute(mySeat) {
    for (const seat of [...this.said.keys()]) if (seat !== mySeat) this.said.delete(seat);
    this.redraw();
  }

  /** Put the bubbles on the seats drawn in root; `mine` is the element for one's own seat. */
  place(root, mySeat, mine) {
    for (const old of root.querySelectorAll(".said-bubble")) old.remove();
    for (const [seat, phrase] of this.said) {
      const host = root.querySelector(`.seat[data-seat="${seat}"]`) || (seat === mySeat ? mine : null);
      if (!host) continue;
      const bubble = h("p", { class: `said-bubble${seat === mySeat ? " own" : ""}`, "data-said": phrase.id, "data-said-seat": seat, lang: lang() }, phraseText(phrase));
      host.append(bubble);
      keepOnScreen(bubble);
    }
  }

  close() {
    for (const timer of this.timers.values()) clearTimeout(timer);
  }
}

/** A bubble centred on a seat at the screen's edge would be cut: slide it back in, its arrow
 * still pointing at the seat. */
function keepOnScreen(bubble) {
  const margin = 4;
  const rect = bubble.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  let shift = 0;
  if (rect.right > width - margin) shift = width - margin - rect.right;
  if (rect.left + shift < margin) shift = margin - rect.left;
  if (!shift) return;
  bubble.style.marginLeft = `${shift}px`;
  bubble.style.setProperty("--arrow-shift", `${-shift}px`);
}

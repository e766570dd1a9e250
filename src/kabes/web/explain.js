// explain.js — the engine's words turned into the player's: how a hand's points were counted
// (view.last_hand.explanation, a list of {code, facts}, see docs/rules.md) and why a move was
// refused (the socket error's reason and facts). The client never works points or refusals
// out itself: each code has its words in the language's catalog (kabes/words/catalogs, the
// same files the terminal reads), "explain.<code>" or "refuse.<reason>", filled from the
// facts; a refusal without its own key falls back to the error code's words. Which entry tells
// a step and what fills it is composed once, for the terminal too, in steps.js: this module
// only names the seats and parties, joins the lists and adds the sums, in the page's language.
// It holds no sentence of its own.

import { errorText, has, lang, t } from "./i18n.js";
import { inTeams, partyName, partySeats, seatName } from "./names.js";
import { STEPS } from "./steps.js";

/** "a, b and c" in the page's language: the browser's own list words where it knows the
 * language, else the catalog's "list.and". */
function list(items) {
  if (items.length > 1 && !Intl.ListFormat?.supportedLocalesOf?.([lang()]).length) {
    return `${items.slice(0, -1).join(", ")} ${t("list.and")} ${items[items.length - 1]}`;
  }
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

function sum(values, total) {
  return values.length > 1 ? `${values.join(" + ")} = ${total}` : String(total);
}

/** Every choice of the suffixes, the most precise first (all of them, then all but one...),
 * each in their order. */
function choices(suffixes) {
  const all = [[]];
  for (const suffix of suffixes) for (const chosen of all.slice()) all.push([...chosen, suffix]);
  return all.sort((a, b) => b.length - a.length);
}

/** One step told to the page's reader (steps.js says how): its facts, the view and table that
 * name its seats and parties, the pips left per seat for sums shown in full. */
class Teller {
  constructor(view, table, facts, counts) {
    Object.assign(this, { view, table, facts, counts });
  }

  /** The most precise entry the page's words have for `key`, refined as `refine` says. */
  entry(key, refine = []) {
    const suffixes = refine.map((r) => this.suffix(r)).filter((s) => s);
    return choices(suffixes).map((chosen) => [key, ...chosen].join(".")).find((k) => has(k)) ?? null;
  }

  suffix(refine) {
    const f = this.facts;
    if (refine === "teams") return inTeams(this.view) ? "teams" : null;
    if (refine.startsWith("you:")) {
      if (refine === "you:party" && inTeams(this.view)) return "you";
      const who = f[refine.slice(4)];
      return who !== undefined && who !== null && who === this.view.seat ? "you" : null;
    }
    const [fact, suffix] = refine.split("?");
    if (suffix) return f[fact] ? suffix : null;
    return f[fact] === undefined || f[fact] === null ? null : String(f[fact]);
  }

  /** An entry in words, its placeholders filled (those its text has); null without words. */
  phrase(key, telling, item, index) {
    const found = this.entry(key, telling.refine);
    if (!found) return null;
    const params = {};
    const wanted = telling.params || {};
    for (const [, name] of t(found).matchAll(/\{(\w+)\}/g)) {
      if (name in wanted) params[name] = this.value(wanted[name], item, index);
    }
    return t(found, params);
  }

  /** A placeholder's value: a list, a phrase, or a path into the facts with its kind. */
  value(source, item, index) {
    if (source.each) {
      return (this.path(source.each, item, index) || []).map((x, i) => this.phrase(source.key, source, x, i)).join(t("list.items"));
    }
    if (source.key) return this.phrase(source.key, source, item, index) ?? "";
    const colon = source.lastIndexOf(":");
    const kind = source.slice(0, Math.max(colon, 0));
    const path = source.slice(colon + 1);
    const { view, table } = this;
    const seat = (s) => (s === undefined || s === null ? "" : seatName(table, s, view.seat));
    const party = (p) => partyName(view, table, p);
    if (kind === "sum") {
      const [seats, total] = path.split("=");
      const shown = this.path(total, item, index);
      return this.counts ? sum(this.path(seats, item, index).map((s) => this.counts[s]), shown) : shown;
    }
    const v = this.path(path, item, index);
    if (kind === "seat") return seat(v);
    if (kind === "seats") return list(v.map(seat));
    if (kind === "party") return party(v);
    if (kind === "parties") return list(v.map(party));
    if (kind === "ending") return has(`ending.${v}`) ? t(`ending.${v}`) : v;
    if (kind === "team_sum") return sum(partySeats(view, v).map((s) => (this.counts || this.facts.counts)[s]), this.facts.totals[v]);
    return v;
  }

  /** A path into the facts: "tile", "totals[party]", "@", "@seat", "#", "hand_wins[#]". */
  path(path, item, index) {
    if (path === "#") return index;
    if (path.startsWith("@")) return path === "@" ? item : item?.[path.slice(1)];
    const [name, at] = path.split("[");
    const value = this.facts[name];
    return at ? value?.[this.path(at.slice(0, -1), item, index)] : value;
  }
}

/** How the points were counted: the explanation's steps in sentences, in the engine's order
 * (steps told as one, a Mexican Train round's penalties, in one sentence); a code the page has
 * no words for is left out. */
export function explanationLines(view, table, steps) {
  const counts = steps.map((s) => s.facts?.[STEPS[s.code]?.pips_left]).find((c) => c);
  const told = [];
  for (const step of steps) {
    const merge = STEPS[step.code]?.merge;
    const prev = told[told.length - 1];
    if (merge && prev?.code === step.code) prev.facts[merge].push(step.facts);
    else told.push(merge ? { code: step.code, facts: { [merge]: [step.facts] } } : step);
  }
  return told.map((step) => {
    let telling = STEPS[step.code] || {};
    if (telling.teams && inTeams(view)) telling = telling.teams;
    return new Teller(view, table, step.facts || {}, counts).phrase(`explain.${step.code}`, telling);
  }).filter((line) => line);
}

/** A train named in the middle of a sentence ("your train", "Mireille’s train"). */
function trainName(view, table, place) {
  const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);
  if (place === "M") return lower(t("train.public"));
  const owner = Number(place);
  if (owner === view?.seat) return lower(t("train.mine"));
  const name = seatName(table, owner, view?.seat);
  const text = t("train.of", { name });
  return text.startsWith(name) ? text : lower(text);
}

/** A refused move in the player's words: from the engine's reason and facts, else from the
 * error's code. */
export function refusalText(view, table, error) {
  const key = `refuse.${error.reason}`;
  if (!error.reason || !has(key)) return errorText(error.code, error.message);
  const f = error.facts || {};
  const params = {
    tile: f.tile,
    forced: f.forced,
    drawn: f.drawn,
    left: f.ends?.[0],
    right: f.ends?.[1],
    shows: f.shows,
    end: f.end,
    side: f.end === "R" ? t("refuse.side.R") : t("refuse.side.L"),
    train: f.train === undefined ? "" : trainName(view, table, f.train),
    double_train: f.double_train === undefined ? "" : trainName(view, table, f.double_train),
    name: f.turn === undefined ? "" : seatName(table, f.turn, view?.seat),
  };
  return t(key, params);
}

// i18n.js — the page's words. One catalog per language under /static/i18n/ (the terminal
// reads the same files: kabes/words/catalogs), all with the same keys, and the one list of
// languages, /static/i18n/languages.json (which the server also writes in the page's head).
// t(key, params) returns the text with {name} placeholders filled; a missing key falls back to
// English, then to the key itself (and is reported in the console). setLang() loads a
// language, sets <html lang> and tells every listener (onLangChange).

/** The list of languages as the server wrote it in the page's head (server/pages.py: on 3G a
 * request fewer), else null. */
function written() {
  try {
    return JSON.parse(document.querySelector('meta[name="kabes-languages"]')?.content ?? "null");
  } catch {
    return null;
  }
}

/** Each language's name in itself, in the order the picker offers them (English alone when
 * the list cannot be had). */
export const LANG_NAMES = written() ?? await fetch("/static/i18n/languages.json")
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error("no languages.json"))))
  .catch(() => ({ en: "English" }));
/** The languages' codes, in the picker's order. */
export const LANGS = Object.keys(LANG_NAMES);

let current = "en";
let strings = {};
let fallback = {};
const listeners = new Set();
const cache = new Map();

async function load(lang) {
  if (!cache.has(lang)) {
    cache.set(
      lang,
      fetch(`/static/i18n/${lang}.json`).then((r) => {
        if (!r.ok) throw new Error(`no ${lang}.json`);
        return r.json();
      }),
    );
  }
  return cache.get(lang);
}

/** The best language for this browser: stored choice, then navigator.languages, then en. */
export function preferredLang(stored) {
  if (LANGS.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "nb" || base === "nn") return "no";
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

let asked = 0;

export async function setLang(lang) {
  // Two quick picks can load out of order: only the latest pick's words are put in place.
  const ask = ++asked;
  const [table, english] = await Promise.all([load(lang), load("en")]);
  if (ask !== asked) return;
  current = lang;
  strings = table;
  fallback = english;
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function lang() {
  return current;
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function t(key, params) {
  let text = strings[key];
  if (text === undefined) {
    text = fallback[key];
    if (text === undefined) {
      console.warn("missing translation", key);
      text = key;
    }
  }
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));
  return text;
}

/** Whether a key exists (for optional texts such as the name of an option). */
export function has(key) {
  return key in strings || key in fallback;
}

/** A tile's name as players say it: "six-three". */
export function tileName(tile) {
  const [a, b] = tile.split("-").map(Number);
  return t("tile.name", { a: t(`num.${a}`), b: t(`num.${b}`) });
}

/** A number of pips in words, for the memory aid and passes read aloud. */
export function numberName(n) {
  return t(`num.${n}`);
}

/** A server error code in words; unknown codes keep the server's English message. */
export function errorText(code, message) {
  const key = `error.${code}`;
  return has(key) ? t(key) : message || t("error.unknown");
}

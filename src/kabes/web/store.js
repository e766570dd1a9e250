// store.js — what the page keeps on this device (localStorage): the guest identity
// {player, name, token}, the chosen language, the last game settings of the home form, and
// the game whose lessons were looked at last, and whether the others' phrases are muted.
// Every read survives a missing or corrupt entry by returning null.

const PREFIX = "kabes.";

function read(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the page still works for this visit */
  }
}

export const store = {
  identity: () => read("identity"),
  setIdentity: (identity) => write("identity", identity),
  lang: () => read("lang"),
  setLang: (lang) => write("lang", lang),
  settings: () => read("settings"),
  setSettings: (settings) => write("settings", settings),
  learnVariant: () => read("learn"),
  setLearnVariant: (variant) => write("learn", variant),
  phrasesMuted: () => read("mute_phrases") === true,
  setPhrasesMuted: (muted) => write("mute_phrases", muted ? true : null),
};

// store.js — what the page keeps on this device (localStorage): the guest identity
// {player, name, token}, the chosen language, the last game settings of the home form,
// the game whose lessons were looked at last, whether the others' phrases are muted, and
// whether games against the computer run on this phone even online (offline.js).
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
  computerOnPhone: () => read("computer_on_phone") === true,
  setComputerOnPhone: (onPhone) => write("computer_on_phone", onPhone ? true : null),
};

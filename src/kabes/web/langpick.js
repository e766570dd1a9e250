// langpick.js — the language switch, available on every screen: a labelled <select> of the
// languages (the one list, /static/i18n/languages.json), each written in itself; changing it
// loads the language at once and keeps the choice on this device.

import { h } from "./dom.js";
import { LANGS, LANG_NAMES, lang, setLang, t } from "./i18n.js";
import { store } from "./store.js";

let serial = 0;

export function langPicker() {
  serial += 1;
  const id = `lang-${serial}`;
  const select = h("select", {
    id,
    onchange: async (e) => {
      store.setLang(e.target.value);
      await setLang(e.target.value);
    },
  }, LANGS.map((code) => h("option", { value: code, lang: code, selected: code === lang() }, LANG_NAMES[code])));
  return h("div", { class: "field lang-field" }, h("label", { for: id }, t("settings.language")), select);
}

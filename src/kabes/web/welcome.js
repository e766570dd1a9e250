// welcome.js — the first visit: choose a name and a language. The name becomes a guest
// player on the server (POST /api/guests); its token is kept on this device, so the next
// visit goes straight on. A player already playing on another phone types the code that phone
// shows (link.js) instead (data-action="link", POST /api/link), and this device keeps the new
// token as its player: the same name, the same matches. done() is called once the identity is
// stored.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { store } from "./store.js";
import { langPicker, logo } from "./topbar.js";

export function welcomePage(root, { joining, done }) {
  const input = h("input", { id: "name", name: "name", type: "text", autocomplete: "nickname", maxlength: 24, required: true, enterkeyhint: "go" });
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary big", "data-action": "save-name" }, t("welcome.go"));
  const form = h("form", {
    class: "card welcome",
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        error.textContent = t("error.bad_name");
        input.focus();
        return;
      }
      button.disabled = true;
      try {
        const guest = await api.newGuest(name);
        store.setIdentity({ player: guest.player, name: guest.name, token: guest.token });
        done();
      } catch (err) {
        error.textContent = errorText(err.code, err.message);
        button.disabled = false;
      }
    },
  },
  h("div", { class: "field" }, h("label", { for: "name" }, t("welcome.name")), input, h("p", { class: "hint-text" }, t("welcome.name_help"))),
  langPicker(),
  error,
  button);
  clear(root).append(h("main", { class: "page welcome-page" },
    h("div", { class: "hero" }, logo(), h("h1", {}, "Kabès"), h("p", { class: "tagline" }, joining ? t("welcome.joining") : t("welcome.tagline"))),
    form,
    linkForm(done)));
  input.focus();
}

/** The other way in: a code from a phone already playing. done() is called
 * once the identity is stored. */
function linkForm(done) {
  const error = h("p", { class: "error", role: "alert" });
  const input = h("input", { id: "link-code", name: "link-code", type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 12, pattern: "[0-9 ]*", enterkeyhint: "go",
    oninput: () => (error.textContent = "") });
  const button = h("button", { type: "submit", class: "primary", "data-action": "link" }, t("action.link"));
  const form = h("form", {
    id: "link-form",
    hidden: true,
    onsubmit: async (e) => {
      e.preventDefault();
      const code = input.value.replace(/[^0-9]/g, "");
      if (!code) {
        input.focus();
        return;
      }
      button.disabled = true;
      try {
        const who = await api.link(code);
        store.setIdentity({ player: who.player, name: who.name, token: who.token });
        done();
      } catch (err) {
        error.textContent = err.code === "not_found" ? t("link.bad_code") : errorText(err.code, err.message);
        button.disabled = false;
      }
    },
  },
    h("div", { class: "field" }, h("label", { for: "link-code" }, t("link.code_label")), input, h("p", { class: "hint-text" }, t("link.code_help"))),
    error,
    button);
  const toggle = h("button", { type: "button", class: "link-toggle", "data-action": "have-code", "aria-expanded": "false", "aria-controls": "link-form",
    onclick: () => {
      form.hidden = !form.hidden;
      toggle.setAttribute("aria-expanded", form.hidden ? "false" : "true");
      if (!form.hidden) input.focus();
    } }, t("link.have_code"));
  return h("section", { class: "card link-form" }, toggle, form);
}

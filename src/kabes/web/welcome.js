// welcome.js — the first visit: choose a name and a language. The name becomes a guest
// player on the server (POST /api/guests); its token is kept on this device, so the next
// visit goes straight on. A player already playing on another phone types that phone's code
// instead (link.js). done() is called once the identity is stored.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { linkForm } from "./link.js";
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

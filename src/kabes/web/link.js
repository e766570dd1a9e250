// link.js — one player on every phone (PROTOCOL.md, "One player on every phone"). On a phone
// already playing: "Use Kabès on another phone" (data-action="link-device") asks the server
// for a 6-digit code (POST /api/me/link) and shows it big, to read aloud, with the time it
// still works and a new one once it has run out. On the other phone, the welcome screen's
// linkForm() takes the code instead of a name (data-action="link", POST /api/link) and keeps
// the new token as this device's player: the same name, the same matches.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { store } from "./store.js";

function minutes(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The dialog showing a fresh code and its countdown. */
export function linkDialog() {
  const body = h("div", { class: "link-body" }, h("p", { class: "loading" }, t("loading")));
  let timer = null;
  const dialog = h("dialog", { class: "menu link-dialog", "aria-labelledby": "link-title" },
    h("h2", { id: "link-title" }, t("link.action")),
    body,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-action": "close", onclick: () => dialog.close() }, t("action.close"))));
  dialog.addEventListener("close", () => {
    clearInterval(timer);
    dialog.remove();
  });
  const show = async () => {
    clearInterval(timer);
    clear(body).append(h("p", { class: "loading" }, t("loading")));
    let answer;
    try {
      answer = await api.linkCode();
    } catch (e) {
      clear(body).append(h("p", { class: "error" }, errorText(e.code, e.message)));
      return;
    }
    const code = String(answer.code);
    const deadline = performance.now() + answer.expires_in * 1000;
    const left = h("p", { class: "link-left num", role: "timer" });
    clear(body).append(
      h("p", {}, t("link.explain")),
      h("p", { class: "big-code link-code num", "data-code": code, "aria-label": t("link.code_is", { code: code.split("").join(" ") }) }, code),
      left);
    const tick = () => {
      const s = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      if (s > 0) {
        left.textContent = t("link.expires", { time: minutes(s) });
        return;
      }
      clearInterval(timer);
      clear(body).append(h("p", {}, t("link.expired")),
        h("button", { type: "button", class: "primary", "data-action": "new-link-code", onclick: show }, t("link.new_code")));
    };
    tick();
    timer = setInterval(tick, 1000);
  };
  document.body.append(dialog);
  dialog.showModal();
  show();
  return dialog;
}

/** The welcome screen's other way in: a code from a phone already playing. done() is called
 * once the identity is stored. */
export function linkForm(done) {
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

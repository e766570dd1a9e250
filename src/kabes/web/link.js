// link.js — one player on every phone (PROTOCOL.md, "One player on every phone"). On a phone
// already playing: "Use Kabès on another phone" (data-action="link-device") asks the server
// for a 6-digit code (POST /api/me/link) and shows it big, to read aloud, with the time it
// still works and a new one once it has run out. On the other phone, the welcome screen
// (welcome.js) takes the code instead of a name.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, t } from "./i18n.js";

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

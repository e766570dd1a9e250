// offlinecard.js — home's "Play without a network" card (issue 26, UI.md "With no network"):
// online, the offer, with what it brings and the megabytes the browser will receive
// (GET /offline/manifest.json); one tap (data-action="offline-pack") downloads the pack with a
// progress bar (offline.js keeps it); then "Ready on this phone", where computer games are
// played (this phone even online, which saves data, or the server when there is a network,
// stronger on a slow phone), and "Remove" with the megabytes it frees. Where the server has no
// pack (404), or offline with none kept, there is no card at all. Loaded by home after its
// first paint.

import { append, clear, h } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import { checkPack, downloadPack, isDownloading, isOffline, pack, removePack, serverManifest, wireBytes } from "./offline.js";
import { store } from "./store.js";

/** Megabytes as the page's language writes them, one decimal ("5.6"). */
export function megabytes(bytes) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1e6);
}

/** The card, drawn into `card` (hidden until there is something to offer). */
export async function offlineCard(card) {
  card.hidden = true;
  await checkPack();
  if (pack.ready) return ready(card);
  if (isOffline()) return;
  let manifest;
  try {
    manifest = await serverManifest();
  } catch {
    return; // no answer: nothing to offer now
  }
  if (manifest && typeof caches !== "undefined") offer(card, manifest);
}

function title() {
  return h("h2", { id: "offline-title" }, t("offline.title"));
}

function frame(card, ...children) {
  append(clear(card), [title(), ...children]);
  card.hidden = false;
}

/** Not kept yet: what it brings, its size, the download with its progress. */
function offer(card, manifest, problem = null) {
  const total = wireBytes(manifest);
  const bar = h("progress", { max: 1, value: 0, "aria-labelledby": "offline-progress", hidden: true });
  const told = h("p", { id: "offline-progress", class: "hint-text num", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "primary big", "data-action": "offline-pack" }, t("offline.download", { mb: megabytes(total) }));
  const start = async () => {
    button.disabled = true;
    bar.hidden = false;
    card.setAttribute("aria-busy", "true");
    const show = (fraction) => {
      bar.value = fraction;
      told.textContent = t("offline.downloading", { done: megabytes(fraction * total), total: megabytes(total) });
    };
    try {
      await downloadPack(manifest, show);
      if (!pack.ready) throw new Error("not kept");
      ready(card);
    } catch (e) {
      offer(card, manifest, e.code === "network" ? t("offline.cut") : errorText(e.code, e.message));
    } finally {
      card.removeAttribute("aria-busy");
    }
  };
  button.addEventListener("click", start);
  frame(card,
    h("p", {}, t("offline.offer")),
    problem ? h("p", { class: "error" }, problem) : null,
    button, bar, told);
  if (isDownloading()) start(); // begun before home was left: shown going on
}

/** Kept: says so; where computer games are played; the removal. */
function ready(card) {
  const frees = pack.manifest?.bytes ?? 0;
  const where = h("fieldset", { class: "computer-where" }, h("legend", {}, t("offline.computer_games")),
    [["server", false], ["phone", true]].map(([id, onPhone]) => h("div", { class: "field check" },
      h("input", { type: "radio", name: "computer-where", id: `computer-${id}`, value: id, "data-action": `computer-on-${id}`, checked: store.computerOnPhone() === onPhone,
        onchange: () => store.setComputerOnPhone(onPhone) }),
      h("label", { for: `computer-${id}` }, t(`offline.on_${id}`)))));
  const remove = h("button", { type: "button", "data-action": "offline-remove" }, t("offline.remove", { mb: megabytes(frees) }));
  remove.addEventListener("click", async () => {
    remove.disabled = true;
    await removePack();
    await offlineCard(card);
  });
  frame(card,
    h("p", { class: "offline-ready" }, t("offline.ready")),
    h("p", { class: "hint-text" }, t("offline.ready_text")),
    where,
    h("div", { class: "actions" }, remove));
}

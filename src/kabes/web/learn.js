// learn.js — the Learn screen (/learn): every game's path of lessons (GET /api/lessons with the
// guest's token, so what is finished is the player's, on every device), one game at a time: the
// next lesson offered big, then the whole path with the finished lessons marked. The game shown
// is remembered on this device; a lesson opens at /learn/ID (lesson.js). With no network and
// the offline pack on the phone, the phone's own engine answers (offline.js's lessonApi).

import { clear, h } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import { variantName } from "./names.js";
import { lessonApi, offlineNote } from "./offline.js";
import { store } from "./store.js";
import { topBar } from "./topbar.js";

/** Which game's path to show first: the one looked at last, else the game last set up to
 * play, else the first with lessons. */
function chosenVariant(paths, byGame) {
  const taught = paths.filter((p) => p.lessons.length);
  const known = (id) => byGame.get(id)?.lessons.length > 0;
  const last = store.learnVariant();
  if (known(last)) return last;
  const played = store.settings()?.variant;
  if (known(played)) return played;
  return (taught[0] || paths[0])?.variant;
}

export async function learnPage(root, nav) {
  const body = h("div", { class: "learn-body" }, h("p", { class: "loading" }, t("loading")));
  clear(root).append(
    topBar(nav, { note: offlineNote() }),
    h("main", { class: "page learn", "aria-labelledby": "learn-title" },
      h("h1", { id: "learn-title" }, t("learn.title")),
      h("p", { class: "hint-text" }, t("learn.intro")),
      body));
  let data;
  try {
    data = await lessonApi.lessons(lang());
  } catch (e) {
    clear(body).append(h("p", { class: "error" }, errorText(e.code, e.message)));
    return;
  }
  const paths = data.paths || [];
  const byGame = new Map(paths.map((p) => [p.variant, p]));
  let variant = chosenVariant(paths, byGame);
  const pathEl = h("div", { class: "learn-path" });
  const select = h("select", {
    id: "learn-variant",
    onchange: (e) => {
      variant = e.target.value;
      store.setLearnVariant(variant);
      drawPath(pathEl, byGame.get(variant), nav);
    },
  }, paths.map((p) => h("option", { value: p.variant, selected: p === byGame.get(variant) },
    p.lessons.length ? variantName(p.variant, p.title) : t("learn.variant_soon", { game: variantName(p.variant, p.title) }))));
  clear(body).append(
    h("div", { class: "field" }, h("label", { for: "learn-variant" }, t("home.variant")), select),
    pathEl);
  drawPath(pathEl, byGame.get(variant), nav);
}

function open(nav, id) {
  return (e) => {
    e.preventDefault();
    nav.go(`/learn/${encodeURIComponent(id)}`);
  };
}

function drawPath(el, path, nav) {
  clear(el);
  if (!path) return;
  const game = variantName(path.variant, path.title);
  if (!path.lessons.length) {
    el.append(h("p", { class: "card hint-text" }, t("learn.none", { game })));
    return;
  }
  const done = path.lessons.filter((l) => l.done).length;
  const next = path.lessons.find((l) => l.id === path.next);
  if (next) {
    el.append(h("section", { class: "card next-lesson", "aria-labelledby": "next-title" },
      h("p", { class: "next-kicker" }, done ? t("learn.next") : t("learn.first")),
      h("h2", { id: "next-title" }, next.title),
      h("p", {}, next.summary),
      h("p", { class: "hint-text num" }, `${t("learn.lesson_n", { n: next.order })} · ${t("learn.steps", { n: next.steps })}`),
      h("a", { class: "button primary big", href: `/learn/${encodeURIComponent(next.id)}`, "data-action": "start-lesson", "data-lesson": next.id, onclick: open(nav, next.id) },
        done ? t("learn.continue") : t("learn.start"))));
  } else {
    el.append(h("section", { class: "card next-lesson all" },
      h("p", { class: "all-done" }, t("learn.all_done", { game }))));
  }
  el.append(h("section", { class: "card", "aria-labelledby": "path-title" },
    h("h2", { id: "path-title" }, game),
    h("p", { class: "hint-text num" }, t("learn.progress", { done, total: path.lessons.length })),
    h("ol", { class: "lesson-list" }, path.lessons.map((l) => h("li", {
      class: `lesson-item${l.done ? " done" : ""}${l.id === path.next ? " next" : ""}`,
      "data-lesson": l.id,
      "data-done": l.done ? "true" : "false",
    },
    h("span", { class: "lesson-mark num", "aria-hidden": "true" }, l.done ? "✓" : String(l.order)),
    h("a", { class: "lesson-link", href: `/learn/${encodeURIComponent(l.id)}`, onclick: open(nav, l.id) },
      h("span", { class: "lesson-name" }, l.title),
      h("span", { class: "lesson-summary" }, l.summary),
      h("span", { class: "lesson-state" }, l.done ? t("learn.done") : t("learn.steps", { n: l.steps }))))))));
}

// matchfields.js — the fields that set a match up, the same in the new-game form (home.js) and
// the create-a-tournament form (tournaments.js): the variant, the number of players, and the
// variant's options for that many players (GET /api/variants). Each form keeps its own state
// ({variant, players, options}), draws itself again when the variant or the players change,
// and names its fields' ids with its own prefix ("" on home, "tour-" for a tournament).

import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { variantName } from "./names.js";

function optionLabel(name) {
  return has(`option.${name}`) ? t(`option.${name}`) : name;
}

/** The variant's select; choosing another forgets the options chosen and calls redraw(). */
export function variantField(list, state, prefix, redraw) {
  const id = `${prefix}variant`;
  return h("div", { class: "field" },
    h("label", { for: id }, t("home.variant")),
    h("select", { id, onchange: (e) => { state.variant = e.target.value; state.options = {}; redraw(); } },
      list.map((v) => h("option", { value: v.id, selected: v.id === state.variant }, variantName(v.id, v.title)))));
}

/** The number of players: one button each where the variant seats several counts (a choice
 * calls redraw()), else the one count said. */
export function playersField(variant, state, prefix, redraw) {
  if (variant.seat_counts.length < 2) return h("p", { class: "fixed" }, t("home.players_fixed", { n: state.players }));
  return h("fieldset", { class: "field segmented" },
    h("legend", {}, t("home.players")),
    variant.seat_counts.map((n) => h("label", { class: "seg" },
      h("input", { type: "radio", name: `${prefix}players`, id: `${prefix}players-${n}`, value: n, checked: n === state.players, onchange: () => { state.players = n; redraw(); } }),
      h("span", {}, String(n)))));
}

/** A field for each option of spec (the variant's for the players chosen) but those named in
 * skip: a switch, a select of the values allowed, or the one value allowed said (null where
 * there is none); changed() after each choice. */
export function optionFields(spec, state, prefix, changed, skip = []) {
  return Object.entries(spec).filter(([name]) => !skip.includes(name)).map(([name, o]) => {
    const value = name in state.options ? state.options[name] : o.default;
    const id = `${prefix}opt-${name}`;
    if (o.choices === null) {
      return h("div", { class: "field check" },
        h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => { state.options[name] = e.target.checked; changed(); } }),
        h("label", { for: id }, optionLabel(name)));
    }
    if (o.choices.length > 1) {
      return h("div", { class: "field" },
        h("label", { for: id }, optionLabel(name)),
        h("select", { id, onchange: (e) => { state.options[name] = Number(e.target.value); changed(); } },
          o.choices.map((c) => h("option", { value: c, selected: c === value }, String(c)))));
    }
    return o.choices.length === 1 ? h("p", { class: "fixed" }, `${optionLabel(name)}: ${o.choices[0]}`) : null;
  });
}

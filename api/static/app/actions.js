// The actions offered at a table: exactly `legal`'s action types, each built from its
// `choices` (one button per choice, or one select per field among the choices when there are
// many) or, without choices, from its JSON Schema (schemaform.js). No rules live here: a
// rules change reaches the page through `legal` alone. `send(action)` posts the action.
import { el, add, isObj } from "../shared/dom.js";
import { field } from "./schemaform.js";
import { t, word as human } from "./i18n.js";

const FEW = 8; // up to this many choices of a type are buttons

// `name(key, value)` names a value for a person: a card id -> its name, a seat -> its player;
// `text(value)` is a card's rules text (shown on hover), or null.
export function drawActions(legal, name, send, text = () => null) {
  const box = el("div", "actions");
  for (const action of legal.actions || []) {
    const part = add(el("div", "action"), el("h4", null, human(action.type)));
    part.dataset.type = action.type;
    const choices = Array.isArray(action.choices) ? action.choices : null;
    if (choices && choices.length && choices.length <= FEW) {
      const row = el("div", "choices");
      for (const choice of choices) {
        const b = button(describe(choice, name) || human(action.type), () => send(choice));
        const texts = Object.values(choice).flat().map((v) => text(v)).filter(Boolean);
        if (texts.length) b.title = texts.join("\n");
        row.appendChild(b);
      }
      part.appendChild(row);
    } else if (choices && choices.length) {
      part.appendChild(cascade(action.type, choices, name, send));
    } else {
      const f = field(action.type, action.schema, (v) => name("", v));
      const sub = el("form", "schema-form");
      if (f.node) sub.appendChild(f.node);
      sub.appendChild(button(t("submit"), null, "submit"));
      sub.addEventListener("submit", (e) => {
        e.preventDefault();
        send({ ...f.read(), type: action.type });
      });
      part.appendChild(sub);
    }
    box.appendChild(part);
  }
  return box;
}

function button(text, onClick, type = "button") {
  const b = el("button", "act", text);
  b.type = type;
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

// A choice in words: its fields other than `type`, each value named.
export function describe(choice, name) {
  return Object.entries(choice)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${human(k)}: ${words(k, v, name)}`)
    .join(" · ");
}

function words(k, v, name) {
  if (Array.isArray(v)) return v.length ? v.map((x) => words(k, x, name)).join(", ") : "—";
  if (isObj(v)) return Object.entries(v).map(([a, b]) => `${human(a)} ${words(a, b, name)}`).join(", ");
  return name(k, v);
}

// Many choices of one type: one select per field, each offering only the values that some
// remaining choice has given the fields chosen before it, so every submission is a choice.
function cascade(type, choices, name, send) {
  const sub = el("form", "cascade");
  const keys = [...new Set(choices.flatMap((c) => Object.keys(c)))].filter((k) => k !== "type");
  const selects = [];
  const key = (v) => JSON.stringify(v);
  const matching = (upto) =>
    choices.filter((c) => selects.slice(0, upto).every((s, i) => key(c[keys[i]]) === s.value));
  function refill(from) {
    for (let i = from; i < keys.length; i += 1) {
      const s = selects[i];
      const before = s.value;
      const values = [...new Map(matching(i).map((c) => [key(c[keys[i]]), c[keys[i]]])).entries()];
      s.replaceChildren(...values.map(([k, v]) => {
        const o = el("option", null, words(keys[i], v, name));
        o.value = k;
        return o;
      }));
      if (values.some(([k]) => k === before)) s.value = before;
    }
  }
  keys.forEach((k, i) => {
    const s = el("select");
    s.id = `pick-${type}-${k}`;
    const label = el("label", "sf-label", human(k));
    label.htmlFor = s.id;
    s.addEventListener("change", () => refill(i + 1));
    selects.push(s);
    sub.appendChild(add(el("div", "sf-row"), label, s));
  });
  refill(0);
  sub.appendChild(button(t("submit"), null, "submit"));
  sub.addEventListener("submit", (e) => {
    e.preventDefault();
    const chosen = matching(keys.length)[0];
    if (chosen) send(chosen);
  });
  return sub;
}

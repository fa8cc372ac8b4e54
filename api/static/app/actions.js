// The actions offered at a table: exactly `legal`'s action types, each built from its
// `choices` (one button per choice, or one select per field among the choices when there are
// many) or, without choices, from its JSON Schema (schemaform.js). No rules live here: a
// rules change reaches the page through `legal` alone. `send(action)` posts the action.
import { el, add, isObj } from "../shared/dom.js";
import { field } from "./schemaform.js";
import { t, word as human } from "./i18n.js";
import { dealForm } from "./trade.js";
import { goodsWords } from "./board.js";
import { valueWord } from "./log.js";

const FEW = 8; // up to this many choices of a type are buttons
const SEAT_FIELDS = new Set(["seat", "to", "from", "partner"]); // fields whose number is a seat
const DEALS = new Set(["propose", "offer"]); // Black Market's deals: goods both ways

// An action type as the move box names it ("answer" -> "Answer the deal" / "Responder al
// trato"): its act_<type> words, else the type in words.
export function actionName(type) {
  const key = `act_${type}`;
  const said = t(key);
  return said === key ? human(type) : said;
}

// `name(key, value)` names a value for a person: a card id -> its name, a seat -> its player;
// `text(value)` is a card's rules text (shown on hover), or null. `table` ({game, seatName,
// typed}) names seats in fields that hold one and draws Black Market's deals (trade.js).
export function drawActions(legal, name, send, text = () => null, table = null) {
  const box = el("div", "actions");
  const seatName = table ? table.seatName : (n) => name("seat", n);
  const offers = table && table.game.view && table.game.view.trade ? table.game.view.trade.offers || [] : [];
  const named = (k, v) => {
    if (SEAT_FIELDS.has(k) && Number.isInteger(v)) return seatName(v);
    const o = k === "offer" ? offers.find((x) => x.id === v) : null; // a wild offer, in words
    if (o) return t("offerLine", { from: seatName(o.from), to: seatName(o.to), give: goodsWords(o.give), take: goodsWords(o.take) });
    if (typeof v === "string" && valueWord(k, v)) return valueWord(k, v); // "open" -> "open bidding"
    return name(k, v);
  };
  for (const action of legal.actions || []) {
    const part = add(el("div", "action"), el("h3", null, actionName(action.type)));
    part.dataset.type = action.type;
    const choices = Array.isArray(action.choices) ? action.choices : null;
    if (table && DEALS.has(action.type) && (!choices || choices.length > FEW)) {
      part.appendChild(dealForm(action, table, send));
    } else if (choices && choices.length && choices.length <= FEW) {
      const row = el("div", "choices");
      for (const choice of choices) {
        // ending one's trading for the round cannot be taken back: asked first
        const go = action.type === "done" ? () => window.confirm(t("doneSure")) && send(choice) : () => send(choice);
        const b = button(describe(choice, named) || actionName(action.type), go);
        const texts = Object.values(choice).flat().map((v) => text(v)).filter(Boolean);
        if (texts.length) b.title = texts.join("\n");
        row.appendChild(b);
      }
      part.appendChild(row);
    } else if (choices && choices.length) {
      part.appendChild(cascade(action.type, choices, named, send));
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
  const fields = Object.entries(choice).filter(([k]) => k !== "type");
  if (fields.length === 1 && fields[0][0] === "accept") return t(fields[0][1] ? "acceptIt" : "refuseIt");
  // one field: the action and its value ("Bid 3", "Take one: The Penitent")
  if (fields.length === 1) return `${actionName(choice.type)}: ${words(fields[0][0], fields[0][1], name)}`;
  return fields.map(([k, v]) => `${human(k)}: ${words(k, v, name)}`).join(" · ");
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
    const label = el("label", "sf-label", keys.length === 1 ? actionName(type) : human(k));
    label.htmlFor = s.id;
    s.addEventListener("change", () => refill(i + 1));
    selects.push(s);
    sub.appendChild(add(el("div", "sf-row"), label, s));
  });
  refill(0);
  sub.appendChild(button(keys.length === 1 ? actionName(type) : t("submit"), null, "submit"));
  sub.addEventListener("submit", (e) => {
    e.preventDefault();
    const chosen = matching(keys.length)[0];
    if (chosen) send(chosen);
  });
  return sub;
}

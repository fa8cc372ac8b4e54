// Black Market's deal form: the partner chosen by name (a wild offer), then per colour how
// many goods you give, beside what you hold, and how many you take, beside what they hold.
// What was typed is kept in `typed` (the table's memory of the move box) so that a refusal or
// another seat's move never wipes it.
import { el, add, isObj } from "../shared/dom.js";
import { t, goodsOf } from "./i18n.js";
import { countInput } from "./schemaform.js";

function held(game, seat) {
  const p = ((game.view || {}).players || []).find((x) => x.seat === seat);
  return p && isObj(p.storage) ? p.storage : {};
}

function colours(schema, side) {
  const items = schema && schema.properties && schema.properties[side] && schema.properties[side].items;
  return items && Array.isArray(items.enum) ? items.enum : [];
}

export function dealForm(action, { game, seatName, typed }, send) {
  const schema = action.schema || {};
  const props = schema.properties || {};
  const form = el("form", "deal-form");
  const id = (k) => `deal-${action.type}-${k}`;
  const keep = (input) => {
    if (typed.has(input.id)) input.value = typed.get(input.id);
    input.addEventListener("input", () => typed.set(input.id, input.value));
    input.addEventListener("change", () => typed.set(input.id, input.value));
  };
  let partner = null;
  if (props.to && Array.isArray(props.to.enum)) {
    partner = el("select");
    partner.id = id("to");
    for (const seat of props.to.enum) {
      const o = el("option", null, seatName(seat));
      o.value = String(seat);
      partner.appendChild(o);
    }
    keep(partner);
    const label = el("label", "sf-label", t("dealPartner"));
    label.htmlFor = partner.id;
    form.appendChild(add(el("div", "sf-row"), label, partner));
  }
  const mine = held(game, game.you);
  const theirs = () => {
    if (partner) return held(game, Number(partner.value));
    const all = ((game.view || {}).players || []).filter((p) => p.seat !== game.you);
    const most = {};
    for (const p of all) for (const [c, n] of Object.entries(p.storage || {})) most[c] = Math.max(most[c] || 0, n);
    return most;
  };
  const table = el("table", "deal-table");
  const head = add(el("tr"), ...[t("dealColour"), t("dealGive"), t("dealYouHold"), t("dealTake"), partner ? t("dealTheyHold") : t("dealOthersHold")]
    .map((w) => Object.assign(el("th", null, w), { scope: "col" })));
  const body = el("tbody");
  const rows = [];
  const all = [...new Set([...colours(schema, "give"), ...colours(schema, "take"), ...Object.keys(mine)])];
  for (const c of all) {
    const cell = (side, max) => {
      const input = countInput(max);
      input.id = id(`${side}-${c}`);
      input.setAttribute("aria-label", `${side === "give" ? t("dealGive") : t("dealTake")}: ${t(`good_${c}`)}`);
      input.disabled = !colours(schema, side).includes(c);
      keep(input);
      return input;
    };
    const give = cell("give", mine[c] || 0);
    const take = cell("take", 99);
    const they = el("td", "held");
    const name = add(el("th", "mk-colour"), el("i", `cube cube-${c}`), el("span", null, t(`good_${c}`)));
    name.scope = "row";
    body.appendChild(add(el("tr"), name, add(el("td"), give), el("td", "held", mine[c] || 0), add(el("td"), take), they));
    rows.push({ c, give, take, they });
  }
  const summary = el("p", "deal-summary");
  summary.setAttribute("aria-live", "polite");
  const count = (input) => Math.max(0, Number(input.value) || 0);
  const refresh = () => {
    const other = theirs();
    for (const r of rows) r.they.textContent = String(other[r.c] || 0);
    const give = rows.filter((r) => count(r.give)).map((r) => goodsOf(r.c, count(r.give)));
    const take = rows.filter((r) => count(r.take)).map((r) => goodsOf(r.c, count(r.take)));
    summary.textContent = t(partner ? "dealSummaryTo" : "dealSummary", {
      name: partner ? seatName(Number(partner.value)) : "",
      give: give.join(", ") || t("nothing"),
      take: take.join(", ") || t("nothing"),
    });
  };
  form.addEventListener("input", refresh);
  if (partner) partner.addEventListener("change", refresh);
  add(form, add(el("div", "deal-wrap"), add(table, add(el("thead"), head), body)), summary);
  const submit = el("button", "act primary", action.type === "offer" ? t("dealSendOffer") : t("dealPropose"));
  submit.type = "submit";
  form.appendChild(submit);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const goods = (side) => rows.flatMap((r) => Array(count(r[side])).fill(r.c));
    const action_ = { type: action.type, give: goods("give"), take: goods("take") };
    if (partner) action_.to = Number(partner.value);
    send(action_);
  });
  refresh();
  return form;
}

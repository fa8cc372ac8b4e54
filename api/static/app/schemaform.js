// Controls built from a JSON Schema (a ruleset's options, an action that `legal` gives as a
// schema without choices): enum -> select, boolean -> checkbox, integer -> number field,
// array of an enum -> one select per item, object -> its properties. `form(schema, label)`
// returns {node, read()}; read() gives the value to send. Nothing here knows a game's rules.
import { el, add, isObj } from "../shared/dom.js";
import { word as human } from "./i18n.js";

let counter = 0;
const uid = (name) => `sf-${name.replace(/[^A-Za-z0-9_-]/g, "")}-${(counter += 1)}`;

function labelled(name, control, describe) {
  const id = uid(name);
  control.id = id;
  const label = el("label", "sf-label", /[ _]/.test(name) || /^[a-z]/.test(name) ? human(name) : name);
  label.htmlFor = id;
  const row = add(el("div", "sf-row"), label, control);
  if (describe) {
    const help = el("small", "sf-help", describe);
    help.id = `${id}-help`;
    control.setAttribute("aria-describedby", help.id);
    row.appendChild(help);
  }
  return row;
}

function select(values, current, show) {
  const box = el("select");
  for (const v of values) {
    const o = el("option", null, show ? show(v) : v === null ? "—" : String(v));
    o.value = JSON.stringify(v);
    if (JSON.stringify(v) === JSON.stringify(current)) o.selected = true;
    box.appendChild(o);
  }
  return box;
}

function types(schema) {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

// One control for one schema; `show(value, field)` names values (a card id -> its name).
export function field(name, schema, show) {
  schema = schema || {};
  const def = schema.default;
  if ("const" in schema) return { node: null, read: () => schema.const };
  if (Array.isArray(schema.enum)) {
    const box = select(schema.enum, def, show && ((v) => show(v, name)));
    return { node: labelled(name, box, schema.description), read: () => JSON.parse(box.value) };
  }
  const branches = schema.oneOf || schema.anyOf;
  if (Array.isArray(branches) && branches.every((b) => "const" in b || Array.isArray(b.enum) || b.type === "object")) {
    const values = branches.flatMap((b) => ("const" in b ? [b.const] : Array.isArray(b.enum) ? b.enum : []));
    if (values.length && branches.every((b) => "const" in b || Array.isArray(b.enum))) {
      const box = select(values, def, show && ((v) => show(v, name)));
      return { node: labelled(name, box, schema.description), read: () => JSON.parse(box.value) };
    }
    if (branches.every((b) => b.type === "object" && isObj(b.properties))) return objectBranches(name, branches, show);
    if (values.length) {
      const box = select(values, def, show && ((v) => show(v, name))); // only the named choices (e.g. "default" deck)
      return { node: labelled(name, box, schema.description), read: () => JSON.parse(box.value) };
    }
  }
  const kinds = types(schema);
  if (kinds.includes("boolean")) {
    const box = el("input");
    box.type = "checkbox";
    box.checked = def === true;
    return { node: labelled(name, box, schema.description), read: () => box.checked };
  }
  if (kinds.includes("integer") || kinds.includes("number")) {
    const box = el("input");
    box.type = "number";
    box.inputMode = "numeric";
    if (schema.minimum !== undefined) box.min = String(schema.minimum);
    if (schema.maximum !== undefined) box.max = String(schema.maximum);
    box.step = kinds.includes("integer") ? "1" : "any";
    const nullable = kinds.includes("null");
    const start = def ?? (nullable ? null : schema.minimum ?? 0);
    box.value = start === null ? "" : String(start);
    const read = () => (box.value === "" && nullable ? null : Number(box.value));
    return { node: labelled(name, box, schema.description), read };
  }
  if (kinds.includes("array") && isObj(schema.items)) return arrayField(name, schema, show);
  if (kinds.includes("object") || isObj(schema.properties)) return objectField(name, schema, show);
  const box = el("input");
  box.type = "text";
  box.value = def === undefined ? "" : String(def);
  return { node: labelled(name, box, schema.description), read: () => box.value };
}

// A list of values from an enum (goods to give, say) is a count per value, the list is
// each value repeated its count times.
function countsField(name, schema, show) {
  const box = add(el("fieldset", "sf-counts"), el("legend", null, human(name)));
  const most = schema.maxItems ?? 99;
  const reads = schema.items.enum.map((v) => {
    const input = countInput(most);
    const row = labelled(show ? show(v) : String(v), input);
    row.classList.add("sf-count");
    box.appendChild(row);
    return () => Array(Math.max(0, Math.min(most, Number(input.value) || 0))).fill(v);
  });
  return { node: box, read: () => reads.flatMap((r) => r()) };
}

// A field for a count from 0 to `most`, starting at 0 (shared with Black Market's deal form).
export function countInput(most) {
  const input = el("input");
  input.type = "number";
  input.min = "0";
  input.max = String(most);
  input.value = "0";
  input.inputMode = "numeric";
  return input;
}

function arrayField(name, schema, show) {
  if (Array.isArray(schema.items.enum) && !schema.uniqueItems) return countsField(name, schema, show);
  const most = Math.min(schema.maxItems ?? 6, 12);
  const box = add(el("fieldset", "sf-array"), el("legend", null, human(name)));
  const parts = [];
  for (let i = 0; i < most; i += 1) {
    const item = schema.items;
    if (Array.isArray(item.enum)) {
      const s = select([null, ...item.enum], null, (v) => (v === null ? "—" : show ? show(v) : String(v)));
      box.appendChild(labelled(`${human(name)} ${i + 1}`, s));
      parts.push(() => JSON.parse(s.value));
    } else {
      const f = field(`${name} ${i + 1}`, item, show);
      if (f.node) box.appendChild(f.node);
      parts.push(f.read);
    }
  }
  return { node: box, read: () => parts.map((r) => r()).filter((v) => v !== null && v !== "") };
}

function objectField(name, schema, show) {
  const box = el("div", "sf-object");
  const reads = [];
  for (const [k, s] of Object.entries(schema.properties || {})) {
    const f = field(k, s, show);
    if (f.node) box.appendChild(f.node);
    reads.push([k, f.read]);
  }
  return { node: box, read: () => Object.fromEntries(reads.map(([k, r]) => [k, r()])) };
}

// An action schema given as one of several object shapes: pick the shape, then its fields.
function objectBranches(name, branches, show) {
  const box = el("div", "sf-branches");
  const forms = branches.map((b) => objectField(name, b, show));
  const label = (b, i) => {
    const fixed = Object.entries(b.properties).filter(([k, s]) => k !== "type" && Array.isArray(s.enum) && s.enum.length === 1);
    return fixed.length ? fixed.map(([k, s]) => `${human(k)}: ${s.enum[0]}`).join(", ") : `${i + 1}`;
  };
  const pick = select(branches.map((_, i) => i), 0, (i) => label(branches[i], i));
  box.appendChild(labelled(`${name} kind`, pick));
  forms.forEach((f, i) => {
    f.node.hidden = i !== 0;
    box.appendChild(f.node);
  });
  pick.addEventListener("change", () => forms.forEach((f, i) => (f.node.hidden = i !== Number(JSON.parse(pick.value)))));
  return { node: box, read: () => forms[Number(JSON.parse(pick.value))].read() };
}

export function form(schema, show) {
  return field("value", schema, show);
}

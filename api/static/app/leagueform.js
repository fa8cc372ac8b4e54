// The form that creates a league (and edits the settings not yet in effect), drawn from the
// API's own schema: `LeagueCreate` in the published spec (/docs/openapi.json). Each of its
// properties gets a control from the schema's type, bounds and default; a few get one a
// person can fill in: the ruleset (a select of GET /rulesets), its options (the ruleset's
// options schema, schemaform.js), players per table (at least / at most, within the
// ruleset's player counts), the first round's start (a date and time in the organizer's
// time zone, sent with its offset), durations in seconds (a number and a unit) and points
// by place (a list of numbers). A property the spec adds later is drawn by schemaform.js.
import { el, add } from "../shared/dom.js";
import { t } from "./i18n.js";
import { field } from "./schemaform.js";
import { get, post, patch } from "./api.js";

const UNITS = [["unit_seconds", 1], ["unit_minutes", 60], ["unit_hours", 3600], ["unit_days", 86400]];
let spec = null;

// The schema the API checks a new league against (read once per page load).
export async function leagueSchema() {
  if (!spec) {
    const res = await fetch("/docs/openapi.json", { credentials: "omit" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    spec = (await res.json()).components.schemas;
  }
  return spec;
}

let counter = 0;
function row(label, control, help, shown = control) {
  control.id = control.id || `lf-${(counter += 1)}`;
  const l = el("label", "sf-label", label);
  l.htmlFor = control.id;
  const r = add(el("div", "sf-row"), l, shown);
  if (help) {
    const h = el("small", "sf-help", help);
    h.id = `${control.id}-help`;
    control.setAttribute("aria-describedby", h.id);
    r.appendChild(h);
  }
  return r;
}

function number(schema, value) {
  const box = el("input");
  box.type = "number";
  box.inputMode = "numeric";
  if (schema.minimum !== undefined) box.min = String(schema.minimum);
  if (schema.maximum !== undefined) box.max = String(schema.maximum);
  box.step = "1";
  box.value = value === undefined || value === null ? "" : String(value);
  return box;
}

// A label and a help text in the page's language; the spec's own words otherwise.
const label = (k) => t(`lf_${k}`) === `lf_${k}` ? k : t(`lf_${k}`);
const help = (k, schema) => (t(`lfh_${k}`) === `lfh_${k}` ? schema.description || "" : t(`lfh_${k}`));

// A duration in seconds as a number and a unit (the largest unit that divides it).
function duration(name, schema, seconds) {
  const amount = el("input");
  amount.type = "number";
  amount.min = "1";
  amount.inputMode = "numeric";
  const unit = el("select");
  unit.setAttribute("aria-label", `${label(name)}: ${t("unit")}`);
  const [u, n] = [...UNITS].reverse().find(([, s]) => seconds % s === 0) || ["unit_minutes", 60];
  for (const [key, s] of UNITS) {
    const o = el("option", null, t(key));
    o.value = String(s);
    o.selected = key === u;
    unit.appendChild(o);
  }
  amount.value = String(Math.max(1, Math.round(seconds / n)));
  amount.id = `lf-${name}`;
  const r = row(label(name), amount, help(name, schema), add(el("span", "lf-duration inline"), amount, unit));
  return { node: r, read: () => Number(amount.value) * Number(unit.value) };
}

// <input type=datetime-local> shows and reads the organizer's local time.
function localValue(date) {
  const p = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}

function startAt(name, schema, iso) {
  const box = el("input");
  box.id = `lf-${name}`;
  box.type = "datetime-local";
  box.required = true;
  let when = iso ? new Date(iso) : new Date(Date.now() + 86400000);
  if (!iso) when.setHours(18, 0, 0, 0); // tomorrow at 18:00
  box.value = localValue(when);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const r = row(label(name), box, t("inZone", { zone }));
  return { node: r, read: () => (box.value ? new Date(box.value).toISOString() : "") };
}

export async function leagueForm(rulesets, initial = {}, { edit = false } = {}) {
  const schemas = await leagueSchema();
  const schema = schemas.LeagueCreate;
  const form = el("form", "create-form league-form");
  const reads = [];
  const byName = Object.fromEntries(rulesets.map((r) => [r.id, r]));
  const pick = el("select");
  pick.id = "lf-ruleset";
  for (const r of rulesets) {
    const o = el("option", null, r.name);
    o.value = r.id;
    o.selected = r.id === initial.ruleset;
    pick.appendChild(o);
  }
  pick.disabled = edit; // the edit page keeps the league's game
  const options = el("fieldset", "sf-array lf-options");
  const least = number({ minimum: 1 }, null);
  least.id = "lf-table-min";
  const most = number({ minimum: 1 }, null);
  most.id = "lf-table-max";
  let readOptions = () => ({});
  function ruleset(keep) {
    const r = byName[pick.value];
    for (const box of [least, most]) {
      box.min = String(r.min_players);
      box.max = String(r.max_players);
    }
    const size = keep && initial.table_size;
    least.value = String(size ? size.min : Math.min(Math.max(3, r.min_players), r.max_players));
    most.value = String(size ? size.max : Math.min(Math.max(4, r.min_players), r.max_players));
    const optionSchema = { ...r.options };
    if (keep && initial.options) {
      optionSchema.properties = Object.fromEntries(Object.entries(r.options.properties || {})
        .map(([k, s]) => [k, k in initial.options ? { ...s, default: initial.options[k] } : s]));
    }
    const f = field("options", optionSchema);
    options.replaceChildren(el("legend", null, t("gameOptions")), ...(f.node ? [f.node] : []));
    options.hidden = !f.node || !f.node.childElementCount;
    readOptions = f.read;
  }
  pick.addEventListener("change", () => ruleset(false));
  ruleset(true);

  for (const [k, s] of Object.entries(schema.properties)) {
    const value = initial[k] ?? s.default;
    if (k === "ruleset") {
      form.appendChild(row(label(k), pick));
      reads.push([k, () => pick.value]);
    } else if (k === "options") {
      form.appendChild(options);
      reads.push([k, () => readOptions()]);
    } else if (k === "table_size") {
      const sizes = add(el("fieldset", "sf-array lf-sizes"), el("legend", null, label(k)),
        row(t("atLeast"), least), row(t("atMost"), most));
      form.appendChild(sizes);
      reads.push([k, () => (least.value === most.value ? Number(least.value) : { min: Number(least.value), max: Number(most.value) })]);
    } else if (s.format === "date-time") {
      const f = startAt(k, s, value);
      form.appendChild(f.node);
      reads.push([k, f.read]);
    } else if (/_s$/.test(k) && (s.type === "integer")) {
      const f = duration(k, s, value ?? (k === "cadence_s" ? 7 * 86400 : 86400));
      form.appendChild(f.node);
      reads.push([k, f.read]);
    } else if (s.type === "array" && s.items && s.items.type === "number") {
      const box = el("input");
      box.id = `lf-${k}`;
      box.inputMode = "decimal";
      box.value = Array.isArray(value) ? value.join(", ") : "";
      box.placeholder = "3, 2, 1, 0, 0, 0";
      form.appendChild(row(label(k), box, help(k, s)));
      reads.push([k, () => (box.value.trim() ? box.value.split(/[,;\s]+/).filter(Boolean).map(Number) : undefined)]);
    } else if (s.type === "string" && !s.enum) {
      const box = el("input");
      box.id = `lf-${k}`;
      if (s.maxLength) box.maxLength = s.maxLength;
      box.value = value ?? "";
      if (k === "name") box.required = true;
      form.appendChild(row(label(k), box, help(k, s) || null));
      reads.push([k, () => box.value.trim()]);
    } else {
      const f = field(label(k), { ...s, default: value, description: help(k, s) });
      if (f.node) {
        const control = f.node.querySelector("input, select");
        if (control) control.dataset.key = k;
        form.appendChild(f.node);
      }
      reads.push([k, f.read]);
    }
  }
  const read = () => Object.fromEntries(reads.map(([k, r]) => [k, r()]).filter(([, v]) => v !== undefined));
  return { form, read };
}

// The page `#/leagues/new`: the form, then the new league's page.
export async function drawNewLeague(root, app) {
  const rulesets = (await get("/rulesets")).rulesets;
  const { form, read } = await leagueForm(rulesets);
  const box = add(el("section", "box new-league"), el("h1", null, t("newLeague")), el("p", "muted", t("newLeagueHelp")));
  box.id = "new-league";
  const back = el("a", "back", t("back"));
  back.href = "#/";
  const go = el("button", "primary", t("createLeague"));
  go.type = "submit";
  form.appendChild(go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      const league = await post("/leagues", read());
      location.hash = `#/l/${encodeURIComponent(league.id)}`;
    } catch (err) {
      app.fail(err);
      go.disabled = false;
    }
  });
  root.replaceChildren(add(el("div", "league-new"), back, add(box, form)));
  return null;
}

// What this server's API can do beyond creating a league, read from its published spec:
// {update, substitute, reinstate, organizers, tablePause} (each true or false).
export async function leagueFeatures() {
  const res = await fetch("/docs/openapi.json", { credentials: "omit" });
  const paths = res.ok ? (await res.json()).paths : {};
  const at = (p) => paths[`/v1/leagues/{league_id}${p}`] || null;
  return {
    update: !!(at("") && at("").patch),
    substitute: !!at("/substitutions"),
    reinstate: !!at("/members/{player_id}/reinstate"),
    organizers: !!at("/organizers"),
    tablePause: !!at("/rounds/{n}/tables/{table}/pause"),
  };
}

// The page `#/l/<id>/edit`: the league's settings in the same form (its game stays); only
// what the organizer changed is sent (PATCH), and a setting already in effect is refused
// by name.
export async function drawEditLeague(root, leagueId, app) {
  const path = `/leagues/${encodeURIComponent(leagueId)}`;
  const [rulesets, league] = await Promise.all([get("/rulesets"), get(path)]);
  const { form, read } = await leagueForm(rulesets.rulesets, league, { edit: true });
  const before = read(); // as drawn: only what the organizer changes is sent
  const box = add(el("section", "box new-league"), el("h1", null, t("editLeague", { name: league.name || league.id })),
    el("p", "muted", t("editLeagueHelp")));
  box.id = "edit-league";
  const back = el("a", "back", t("backToLeague"));
  back.href = `#/l/${encodeURIComponent(leagueId)}`;
  const go = el("button", "primary", t("saveSettings"));
  go.type = "submit";
  form.appendChild(go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const changed = Object.fromEntries(Object.entries(read()).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
    if (!Object.keys(changed).length) return void (location.hash = back.hash);
    go.disabled = true;
    try {
      await patch(path, changed);
      location.hash = back.hash;
    } catch (err) {
      app.fail(err);
      go.disabled = false;
    }
  });
  root.replaceChildren(add(el("div", "league-new"), back, add(box, form)));
  return null;
}

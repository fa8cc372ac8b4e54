// The home page's two ways to a new table: one click against the computer, and the form
// that creates a game of any ruleset with its options (drawn from its options schema).
import { add, el } from "../shared/dom.js";
import { post } from "./api.js";
import { joinCommitted, keep, newSecret } from "./seatseed.js";
import { t } from "./i18n.js";
import { field } from "./schemaform.js";
import { levelPick } from "./seats.js";
import { helped, rulesLink } from "./optionhelp.js";
import { optionValue, section } from "./homelists.js";

const TIMEOUTS = [null, 30, 60, 120, 300, 900, 3600, 86400];

// One click to a table with the player and computer players: a game, its seats, a level
// (each chosen already), and Play. The game starts at once; a decision waits 5 minutes.
export function againstComputer(rulesets, app) {
  const box = section(t("playComputer"), "vs-computer");
  const formBox = el("form", "create-form vs-computer-form");
  const pick = el("select");
  pick.id = "vs-ruleset";
  for (const r of rulesets) {
    const o = el("option", null, r.name);
    o.value = r.id;
    pick.appendChild(o);
  }
  const count = el("select");
  count.id = "vs-players";
  function seats() {
    const r = rulesets.find((x) => x.id === pick.value);
    const options = [];
    for (let n = r.min_players; n <= r.max_players; n++) {
      const o = el("option", null, String(n));
      o.value = String(n);
      options.push(o);
    }
    count.replaceChildren(...options);
  }
  pick.addEventListener("change", seats);
  seats();
  const { pick: level, label: levelLabel, hint: levelHint } = levelPick("vs-level");
  const row = (text, control) => {
    const label = el("label", "sf-label", text);
    label.htmlFor = control.id;
    return add(el("div", "sf-row"), label, control);
  };
  const go = el("button", "primary", t("play"));
  go.type = "submit";
  go.id = "vs-play";
  add(formBox, el("p", "muted", t("playComputerHelp")), row(t("ruleset"), pick), row(t("players"), count),
    add(el("div", "sf-row"), levelLabel, level, levelHint), go);
  formBox.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      const made = await newSecret(); // this seat's randomness (seatseed.js)
      const game = await post("/games", {
        ruleset: pick.value,
        players: Number(count.value),
        join: true,
        decision_timeout_s: 300,
        computer: { level: level.value },
        ...(made ? { seat_commitment: made.commitment } : {}),
      });
      keep(game.id, made);
      location.hash = `#/g/${encodeURIComponent(game.id)}`;
    } catch (err) {
      go.disabled = false;
      app.fail(err);
    }
  });
  return add(box, formBox);
}

export function createForm(rulesets, app) {
  const box = section(t("newGame"), "create");
  const formBox = el("form", "create-form");
  const pick = el("select");
  for (const r of rulesets) {
    const o = el("option", null, r.name);
    o.value = r.id;
    pick.appendChild(o);
  }
  const row = (text, control) => {
    control.id = control.id || `create-${text.replace(/\W/g, "")}`;
    const label = el("label", "sf-label", text);
    label.htmlFor = control.id;
    return add(el("div", "sf-row"), label, control);
  };
  pick.id = "create-ruleset";
  const count = el("input");
  count.id = "create-players";
  count.type = "number";
  const timeout = el("select");
  timeout.id = "create-timeout";
  for (const s of TIMEOUTS) {
    const o = el("option", null, s === null ? t("noLimit") : s < 60 ? t("seconds", { n: s }) : t("minutes", { n: s / 60 }));
    o.value = s === null ? "" : String(s);
    if (s === 300) o.selected = true;
    timeout.appendChild(o);
  }
  const sit = el("input");
  sit.type = "checkbox";
  sit.checked = true;
  sit.id = "create-sit";
  const invite = el("input");
  invite.id = "create-invite";
  invite.autocomplete = "off";
  const unlisted = el("input");
  unlisted.type = "checkbox";
  unlisted.id = "create-unlisted";
  const fill = el("input");
  fill.type = "checkbox";
  fill.id = "create-computer";
  const { pick: fillLevel, label: fillLevelLabel, hint: fillHint } = levelPick("create-computer-level");
  const options = el("div", "options");
  let read = () => ({});
  function ruleset() {
    const r = rulesets.find((x) => x.id === pick.value);
    count.min = String(r.min_players);
    count.max = String(r.max_players);
    count.value = String(Math.min(Math.max(Number(count.value) || r.min_players, r.min_players), r.max_players));
    const f = field("options", helped(r), optionValue);
    options.replaceChildren(rulesLink(r.id), ...(f.node ? [f.node] : []));
    read = f.read;
  }
  pick.addEventListener("change", ruleset);
  ruleset();
  const go = el("button", "primary", t("create"));
  go.type = "submit";
  add(formBox, row(t("ruleset"), pick), row(t("players"), count), options, row(t("timeout"), timeout));
  const sitRow = add(el("div", "sf-row check"), sit);
  const sitLabel = el("label", null, t("sitDown"));
  sitLabel.htmlFor = sit.id;
  sitRow.appendChild(sitLabel);
  const privateRow = add(el("div", "sf-row check"), unlisted);
  const privateLabel = el("label", null, t("unlisted"));
  privateLabel.htmlFor = unlisted.id;
  privateRow.appendChild(privateLabel);
  const fillRow = add(el("div", "sf-row check"), fill);
  const fillLabel = el("label", null, t("fillComputer"));
  fillLabel.htmlFor = fill.id;
  fillRow.appendChild(fillLabel);
  const levelRow = add(el("div", "sf-row"), fillLevelLabel, fillLevel, fillHint);
  levelRow.hidden = true;
  fill.addEventListener("change", () => (levelRow.hidden = !fill.checked));
  add(formBox, row(t("inviteNames"), invite), privateRow, sitRow, fillRow, levelRow, go);
  formBox.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      ruleset: pick.value,
      players: Number(count.value),
      options: read(),
      decision_timeout_s: timeout.value === "" ? null : Number(timeout.value),
    };
    const named = invite.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (named.length) body.invite = named; // their seats are held for them
    if (unlisted.checked) body.unlisted = true;
    if (fill.checked) body.computer = { level: fillLevel.value }; // every seat left free
    const held = named.length || unlisted.checked || fill.checked; // seated by the creation itself
    const made = held && sit.checked ? await newSecret() : null; // this seat's randomness
    if (held && sit.checked) body.join = true;
    if (made) body.seat_commitment = made.commitment;
    try {
      const game = await post("/games", body);
      keep(game.id, made);
      if (sit.checked && !held) await joinCommitted(game.id, `/games/${encodeURIComponent(game.id)}`);
      const tail = game.secret ? `/${encodeURIComponent(game.secret)}` : "";
      location.hash = `#/g/${encodeURIComponent(game.id)}${tail}`;
    } catch (err) {
      app.fail(err);
    }
  });
  return add(box, formBox);
}


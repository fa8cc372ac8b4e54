// A member's days away (Board Game Arena's vacation mode), on the league page: the days the
// league allows and those left, the vacations declared, and a form to declare more (a first
// day and a number of days, in the reader's time zone). The server extends the member's
// deadlines falling in those days, and the table shows that the seat is away.
import { el, add } from "../shared/dom.js";
import { post } from "./api.js";
import { t } from "./i18n.js";
import { when } from "./leagueparts.js";

const DAY_MS = 86400000;

// Days a vacation takes: each started day counts whole (as the server counts them).
const daysOf = (v) => Math.ceil((Date.parse(v.until) - Date.parse(v.from)) / DAY_MS);

function localDay(d) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function vacationBox(league, myself, app, reload) {
  const allowed = league.vacation_days || 0;
  const spans = myself.vacations || [];
  const left = Math.max(0, allowed - spans.reduce((n, v) => n + daysOf(v), 0));
  const box = add(el("div", "league-vacation"), el("h3", null, t("vacationTitle")));
  box.id = "league-vacation";
  box.appendChild(el("p", "muted", t("vacationHelp", { n: allowed, left })));
  if (spans.length) {
    const list = el("ul", "vacations");
    for (const v of spans) list.appendChild(el("li", null, t("vacationSpan", { from: when(v.from), until: when(v.until), n: daysOf(v) })));
    box.appendChild(list);
  }
  if (!left) return box;
  const form = el("form", "vacation-form");
  const first = el("input");
  first.type = "date";
  first.id = "vacation-from";
  first.required = true;
  first.min = first.value = localDay(new Date());
  const days = el("input");
  days.type = "number";
  days.id = "vacation-days";
  days.min = "1";
  days.max = String(left);
  days.value = "1";
  days.required = true;
  const label = (input, text) => {
    const l = el("label", null, text);
    l.htmlFor = input.id;
    return add(el("div", "field"), l, input);
  };
  const send = el("button", "primary", t("declareVacation"));
  send.type = "submit";
  add(form, add(el("div", "inline"), label(first, t("vacationFrom")), label(days, t("vacationDays")), send));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const [y, m, d] = first.value.split("-").map(Number);
    const n = Number(days.value);
    const midnight = new Date(y, m - 1, d);
    const start = new Date(Math.max(midnight.getTime(), Date.now())); // today: from now on
    const end = new Date(y, m - 1, d + n);
    if (!window.confirm(t("vacationSure", { from: when(start.toISOString()), until: when(end.toISOString()), n }))) return;
    send.disabled = true;
    try {
      await post(`/leagues/${encodeURIComponent(league.id)}/vacations`, { from: start.toISOString(), until: end.toISOString() });
      app.fail(null);
      reload();
    } catch (err) {
      app.fail(err);
      send.disabled = false;
    }
  });
  box.appendChild(form);
  return box;
}

// What a table says about its clock: stopped by an organizer (since when), and the seats
// whose players are away (until when; their deadlines in those days are extended).
export function clockNotes(game, seatName) {
  const notes = [];
  if (game.paused_at && game.status === "active") {
    const p = el("p", "paused-note", t("tablePausedSince", { when: when(game.paused_at) }));
    p.id = "paused-note";
    notes.push(p);
  }
  const now = Date.now();
  for (const a of game.away || []) {
    if (Date.parse(a.until) <= now || game.status !== "active") continue;
    const p = el("p", "away-note", t("seatAwayUntil", { name: seatName(a.seat), from: when(a.from), until: when(a.until) }));
    p.dataset.seat = a.seat;
    notes.push(p);
  }
  return notes.length ? add(el("section", "box clock-notes"), ...notes) : null;
}

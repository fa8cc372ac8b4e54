// A league's page in the web client, `#/l/<league id>`: its settings and schedule in the
// reader's time zone, join and leave for players, a join link, the standings, and every
// round with its tables. For a round being played each table shows who owes a decision,
// for how long they have owed it and how long is left; a late player (over half their
// time used) and a no-show (a seat whose decisions only ever timed out) are marked. For
// the league's organizer the same page is the dashboard (leaguedesk.js: invite or add by
// handle, remove, pause, resume, cancel, and the remedies the server offers) and the place
// disputes are ruled on (leaguedisputes.js); every change asks to confirm.
// The page reads the league again every REFRESH_S while shown and on each note of the
// player's feed, and says (to screen readers too) when a round is finished.
import { el, add } from "../shared/dom.js";
import { get, post, me } from "./api.js";
import { t } from "./i18n.js";
import { follow } from "./stream.js";
import { latest, whileShown } from "./refresh.js";
import { deskBox } from "./leaguedesk.js";
import { slot, when, span, confirmButton, leagueAnswer } from "./leagueparts.js";
import { readDisputes, disputesBox, rulingText } from "./leaguedisputes.js";
import { leagueFeatures } from "./leagueform.js";
import { vacationBox } from "./leaguevacation.js";

const REFRESH_S = 10;

export async function drawLeague(root, leagueId, app) {
  const path = `/leagues/${encodeURIComponent(leagueId)}`;
  const [rulesets, can] = await Promise.all([get("/rulesets"), leagueFeatures()]);
  const rulesetNames = Object.fromEntries(rulesets.rulesets.map((r) => [r.id, r.name]));
  const page = el("div", "league-page");
  const head = slot();
  const notice = slot();
  const mine = slot();
  const desk = slot();
  const disputes = slot();
  const rounds = slot();
  const table = slot();
  const deskSaid = el("p", "muted added"); // what the organizer just did
  deskSaid.id = "add-member-said";
  deskSaid.setAttribute("role", "status");
  const said = el("p", "sr-only");
  said.id = "league-said";
  said.setAttribute("role", "status");
  const watch = new Map(); // game id -> {after, timeouts: {seat: n}, moved: Set(seat)}
  let finishedSaid = null; // the rounds already said to be finished

  async function load() {
    const [league, standings, argued] = await Promise.all([get(path), get(`${path}/standings`), readDisputes(leagueId)]);
    const started = league.schedule.filter((r) => r.status === "started");
    const played = await Promise.all(started.map((r) => get(`${path}/rounds/${r.round}`)));
    const games = new Map();
    const live = played.flatMap((r) => r.tables).filter((tb) => tb.game && (tb.status === "active" || tb.status === "paused"));
    await Promise.all(live.map(async (tb) => {
      games.set(tb.game, await get(`/games/${encodeURIComponent(tb.game)}`));
      await absence(tb.game);
    }));
    return { league, standings, played, games, argued };
  }

  // Which seats of a game have moved, and how often each timed out (read from its public
  // log, a little more at each read).
  async function absence(gid) {
    const seen = watch.get(gid) || { after: 0, timeouts: {}, moved: new Set() };
    watch.set(gid, seen);
    const data = await get(`/games/${encodeURIComponent(gid)}/events?after=${seen.after}`);
    for (const ev of data.events || []) {
      seen.after = Math.max(seen.after, ev.seq);
      if (ev.type === "game.DecisionTimedOut") seen.timeouts[ev.data.seat] = (seen.timeouts[ev.data.seat] || 0) + 1;
      else if (Number.isInteger(ev.actor)) seen.moved.add(ev.actor); // a seat's own action
    }
  }
  // A no-show: a seat whose every decision so far timed out (how many times), else 0.
  const absent = (gid, seat) => {
    const seen = watch.get(gid);
    return seen && !seen.moved.has(seat) ? seen.timeouts[seat] || 0 : 0;
  };

  function draw({ league, standings, played, games, argued }) {
    const player = me();
    const organizers = [league.operator, ...(league.organizers || []).map((o) => (typeof o === "string" ? o : o.player))];
    const organizer = !!player && organizers.includes(player.id);
    const tables = new Map(played.flatMap((r) => r.tables.filter((tb) => tb.game).map((tb) => [tb.game, { ...tb, round: r.round }])));
    const names = Object.fromEntries(league.members.map((m) => [m.player, m.name]));
    const ruled = new Map((argued ? argued.rulings : []).map((r) => [r.game, rulingText(r, (p) => names[p] || p)]));
    const members = Object.fromEntries(league.members.map((m) => [m.player, m]));
    const myself = player && members[player.id];
    const current = played.length ? played[played.length - 1] : null;
    const over = (r) => r.tables.every((tb) => ["finished", "aborted", "cancelled"].includes(tb.status));
    const next = league.schedule.find((r) => r.status === "scheduled");

    // the heading: name, game, status, where the season is
    const title = add(el("h1"), el("span", null, league.name || league.id));
    const meta = el("p", "meta"); // words and separators, all as text
    meta.append(rulesetNames[league.ruleset] || league.ruleset, " · ",
      span(`badge league_${league.status}`, t(`league_${league.status}`), "league-status"), " · ",
      t("roundOf", { n: played.length, m: league.rounds }), " · ",
      t("membersN", { n: league.members.filter((m) => m.withdrawn_from_round === null).length }));
    const back = el("a", "back", t("back"));
    back.href = "#/";
    const links = add(el("p", "inline league-links"), linkTo(`/leagues/${encodeURIComponent(league.id)}`, t("standingsPage")),
      linkTo(`/v1/leagues/${encodeURIComponent(league.id)}/standings.csv`, t("standingsCsv")));
    head.put(add(el("header", "league-head"), back, title, meta, settingsList(league), links), JSON.stringify([league.status, league.name, played.length, league.members.length, league.version]));

    // a round finished, the next one's start
    const done = played.filter(over).map((r) => r.round);
    const notes = [];
    if (current && over(current)) notes.push(t("roundFinished", { n: current.round }));
    if (next && next.start_at) notes.push(t("nextRoundAt", { n: next.round, when: when(next.start_at) }));
    if (league.status === "paused") notes.push(t("leaguePausedNote"));
    if (league.status === "finished") notes.push(t("leagueFinishedNote"));
    notice.put(notes.length ? add(el("section", "box league-notice"), ...notes.map((n) => el("p", null, n))) : null, JSON.stringify(notes));
    if (finishedSaid) {
      const fresh = done.filter((n) => !finishedSaid.has(n));
      if (fresh.length) said.textContent = fresh.map((n) => t("roundFinished", { n })).join(" ");
    }
    finishedSaid = new Set(done);

    mine.put(organizer && !myself && !joinable(league) ? null : memberBox(league, myself, player, app, reload), JSON.stringify([league.status, !!player, myself || null, league.invited, played.length]));
    desk.put(organizer ? deskBox(league, app, reload, deskSaid, can) : null, JSON.stringify([organizer, league.status, league.members, league.invited, league.organizers, played.length]));
    disputes.put(argued ? disputesBox(league, argued, organizer, tables, app, reload) : null, JSON.stringify([argued, organizer, [...tables.keys()].filter((g) => tables.get(g).result)]));
    // (drawn again every 30 s at least: a player turns late as time passes)
    rounds.put(roundsBox(league, played, games, absent, ruled, organizer && can.tablePause ? { app, reload } : null), JSON.stringify([Math.floor(Date.now() / 30000), league.schedule, played, [...ruled], [...games.values()].map((g) => [g.id, g.owed, g.status, g.away, g.paused_at]), [...watch.entries()].map(([k, v]) => [k, v.timeouts, [...v.moved]])]));
    table.put(standingsBox(standings), JSON.stringify(standings.standings));
  }

  const read = latest(load, draw);
  const reload = () => read().catch(app.fail);
  root.replaceChildren(el("p", "muted", t("loading")));
  const first = await load();
  add(page, head, notice, mine, desk, disputes, rounds, table, said);
  root.replaceChildren(page);
  draw(first);
  const timer = setInterval(() => tick(page), 1000);
  tick(page);
  const polling = whileShown(REFRESH_S, read);
  let pending = 0;
  const feed = me() ? follow("/v1/players/me/feed", null, (kind) => {
    if (kind === "turns") return;
    clearTimeout(pending);
    pending = setTimeout(reload, 300);
  }, () => {}) : null;
  return () => {
    clearInterval(timer);
    clearTimeout(pending);
    polling();
    if (feed) feed.stop();
  };
}

function linkTo(href, text) {
  const a = el("a", null, text);
  a.href = href;
  return a;
}

function duration(s) {
  s = Math.max(0, Math.round(s));
  if (s >= 86400) return t("daysHours", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("hoursMinutes", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A setting's length of time in words: "7 days", "1 day 12 hours", "5 minutes".
function lasting(s) {
  const parts = [[86400, "nDays"], [3600, "nHours"], [60, "nMinutes"], [1, "nSeconds"]];
  const out = [];
  for (const [unit, key] of parts) {
    if (s >= unit && out.length < 2) {
      out.push(t(key, { n: Math.floor(s / unit) }));
      s %= unit;
    }
  }
  return out.join(" ") || t("nSeconds", { n: 0 });
}

// Countdowns and "owed for" times, every second, as plain text (in no live region).
function tick(page) {
  for (const c of page.querySelectorAll("[data-deadline]")) {
    const left = (Date.parse(c.dataset.deadline) - Date.now()) / 1000;
    c.textContent = left > 0 ? t("deadline", { time: duration(left) }) : t("overdue");
  }
  for (const c of page.querySelectorAll("[data-since]")) {
    c.textContent = t("owedFor", { time: duration((Date.now() - Date.parse(c.dataset.since)) / 1000) });
  }
}

function settingsList(league) {
  const dl = el("dl", "league-settings");
  const size = league.table_size.min === league.table_size.max ? String(league.table_size.min)
    : `${league.table_size.min}–${league.table_size.max}`;
  const items = [
    [t("lf_table_size"), size],
    [t("lf_start_at"), when(league.start_at)],
    [t("lf_cadence_s"), lasting(league.cadence_s)],
    [t("lf_decision_timeout_s"), lasting(league.decision_timeout_s)],
    [t("lf_points"), league.points.join(", ")],
    [t("lf_bye_points"), league.bye_points === null ? t("byeAverage") : String(league.bye_points)],
    [t("lf_withdraw_after_timeouts"), league.withdraw_after_timeouts ? String(league.withdraw_after_timeouts) : t("never")],
  ];
  for (const [k, v] of items) add(dl, add(el("div"), el("dt", null, k), el("dd", null, v)));
  return dl;
}

// Join, leave, and the join link.
function memberBox(league, myself, player, app, reload) {
  const box = add(el("section", "box league-member"), el("h2", null, t("yourPlace")));
  box.id = "league-member";
  const open = joinable(league);
  if (!player) box.appendChild(el("p", "muted", t("signInToJoin")));
  else if (myself && myself.withdrawn_from_round === null) {
    box.appendChild(el("p", null, t("youAreMember")));
    if (league.status !== "finished" && league.status !== "cancelled") {
      if (league.vacation_days) box.appendChild(vacationBox(league, myself, app, reload));
      box.appendChild(confirmButton(t("leaveLeague"), "leave-league", t("leaveLeagueSure"), () => post(`/leagues/${encodeURIComponent(league.id)}/leave`), app, reload));
    }
  } else if (myself) {
    box.appendChild(el("p", null, t("youWithdrew", { n: myself.withdrawn_from_round })));
  } else if (open) {
    const invited = (league.invited || []).some((i) => i.player === player.id);
    if (invited) box.appendChild(el("p", null, t("youAreInvited")));
    box.appendChild(add(el("div", "inline"), leagueAnswer(league.id, "join", app, reload),
      invited ? leagueAnswer(league.id, "decline", app, reload) : null));
  } else box.appendChild(el("p", "muted", t("joiningClosed")));
  if (open) {
    const invite = add(el("div", "league-invite"), el("p", "muted", t("joinLinkHelp")));
    const link = el("input", "join-link");
    link.readOnly = true;
    link.id = "join-link";
    link.value = `${location.origin}/#/l/${encodeURIComponent(league.id)}`;
    const l = el("label", null, t("joinLink"));
    l.htmlFor = link.id;
    const copy = el("button", null, t("copy"));
    copy.type = "button";
    copy.addEventListener("click", () => {
      link.select();
      if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => {});
      copy.textContent = t("copied");
    });
    add(box, add(invite, l, add(el("div", "inline"), link, copy)));
  }
  return box;
}

// Players may join before round 1, and until round `late_join_until_round` starts.
function joinable(league) {
  return league.status === "scheduled" || (league.status === "running"
    && league.schedule.filter((r) => r.status === "started").length < league.late_join_until_round);
}

// `desk`: {app, reload} for an organizer whose server pauses single tables, else null.
function roundsBox(league, played, games, absent, ruled, desk) {
  const box = add(el("section", "box league-rounds"), el("h2", null, t("rounds")));
  box.id = "league-rounds";
  const nameOf = (id) => (league.members.find((m) => m.player === id) || {}).name || id;
  for (const r of league.schedule) {
    const got = played.find((p) => p.round === r.round);
    const finished = got && got.tables.every((tb) => ["finished", "aborted", "cancelled"].includes(tb.status));
    const status = got ? (finished ? "round_finished" : "round_playing") : `round_${r.status}`;
    const sec = el("section", `round ${status}`);
    sec.dataset.round = r.round;
    const h = el("h3", null, t("roundN", { n: r.round }));
    h.append(" ", el("span", `badge ${status}`, t(status)));
    sec.appendChild(h);
    if (!got && r.start_at) sec.appendChild(el("p", "muted", t("startsAt", { when: when(r.start_at) })));
    const list = el("ul", "league-tables");
    const tables = got ? got.tables : r.tables.map((tb) => ({ table: tb.table, game: null, status: r.status, players: tb.players.map((p, seat) => ({ seat, player: p, name: nameOf(p) })), result: null }));
    // (while the whole league is paused its tables wait for the league's Resume)
    for (const tb of tables) list.appendChild(tableItem(tb, nameOf, games.get(tb.game), absent, ruled, desk && league.status !== "paused" && { ...desk, path: `/leagues/${encodeURIComponent(league.id)}/rounds/${r.round}/tables/${tb.table}` }));
    sec.appendChild(list);
    const byes = got ? got.byes : r.byes;
    if (byes.length) sec.appendChild(el("p", "muted byes", t("sittingOut", { names: byes.map(nameOf).join(", ") })));
    box.appendChild(sec);
  }
  return box;
}

function tableItem(tb, nameOf, game, absentSeat, ruled, desk) {
  const li = el("li", "league-table");
  li.dataset.table = tb.table;
  if (tb.game) li.dataset.game = tb.game;
  const head = add(el("div", "inline"), el("strong", null, t("tableN", { n: tb.table })),
    el("span", `badge ${tb.status}`, t(tb.status)));
  if (tb.game) {
    const open = el("a", "open-table", tb.status === "finished" ? t("replay") : t("openTable"));
    open.href = tb.status === "finished" || tb.status === "aborted" ? `/games/${encodeURIComponent(tb.game)}/replay` : `#/g/${encodeURIComponent(tb.game)}`;
    head.appendChild(open);
  }
  if (desk && (tb.status === "active" || tb.status === "paused")) { // an organizer stops or restarts this table's clock
    for (const how of tb.status === "paused" ? ["resume"] : ["pause"]) {
      const b = confirmButton(t(`${how}Table`), `${how}-table`, t(`${how}TableSure`, { n: tb.table }), () => post(`${desk.path}/${how}`), desk.app, desk.reload);
      b.dataset.k = `${how}-table-${tb.game}`;
      head.appendChild(b);
    }
  }
  li.appendChild(head);
  if (tb.paused_at) li.appendChild(el("p", "muted paused-since", t("pausedSince", { when: when(tb.paused_at) })));
  if (tb.game && ruled.has(tb.game)) li.appendChild(el("p", "ruled", t("rulingInForce", { what: ruled.get(tb.game) })));
  const seats = el("ol", "league-seats");
  const places = Object.fromEntries((tb.result || []).map((p) => [p.seat, p.place])); // by seat: a substitute's too
  const owed = game ? game.owed || [] : [];
  for (const p of tb.players) {
    // a seat a substitute took: "Eli → Sub"
    const item = add(el("li", "league-seat"), el("span", "seat-name", p.substitute ? `${p.name} → ${nameOf(p.substitute)}` : p.name));
    item.dataset.player = p.player;
    if (p.seat in places) item.appendChild(el("span", "place", t("placeN", { n: places[p.seat] })));
    const owes = owed.filter((o) => o.seat === p.seat);
    for (const o of owes) {
      const since = o.deadline && game.decision_timeout_s ? new Date(Date.parse(o.deadline) - game.decision_timeout_s * 1000).toISOString() : null;
      const late = since && (Date.now() - Date.parse(since)) / 1000 > game.decision_timeout_s / 2;
      item.classList.add("owes");
      if (late) item.classList.add("late");
      add(item, el("span", "owes-tag", t("owesKind", { kind: o.kind.replace(/_/g, " ") })),
        late ? el("strong", "late-tag", t("late")) : null);
      if (since) {
        const c = el("span", "muted since");
        c.dataset.since = since;
        item.appendChild(c);
      }
      if (o.deadline) {
        const c = el("span", "muted countdown");
        c.dataset.deadline = o.deadline;
        item.appendChild(c);
      }
    }
    const away = game && (game.away || []).find((a) => a.seat === p.seat && Date.parse(a.until) > Date.now());
    if (away) {
      item.classList.add("away");
      item.appendChild(el("span", "away-tag", t("awayUntil", { until: when(away.until) })));
    }
    const absent = game && absentSeat(tb.game, p.seat);
    if (absent) {
      item.classList.add("no-show");
      item.appendChild(el("strong", "no-show-tag", t("noShow", { n: absent })));
    }
    seats.appendChild(item);
  }
  li.appendChild(seats);
  return li;
}

function standingsBox(data) {
  const box = add(el("section", "box league-standings"), el("h2", null, t("standingsTitle")));
  box.id = "league-standings";
  const tableEl = el("table", "league-ranking");
  const heads = ["#", t("player"), t("points"), t("gamesN"), t("won"), t("byesN"), "Buchholz"];
  tableEl.appendChild(add(el("thead"), add(el("tr"), ...heads.map((h) => el("th", null, h)))));
  const body = el("tbody");
  for (const r of data.standings) {
    const tr = add(el("tr", r.withdrawn ? "withdrawn" : null),
      el("td", null, r.rank), el("td", null, r.withdrawn ? `${r.name} (${t("withdrawnTag")})` : r.name),
      el("td", null, Number(r.points).toLocaleString()), el("td", null, r.games), el("td", null, r.wins),
      el("td", null, r.byes), el("td", null, Number(r.buchholz).toLocaleString()));
    body.appendChild(tr);
  }
  tableEl.appendChild(body);
  return add(box, data.standings.length ? add(el("div", "scroll-x"), tableEl) : el("p", "muted", t("noMembers")));
}

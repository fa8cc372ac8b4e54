// Disputes and rulings in the web client (docs/leagues.md, "Disputes and rulings"): the
// league page lists every dispute and ruling (GET /v1/leagues/{id}/disputes, public); the
// organizer sees the open ones first, each with the game's review (the replay, where
// defaults are marked) and a ruling form, and every recorded table has the same form
// (stands, adjusted points, annulled, forfeit, replay), sent after a confirmation to
// POST .../rulings. A player seated at a league table opens a dispute from the table.
// A server without disputes answers the list 404 `not_found`: nothing is shown then.
import { el, add } from "../shared/dom.js";
import { get, post } from "./api.js";
import { t } from "./i18n.js";
import { when } from "./leagueparts.js";

export const KINDS = ["stands", "adjusted", "annulled", "forfeit", "replay"];

// The league's disputes and rulings, or null where the server has none.
export async function readDisputes(leagueId) {
  try {
    return await get(`/leagues/${encodeURIComponent(leagueId)}/disputes`);
  } catch (e) {
    if (e.status === 404 && e.code !== "league_not_found") return null;
    throw e;
  }
}

let counter = 0;
function labelled(text, control) {
  control.id = control.id || `rf-${(counter += 1)}`;
  const l = el("label", null, text);
  l.htmlFor = control.id;
  return add(el("div", "field"), l, control);
}

// What a ruling did, in words.
export function rulingText(r, nameOf) {
  const what = t(`ruling_${r.kind}`);
  const extra = r.kind === "adjusted" && r.points
    ? `: ${Object.entries(r.points).map(([p, n]) => `${nameOf(p)} ${n}`).join(", ")}`
    : r.kind === "forfeit" && r.players ? `: ${r.players.map(nameOf).join(", ")}` : "";
  return `${what}${extra}`;
}

// The form an organizer rules with, on one table's game (answering `dispute`, if given).
// `bare`: the form alone (else inside a <details> that opens it).
export function rulingForm(leagueId, table, dispute, app, reload, bare = false) {
  const form = el("form", "ruling-form");
  form.dataset.game = table.game;
  const kind = el("select");
  kind.className = "ruling-kind";
  for (const k of KINDS) {
    const o = el("option", null, t(`ruling_${k}`));
    o.value = k;
    kind.appendChild(o);
  }
  const reason = el("textarea", "ruling-reason");
  reason.required = true;
  reason.maxLength = 2000;
  reason.rows = 2;
  const points = add(el("fieldset", "sf-array ruling-points"), el("legend", null, t("rulingPoints")));
  const forfeit = add(el("fieldset", "sf-array ruling-players"), el("legend", null, t("rulingForfeiters")));
  const reads = { points: [], players: [] };
  for (const p of table.players) {
    const n = el("input");
    n.type = "number";
    n.min = "0";
    n.step = "any";
    n.dataset.player = p.player;
    points.appendChild(labelled(p.name, n));
    reads.points.push([p.player, n]);
    const c = el("input");
    c.type = "checkbox";
    c.dataset.player = p.player;
    const row = add(el("div", "sf-row check"), c);
    c.id = `rf-${(counter += 1)}`;
    const l = el("label", null, p.name);
    l.htmlFor = c.id;
    row.appendChild(l);
    forfeit.appendChild(row);
    reads.players.push([p.player, c]);
  }
  const shown = () => {
    points.hidden = kind.value !== "adjusted";
    forfeit.hidden = kind.value !== "forfeit";
  };
  kind.addEventListener("change", shown);
  shown();
  const go = el("button", "primary rule", t("recordRuling"));
  go.type = "submit";
  add(form, labelled(t("rulingKind"), kind), points, forfeit, labelled(t("rulingReason"), reason), go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { game: table.game, kind: kind.value, reason: reason.value.trim() };
    if (dispute) body.dispute = dispute.dispute;
    if (kind.value === "adjusted") {
      body.points = Object.fromEntries(reads.points.filter(([, n]) => n.value !== "").map(([p, n]) => [p, Number(n.value)]));
    }
    if (kind.value === "forfeit") body.players = reads.players.filter(([, c]) => c.checked).map(([p]) => p);
    if (!window.confirm(t("rulingSure", { kind: t(`ruling_${kind.value}`), n: table.table }))) return;
    go.disabled = true;
    try {
      await post(`/leagues/${encodeURIComponent(leagueId)}/rulings`, body);
      app.fail(null);
      reload();
    } catch (err) {
      app.fail(err);
      go.disabled = false;
    }
  });
  if (bare) return form;
  const box = add(el("details", "ruling"), el("summary", null, dispute ? t("ruleOnDispute", { n: dispute.dispute }) : t("ruleOnGame")));
  return add(box, form);
}

// The league page's list: disputes (open first) and rulings; for an organizer each open
// dispute carries the game's replay link and the ruling form.
export function disputesBox(league, data, organizer, tables, app, reload) {
  const box = add(el("section", "box league-disputes"), el("h2", null, t("disputesTitle")));
  box.id = "league-disputes";
  const names = Object.fromEntries(league.members.map((m) => [m.player, m.name]));
  const nameOf = (p) => names[p] || p;
  const open = data.disputes.filter((d) => d.status === "open");
  if (organizer && open.length) box.appendChild(el("p", "waiting-note", t("disputesWaiting", { n: open.length })));
  const list = el("ul", "disputes");
  for (const d of [...open, ...data.disputes.filter((x) => x.status !== "open")]) {
    const li = el("li", `dispute ${d.status}`);
    li.dataset.dispute = d.dispute;
    const head = add(el("p", "inline"), el("strong", null, t("disputeN", { n: d.dispute })),
      el("span", `badge dispute-${d.status}`, t(`dispute_${d.status}`)),
      el("span", null, t("disputeWhere", { name: d.name, round: d.round, table: d.table })),
      el("span", "muted", when(d.opened_at)));
    const replay = el("a", null, t("replay"));
    replay.href = `/games/${encodeURIComponent(d.game)}/replay`;
    const review = el("a", "review-link", t("reviewGame"));
    review.href = `#/l/${encodeURIComponent(league.id)}/review/${encodeURIComponent(d.game)}`;
    head.appendChild(organizer ? review : replay);
    add(li, head, el("p", "reason", d.reason));
    if (d.ruling) li.appendChild(el("p", "ruled", t("ruledAs", { what: rulingText(d.ruling, nameOf), reason: d.ruling.reason })));
    const table = tables.get(d.game);
    if (organizer && d.status === "open" && table) li.appendChild(rulingForm(league.id, table, d, app, reload));
    list.appendChild(li);
  }
  add(box, list.childElementCount ? list : el("p", "muted", t("noDisputes")));
  const recorded = [...tables.values()].filter((tb) => tb.result);
  if (organizer && recorded.length) box.appendChild(anyGame(league.id, recorded, app, reload));
  if (data.rulings.length) {
    const rulings = el("ul", "rulings");
    for (const r of data.rulings) {
      const li = add(el("li"), el("strong", null, t("tableInRound", { table: r.table, round: r.round })));
      li.append(" ", rulingText(r, nameOf), " — ", r.reason); // text nodes
      li.dataset.game = r.game;
      rulings.appendChild(li);
    }
    add(box, el("h3", null, t("rulingsTitle")), rulings);
  }
  return box;
}

// An organizer's ruling on any recorded game (a forfeit, an annulment) without a dispute:
// pick the table, then the form.
function anyGame(leagueId, recorded, app, reload) {
  const box = add(el("details", "ruling rule-any"), el("summary", null, t("ruleOnGame")));
  const pick = el("select");
  pick.id = "rule-any-game";
  for (const tb of recorded) {
    const o = el("option", null, t("tableInRound", { table: tb.table, round: tb.round }));
    o.value = tb.game;
    pick.appendChild(o);
  }
  const slot = el("div");
  const show = () => {
    const tb = recorded.find((x) => x.game === pick.value);
    slot.replaceChildren(rulingForm(leagueId, tb, null, app, reload, true));
  };
  pick.addEventListener("change", show);
  show();
  return add(box, labelled(t("whichGame"), pick), slot);
}

// At a league table: a seated player disputes the game, with a reason.
export function disputeForm(game, app) {
  const box = add(el("details", "dispute-open"), el("summary", null, t("disputeGame")));
  box.id = "dispute-open";
  const form = el("form", "inline fields");
  const reason = el("textarea", "dispute-reason");
  reason.required = true;
  reason.maxLength = 2000;
  reason.rows = 2;
  const said = el("p", "muted");
  said.setAttribute("role", "status");
  const go = el("button", "primary", t("sendDispute"));
  go.type = "submit";
  add(form, labelled(t("disputeReason"), reason), go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const d = await post(`/leagues/${encodeURIComponent(game.league.id)}/disputes`, { game: game.id, reason: reason.value.trim() });
      app.fail(null);
      reason.value = "";
      said.textContent = t("disputeOpened", { n: d.dispute });
    } catch (err) {
      app.fail(err);
    }
  });
  return add(box, el("p", "muted", t("disputeHelp")), form, said);
}

// A league game's review, `#/l/<league id>/review/<game id>`: everything a ruling is made
// with on one page (GET /v1/leagues/{id}/games/{game}/review): the disputes on the game,
// its result and what it counts for now, the audit's checks, the game's moves in words with
// the defaulted decisions marked (the step-by-step replay viewer a link away), the refused
// attempts of its players (a late move with its deadline and arrival time), the server's
// outages while it ran, and, for the league's organizers, the ruling form.
import { el, add } from "../shared/dom.js";
import { get, me } from "./api.js";
import { t } from "./i18n.js";
import { sentence, namer } from "./log.js";
import { when } from "./leagueparts.js";
import { rulingForm, rulingText } from "./leaguedisputes.js";
import { checkText } from "./words_checks.js";

export async function drawReview(root, leagueId, gameId, app) {
  const lid = encodeURIComponent(leagueId);
  const gid = encodeURIComponent(gameId);
  async function draw() {
    const [league, review, game, log] = await Promise.all([get(`/leagues/${lid}`),
      get(`/leagues/${lid}/games/${gid}/review`), get(`/games/${gid}`), get(`/games/${gid}/events`)]);
    const names = Object.fromEntries(league.members.map((m) => [m.player, m.name]));
    for (const s of game.seats) if (s.player && s.name) names[s.player] = s.name;
    const nameOf = (p) => names[p] || p;
    const seatName = (n) => nameOf((game.seats.find((s) => s.seat === n) || {}).player);
    const player = me();
    const organizer = !!player && [league.operator, ...(league.organizers || []).map((o) => (typeof o === "string" ? o : o.player))].includes(player.id);

    const back = el("a", "back", t("backToLeague", { name: league.name || league.id }));
    back.href = `#/l/${lid}`;
    const h = el("h1", null, t("reviewTitle", { round: review.round, table: review.table }));
    h.tabIndex = -1;
    const replay = el("a", "replay-link", t("replayViewer"));
    replay.href = review.replay_url;
    const exported = el("a", null, t("exportGame"));
    exported.href = review.export_url;
    const page = add(el("div", "review-page"), add(el("header", "box review-head"), back, h,
      el("p", "meta", `${league.name || league.id} · ${t(game.status)}`), add(el("p", "inline"), replay, exported)));

    // the disputes and the ruling in force
    const disputes = add(el("section", "box review-disputes"), el("h2", null, t("disputesTitle")));
    disputes.id = "review-disputes";
    const list = el("ul", "disputes");
    for (const d of review.disputes) {
      const li = add(el("li", `dispute ${d.status}`), add(el("p", "inline"), el("strong", null, t("disputeN", { n: d.dispute })),
        el("span", `badge dispute-${d.status}`, t(`dispute_${d.status}`)), el("span", null, d.name), el("span", "muted", when(d.opened_at))),
      el("p", "reason", d.reason));
      li.dataset.dispute = d.dispute;
      if (d.ruling) li.appendChild(el("p", "ruled", t("ruledAs", { what: rulingText(d.ruling, nameOf), reason: d.ruling.reason })));
      list.appendChild(li);
    }
    add(disputes, list.childElementCount ? list : el("p", "muted", t("noDisputes")));
    const inForce = review.rulings.length ? review.rulings[review.rulings.length - 1] : null;
    if (inForce) disputes.appendChild(el("p", "ruled", t("rulingInForce", { what: rulingText(inForce, nameOf) })));
    const open = review.disputes.find((d) => d.status === "open") || null;
    if (organizer && review.recorded) {
      const table = { game: review.game, table: review.table, round: review.round,
        players: game.seats.map((s) => ({ seat: s.seat, player: s.player, name: nameOf(s.player) })) };
      add(disputes, el("h3", null, open ? t("ruleOnDispute", { n: open.dispute }) : t("ruleOnGame")),
        rulingForm(leagueId, table, open, app, () => draw().catch(app.fail), true));
    } else if (organizer) disputes.appendChild(el("p", "muted", t("rulingAfterResult")));

    // the result, and what it counts for in the standings now
    const result = add(el("section", "box review-result"), el("h2", null, t("resultTitle")));
    result.id = "review-result";
    if (review.recorded) {
      const places = Object.fromEntries((review.recorded.places || []).map((p) => [p.player, p.place]));
      const rows = el("tbody");
      for (const s of game.seats) {
        const counted = review.counted && s.player in review.counted ? Number(review.counted[s.player]).toLocaleString() : "—";
        rows.appendChild(add(el("tr"), el("td", null, nameOf(s.player)), el("td", null, places[s.player] ?? "—"), el("td", "counted", counted)));
      }
      const table = add(el("table", "league-ranking"), add(el("thead"), add(el("tr"),
        el("th", null, t("player")), el("th", null, t("placeTitle")), el("th", null, t("pointsNow")))), rows);
      result.appendChild(add(el("div", "scroll-x"), table));
    } else result.appendChild(el("p", "muted", t("notRecordedYet")));

    // the audit's checks
    const checks = add(el("section", "box review-checks"), el("h2", null, t("checksTitle")));
    checks.id = "review-checks";
    if (review.audit) {
      checks.appendChild(el("p", review.audit.ok ? "ok" : "bad", review.audit.ok ? t("checksAllOk", { n: review.audit.events }) : t("checksFailed")));
      const ul = el("ul", "checks");
      for (const c of review.audit.checks) {
        const li = add(el("li", c.ok ? "check ok" : "check bad"), el("strong", null, c.ok ? t("checkPassed") : t("checkFailed")));
        const said = checkText(c, t, seatName);
        const where = Number.isInteger(c.seq) && !c.ok ? ` (${t("atEventN", { n: c.seq })})` : "";
        li.append(" ", said.name, where, said.detail ? ` — ${said.detail}` : ""); // text nodes
        ul.appendChild(li);
      }
      checks.appendChild(ul);
    } else checks.appendChild(el("p", "muted", t("checksWhenEnded")));

    // the refused attempts and the outages
    const refused = add(el("section", "box review-refused"), el("h2", null, t("refusedTitle")));
    refused.id = "review-refused";
    if (review.refused.length) {
      const rows = el("tbody");
      for (const r of review.refused) {
        const late = r.deadline ? t("lateBy", { deadline: when(r.deadline), arrived: when(r.arrived_at || r.at) }) : r.detail;
        rows.appendChild(add(el("tr", `refused ${r.code}`), el("td", null, when(r.at)), el("td", null, nameOf(r.player)),
          el("td", null, r.code), el("td", null, late)));
      }
      const table = add(el("table", "refused-list"), add(el("thead"), add(el("tr"), el("th", null, t("arrivedAt")),
        el("th", null, t("player")), el("th", null, t("refusedCode")), el("th", null, t("refusedWhy")))), rows);
      refused.appendChild(add(el("div", "scroll-x"), table));
    } else refused.appendChild(el("p", "muted", t("noRefused")));
    const outages = add(el("section", "box review-outages"), el("h2", null, t("outagesTitle")));
    outages.id = "review-outages";
    if (review.outages.length) {
      outages.appendChild(add(el("ul", "outages"), ...review.outages.map((o) =>
        el("li", null, t("outageSpan", { from: when(o.start), until: when(o.end), n: Math.round(o.seconds) })))));
    } else outages.appendChild(el("p", "muted", t("noOutages")));

    // the moves, in words, defaults marked
    const moves = add(el("section", "box review-moves"), el("h2", null, t("movesTitle")), el("p", "muted", t("movesHelp")));
    moves.id = "review-moves";
    // a seat is named by whoever held it at that event (a substitute from their SeatTaken on)
    const held = new Map();
    const heldBy = (n) => (held.has(n) ? held.get(n) : seatName(n));
    // cards by their names in the page's language (a GobCon deck's own cards come with the game)
    const listed = await get(`/rulesets/${encodeURIComponent(game.ruleset)}/cards`).catch(() => null);
    const gloss = { ...Object.fromEntries(((listed && listed.cards) || []).map((c) => [c.id, { name: c.name }])),
      ...(game.cards && typeof game.cards === "object" ? game.cards : {}) };
    const name = namer({ seatName: heldBy, glossed: (v) => gloss[v] || gloss[String(v).replace(/#\d+$/, "")] || null,
      isSeat: (k, v) => Number.isInteger(v) && /seat|winner|proposer/.test(k) });
    const ol = el("ol", "review-log recent");
    let last = null;
    for (const ev of log.events || []) {
      const d = ev.data || {};
      if ((ev.type === "game.PlayerJoined" || ev.type === "game.SeatTaken") && Number.isInteger(d.seat)) {
        held.set(d.seat, d.name || nameOf(d.player));
      }
      const key = JSON.stringify([ev.actor, ev.cause, ev.at]);
      const first = key !== last || !!ev.command;
      last = key;
      const timedOut = ev.type === "game.DecisionTimedOut";
      const li = add(el("li", `ev${timedOut ? " timed-out" : ""}`), el("span", "ev-n", ev.seq), el("span", null, sentence(ev, name, first)),
        timedOut ? el("strong", "badge default-tag", t("defaulted")) : null);
      li.dataset.seq = ev.seq;
      ol.appendChild(li);
    }
    const scroller = add(el("div", "review-log-box"), ol); // scrolls: reachable from the keyboard
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", t("movesTitle"));
    add(moves, scroller);

    root.replaceChildren(add(page, disputes, result, checks, refused, outages, moves));
    return h;
  }
  root.replaceChildren(el("p", "muted", t("loading")));
  const h = await draw();
  h.focus();
  return null;
}

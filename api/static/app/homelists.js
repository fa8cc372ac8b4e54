// The lists of the home page, each a section: my games (those waiting on me first), the
// lobby (a waiting table says its time per decision and its options), the games holding a
// seat for me, and the leagues I play in or organize.
import { add, el } from "../shared/dom.js";
import { get, post } from "./api.js";
import { claimText, duration, t, word } from "./i18n.js";
import { answerButton, seatLabel } from "./seats.js";
import { confirmButton, leagueAnswer, leagueTag } from "./leagueparts.js";

export function section(title, id) {
  const box = el("section", "box");
  box.id = id;
  const h = el("h2", null, title);
  h.id = `${id}-title`;
  box.setAttribute("aria-labelledby", h.id);
  return add(box, h);
}

function gameLink(g, rulesets, mine, leagueNames = {}) {
  const li = el("li", "game-item");
  li.dataset.game = g.id;
  const a = el("a", "game-link", rulesets[g.ruleset] || g.ruleset);
  a.href = `#/g/${encodeURIComponent(g.id)}`;
  const status = g.status === "waiting"
    ? t("waitingFor", { n: g.seats_taken, m: g.players })
    : t(g.status);
  const names = (g.seats || []).map(seatLabel).join(", ");
  add(li, a, el("span", `badge ${g.status}`, status), el("span", "muted names", names));
  li.appendChild(terms(g));
  const claim = g.status === "waiting" ? claimText(g.claim_after_s) : null;
  if (claim) li.appendChild(el("span", "muted claim-after", claim));
  if (g.league) li.appendChild(leagueTag(g.league, leagueNames));
  if (mine && g.owes) {
    li.classList.add("owes");
    li.appendChild(el("strong", "turn-tag", t("yourTurn")));
  }
  return li;
}

// An option's value in words (val_<option>_<value>: GobCon's "default" deck is "the standard
// deck" / "el mazo estándar"), else as the server names it.
export function optionValue(v, k) {
  const key = `val_${k}_${v}`;
  const said = t(key);
  return said !== key ? said : v === null ? "—" : String(v);
}

// What a table is played with, in words: its time per decision and its options.
function terms(g) {
  const time = Number.isInteger(g.decision_timeout_s) ? t("perDecision", { time: duration(g.decision_timeout_s) })
    : t("noTimeLimit");
  const said = (v, k) => (v === true ? t("yes") : v === false ? t("no") : v === null ? t("none") : optionValue(v, k));
  const options = Object.entries(g.options || {})
    .filter(([, v]) => v === null || typeof v !== "object")
    .map(([k, v]) => `${word(k)}: ${said(v, k)}`);
  const line = el("span", "muted terms", time);
  if (options.length) line.textContent += ` · ${t("optionsOf", { list: options.join(", ") })}`;
  return line;
}

export async function myGames(names, leagueNames) {
  const box = section(t("myGames"), "my-games");
  const list = el("ul", "games");
  const data = await get("/players/me/games?limit=50");
  const games = data.games.filter((g) => g.status !== "cancelled");
  // waiting on me first, then games in play, waiting tables, and finished ones
  const rank = (g) => (g.owes ? 0 : { active: 1, waiting: 2, finished: 3 }[g.status] ?? 4);
  games.sort((a, b) => rank(a) - rank(b));
  for (const g of games) list.appendChild(gameLink(g, names, true, leagueNames));
  const owing = games.filter((g) => g.owes).map((g) => [g.id, names[g.ruleset] || g.ruleset]);
  add(box, list.childElementCount ? list : el("p", "muted", t("noGames")));
  return { box, owing, key: JSON.stringify(games) };
}

export function lobbyBox(games, names) {
  const open = section(t("lobby"), "lobby");
  const list = el("ul", "games");
  for (const g of games) list.appendChild(gameLink(g, names, false));
  return add(open, list.childElementCount ? list : el("p", "muted", t("lobbyEmpty")));
}

// The leagues I play in or organize (GET /players/me/leagues), each a link to its page
// (join or decline an invitation, or leave, right here), and a link to the form that
// creates one.
export function leaguesBox(list, app, reread) {
  const box = section(t("leagues"), "leagues");
  const items = el("ul", "games");
  for (const l of list) {
    const li = el("li", "game-item league-item");
    li.dataset.league = l.id;
    const a = el("a", "game-link", l.name || l.id);
    a.href = `#/l/${encodeURIComponent(l.id)}`;
    add(li, a, el("span", `badge ${l.status}`, t(`league_${l.status}`)),
      el("span", "muted", t("roundOf", { n: l.rounds_started, m: l.rounds })),
      l.organizer ? el("span", "badge organizer", t("organizerTag")) : null,
      l.withdrawn_from_round !== null ? el("span", "badge", t("withdrawnTag")) : null);
    if (l.invited) { // an organizer's invitation: join or decline here
      li.classList.add("owes");
      add(li, el("span", "badge answer-pending", t("answer_pending")),
        leagueAnswer(l.id, "join", app, reread), leagueAnswer(l.id, "decline", app, reread));
    } else if (l.member && l.withdrawn_from_round === null && !["finished", "cancelled"].includes(l.status)) {
      const leave = confirmButton(t("leaveLeague"), "leave-league", t("leaveLeagueSure"),
        () => post(`/leagues/${encodeURIComponent(l.id)}/leave`), app, reread);
      leave.setAttribute("aria-label", `${t("leaveLeague")}: ${l.name || l.id}`);
      li.appendChild(leave); // a member leaves from here too (after a confirmation)
    }
    items.appendChild(li);
  }
  const create = el("a", "new-league-link", t("newLeague"));
  create.href = "#/leagues/new";
  return add(box, items.childElementCount ? items : el("p", "muted", t("leaguesNone")), add(el("p"), create));
}

// Games holding a seat for me (invitations, rematch offers): accept (join) or decline.
export async function invitations(names, app) {
  let data;
  try {
    data = await get("/players/me/invitations");
  } catch {
    return { box: null, games: [], key: "" }; // a server without invitations
  }
  const box = section(t("invitations"), "invitations");
  const list = el("ul", "games");
  const games = [];
  for (const inv of data.invitations || []) {
    const li = el("li", "game-item owes");
    li.dataset.game = inv.game;
    const table = `#/g/${encodeURIComponent(inv.game)}`;
    const a = el("a", "game-link", names[inv.ruleset] || inv.ruleset);
    a.href = table;
    const who = (inv.invited || []).map((i) => i.name).join(", ");
    add(li, a, inv.rematch_of ? el("span", "badge", t("rematchTag")) : null, el("span", "muted names", who));
    const claim = claimText(inv.claim_after_s);
    if (claim) li.appendChild(el("span", "muted claim-after", claim));
    const yes = answerButton(inv.game, "join", "primary accept", () => (location.hash = table), app);
    const no = answerButton(inv.game, "decline", "decline", () => app.route(), app);
    add(li, yes, no);
    list.appendChild(li);
    games.push([inv.game, names[inv.ruleset] || inv.ruleset]);
  }
  const key = JSON.stringify(data.invitations || []);
  return { box: list.childElementCount ? add(box, list) : null, games, key };
}

// The home page: pick a name (or paste a token), my games (those waiting on me first, a
// league's game saying its league, round and table), the lobby, the leagues I play in or
// organize (links to their pages, and to a new league's form), and the form that creates a game of any
// ruleset with its options (drawn from the ruleset's options schema). It stays current by
// itself: the player's feed redraws my games and invitations when a note arrives (a turn,
// an invitation, a start, an end), every REFRESH_S my lists are read again (seats taken,
// which no note tells of), and the lobby every LOBBY_S. A status region says what became mine.
// A lobby entry says its time per decision and its options.
import { el, add } from "../shared/dom.js";
import { get, post, me, remember } from "./api.js";
import { joinCommitted, keep, newSecret } from "./seatseed.js";
import { claimText, duration, t, word } from "./i18n.js";
import { field } from "./schemaform.js";
import { follow } from "./stream.js";
import { answerButton, levelPick, seatLabel } from "./seats.js";
import { signal } from "./signal.js";
import { latest, whileShown } from "./refresh.js";
import { pushBox } from "./push.js";
import { inboxBox, settingsBox } from "./inbox.js";
import { helped, rulesLink } from "./optionhelp.js";
import { slot, leagueTag, leagueAnswer, confirmButton } from "./leagueparts.js";

const TIMEOUTS = [null, 30, 60, 120, 300, 900, 3600, 86400];
const REFRESH_S = 15;
const LOBBY_S = 3; // a game opened elsewhere reaches the lobby within a few seconds

function section(title, id) {
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
function optionValue(v, k) {
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

async function myGames(names, leagueNames) {
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

function lobbyBox(games, names) {
  const open = section(t("lobby"), "lobby");
  const list = el("ul", "games");
  for (const g of games) list.appendChild(gameLink(g, names, false));
  return add(open, list.childElementCount ? list : el("p", "muted", t("lobbyEmpty")));
}

export async function drawHome(root, app) {
  const player = me();
  const rulesets = await get("/rulesets");
  const names = Object.fromEntries(rulesets.rulesets.map((r) => [r.id, r.name]));
  const page = el("div", "home");
  const mine = slot();
  const invited = slot();
  const notes = slot();
  const open = slot();
  const said = el("p", "sr-only");
  said.id = "home-said";
  said.setAttribute("role", "status");
  const known = { owing: null, invited: null }; // game ids, once read

  function tell(kind, pairs, text) {
    const before = known[kind];
    known[kind] = new Set(pairs.map(([id]) => id));
    const fresh = before ? pairs.filter(([id]) => !before.has(id)) : [];
    if (fresh.length) said.textContent = fresh.map(([, name]) => text(name)).join(". ");
  }

  const leagues = slot();
  let readMine = null;
  const reread = () => readMine();
  readMine = latest(async () => {
    const mineLeagues = await get("/players/me/leagues").then((d) => d.leagues).catch(() => []);
    const leagueNames = Object.fromEntries(mineLeagues.map((l) => [l.id, l.name || l.id]));
    return Promise.all([myGames(names, leagueNames), invitations(names, app), mineLeagues, inboxBox(app, reread)]);
  }, ([games, invites, mineLeagues, inbox]) => {
    mine.put(games.box, games.key);
    leagues.put(leaguesBox(mineLeagues, app, () => readMine().catch(app.fail)), JSON.stringify(mineLeagues));
    invited.put(invites.box, invites.key);
    notes.put(inbox.box, inbox.key);
    tell("owing", games.owing, (name) => `${t("yourTurn")}: ${name}`);
    tell("invited", invites.games, (name) => t("invitedTo", { name }));
    signal(games.owing.length > 0, games.owing.length ? games.owing[0][1] : "");
  });
  const readLobby = latest(() => get("/games?status=waiting&limit=30"), ({ games }) => {
    open.put(lobbyBox(games, names), JSON.stringify(games));
  });

  if (!player) page.appendChild(signIn(app));
  else add(page, againstComputer(rulesets.rulesets, app), notes, mine, invited, leagues, createForm(rulesets.rulesets, app));
  await Promise.all([readLobby(), player ? readMine().catch(app.fail) : null]);
  page.appendChild(open);
  if (player) add(page, pushBox(), settingsBox(app));
  page.appendChild(said);
  root.replaceChildren(el("h1", "sr-only", t("homeTitle")), page);
  return follows(player, readMine, readLobby);
}

// Keep the home page current while it is shown; return what stops it.
function follows(player, readMine, readLobby) {
  let pending = 0;
  let opened = false;
  const feed = player
    ? follow("/v1/players/me/feed", null, (kind) => {
      if (kind === "turns" && !opened) return void (opened = true); // as just drawn
      clearTimeout(pending);
      pending = setTimeout(() => readMine().catch(() => {}), 150);
    }, () => {})
    : null;
  const polling = whileShown(REFRESH_S, () => (player ? readMine() : Promise.resolve()));
  const lobby = whileShown(LOBBY_S, readLobby);
  return () => {
    if (feed) feed.stop();
    polling();
    lobby();
    clearTimeout(pending);
    signal(false);
  };
}

function signIn(app) {
  const box = section(t("pickName"), "sign-in");
  const formBox = el("form", "inline fields");
  const input = el("input");
  input.id = "name-input";
  input.required = true;
  input.maxLength = 40;
  input.autocomplete = "nickname";
  const label = el("label", null, t("name"));
  label.htmlFor = input.id;
  const handle = el("input");
  handle.id = "handle-input";
  handle.maxLength = 24;
  handle.autocomplete = "username";
  const handleLabel = el("label", null, t("handle"));
  handleLabel.htmlFor = handle.id;
  const hint = el("small", "muted", t("handleHint"));
  hint.id = "handle-hint";
  handle.setAttribute("aria-describedby", hint.id);
  const go = el("button", "primary", t("play"));
  go.type = "submit";
  add(formBox, add(el("div", "field"), label, input), add(el("div", "field"), handleLabel, handle, hint), go);
  formBox.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: input.value.trim() };
    if (!body.name) return void app.fail(new Error(t("err_name_blank"))); // a name of spaces
    if (handle.value.trim()) body.handle = handle.value.trim();
    try {
      const player = await post("/players", body);
      remember(player);
      app.showToken(player.token);
      app.route();
    } catch (err) {
      app.fail(err);
    }
  });
  const tokenBox = add(el("details", "token-in"), el("summary", null, t("haveToken")));
  const tokenForm = el("form", "inline");
  const tokenInput = el("input");
  tokenInput.id = "token-input";
  tokenInput.type = "password";
  tokenInput.autocomplete = "current-password";
  const tokenLabel = el("label", null, t("token"));
  tokenLabel.htmlFor = tokenInput.id;
  const use = el("button", null, t("useToken"));
  use.type = "submit";
  add(tokenForm, tokenLabel, tokenInput, use);
  tokenForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const token = tokenInput.value.trim();
    try {
      remember({ id: null, name: "", token });
      const who = await get("/players/me"); // who this token is
      remember({ ...who, token });
      app.route();
    } catch (err) {
      app.signOut();
      app.fail(err);
    }
  });
  return add(box, formBox, add(tokenBox, tokenForm));
}

// One click to a table with the player and computer players: a game, its seats, a level
// (each chosen already), and Play. The game starts at once; a decision waits 5 minutes.
function againstComputer(rulesets, app) {
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

function createForm(rulesets, app) {
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

// The leagues I play in or organize (GET /players/me/leagues), each a link to its page
// (join or decline an invitation, or leave, right here), and a link to the form that
// creates one.
function leaguesBox(list, app, reread) {
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
async function invitations(names, app) {
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

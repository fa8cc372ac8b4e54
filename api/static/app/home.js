// The home page: pick a name (or paste a token), my games (those waiting on me first, a
// league's game saying its league, round and table), the lobby, the leagues I play in or
// organize (links to their pages, and to a new league's form), and the form that creates a game of any
// ruleset with its options (drawn from the ruleset's options schema). It stays current by
// itself: the player's feed redraws my games and invitations when a note arrives (a turn,
// an invitation, a start, an end), every REFRESH_S my lists are read again (seats taken,
// which no note tells of), and the lobby every LOBBY_S. A status region says what became mine.
// The lists are drawn by homelists.js, the sign-in by signin.js, the new game's forms by newgame.js.
import { add, el } from "../shared/dom.js";
import { get, me } from "./api.js";
import { t } from "./i18n.js";
import { follow } from "./stream.js";
import { signal } from "./signal.js";
import { latest, whileShown } from "./refresh.js";
import { pushBox } from "./push.js";
import { inboxBox, settingsBox } from "./inbox.js";
import { slot } from "./leagueparts.js";
import { invitations, leaguesBox, lobbyBox, myGames } from "./homelists.js";
import { signIn } from "./signin.js";
import { againstComputer, createForm } from "./newgame.js";

const REFRESH_S = 15;
const LOBBY_S = 3; // a game opened elsewhere reaches the lobby within a few seconds

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


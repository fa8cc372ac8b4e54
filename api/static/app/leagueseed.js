// A league member's randomness (docs/fairness.md, "League seats"), without asking the person:
// a league seats its members itself, often while they are away, so this browser commits
// ahead of time. For each league the person plays in and that holds no commitment for them,
// it draws 32 random bytes `x`, keeps them here (localStorage, by league and player) and
// registers sha256 applied LINKS times to `x` (PUT /leagues/{id}/seat-commitment). On every
// page it then looks at the person's league tables whose reveals are open and reveals the
// link of the chain whose SHA-256 is the seat's logged commitment, so the table's draws
// take the member's randomness even when the member is on the home page, or another table.
// A league that already holds a commitment this browser did not make (another browser's)
// is left to that browser. Without Web Crypto nothing is registered: the seats show `none`.
import { get, me, post, put } from "./api.js";
import { hex } from "./seatseed.js";

const PREFIX = "marketfold.league-chain.";
const LINKS = 1000; // tables a chain serves: one link is revealed per league table
const WATCH_S = 4; // how often the person's waiting league tables are looked at (reveals stay open 15 s)
const LEAGUES_S = 60; // how often the person's leagues are looked at for one without a chain
const KEY = (leagueId) => `${PREFIX}${leagueId}.${(me() || {}).id || ""}`;
const bytesOf = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));

function kept(leagueId) {
  try {
    return localStorage.getItem(KEY(leagueId));
  } catch {
    return null;
  }
}

// Every link of the chain from `start` (hex): links[0] = x, links[k] = sha256^k(x).
async function links(start) {
  const out = [start];
  let at = bytesOf(start);
  for (let i = 0; i < LINKS; i += 1) {
    at = new Uint8Array(await crypto.subtle.digest("SHA-256", at));
    out.push(hex(at));
  }
  return out;
}

const crypted = () => globalThis.crypto && crypto.subtle && crypto.getRandomValues;

// Register a chain for each league the person plays in that holds none for them.
async function registerNow() {
  if (!crypted()) return;
  const leagues = await get("/players/me/leagues").then((d) => d.leagues || []).catch(() => []);
  for (const league of leagues) {
    if (!league.member || league.withdrawn_round || ["finished", "cancelled"].includes(league.status)) continue;
    const path = `/leagues/${encodeURIComponent(league.id)}/seat-commitment`;
    const held = await get(path).then((d) => d.seat_commitment).catch(() => undefined);
    if (held !== null) continue; // registered (this browser's or another's), or the league could not be read
    // The league holds none: a fresh chain, even where this browser keeps one (its PUT was
    // lost on the way, or the store lost it): a chain once held may have links revealed
    // in public, so registering it again would let anyone know the next reveal. A chain
    // whose PUT did arrive is held, and never replaced here.
    const start = hex(crypto.getRandomValues(new Uint8Array(32)));
    try {
      localStorage.setItem(KEY(league.id), start); // kept before the call: a lost answer must not lose it
    } catch {
      continue; // no storage: this member adds nothing here
    }
    const chain = await links(start);
    await put(path, { seat_commitment: chain[LINKS] }).catch(() => {});
  }
}

// registerNow, one run at a time (a join and the watcher may ask at once: two runs would
// each draw an `x` for the same league, and the one kept might not be the one registered).
let registering = Promise.resolve();
export function registerLeagueChains() {
  registering = registering.then(registerNow).catch(() => {});
  return registering;
}

// Reveal at each of the person's league tables whose reveals are open and that asks for a
// link of a chain this browser keeps.
async function reveal() {
  const games = await get("/players/me/games?status=waiting").then((d) => d.games || []).catch(() => []);
  for (const summary of games) {
    if (!summary.league || !kept(summary.league.id || summary.league)) continue;
    const game = await get(`/games/${encodeURIComponent(summary.id)}`).catch(() => null);
    const seeds = game && game.seat_seeds;
    const you = game && game.you;
    if (!seeds || !seeds.reveals_close_at || !Number.isInteger(you)) continue;
    if ((seeds.revealed || []).includes(you)) continue;
    const asked = (seeds.commitments || {})[String(you)];
    if (!asked) continue;
    const chain = await links(kept(game.league.id || game.league));
    const at = chain.indexOf(asked);
    if (at < 1) continue; // not this browser's chain: it cannot open it
    await post(`/games/${encodeURIComponent(game.id)}/reveal`, { seat_secret: chain[at - 1] }).catch(() => {});
  }
}

// On every page while signed in (and at once when the person joins a league, leagueparts.js
// leagueAnswer): register chains now and every LEAGUES_S seconds, and reveal
// at league tables every WATCH_S seconds while this browser keeps a chain. Return what
// stops it.
export function watchLeagueSeeds() {
  let busy = false;
  let since = Infinity;
  const keeps = () => {
    try {
      const mine = `.${(me() || {}).id || ""}`;
      return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i))
        .some((k) => k && k.startsWith(PREFIX) && k.endsWith(mine));
    } catch {
      return false;
    }
  };
  const tick = async () => {
    if (busy || !me() || !crypted()) return;
    busy = true;
    try {
      since += WATCH_S;
      if (since >= LEAGUES_S) {
        since = 0;
        await registerLeagueChains();
      }
      if (keeps()) await reveal();
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(tick, WATCH_S * 1000);
  tick();
  return () => clearInterval(timer);
}

// The seat's randomness (docs/fairness.md, "Seats' randomness"), without asking the person:
// joining a game draws 32 random bytes in this browser, sends their SHA-256 as the join's
// `seat_commitment` and keeps the bytes here (localStorage, by game id); once every seat is
// taken the table reveals them (POST /games/{id}/reveal), so they join the game's draws and
// neither the operator nor any one player chooses a shuffle. The key names the game and
// the player signed in, so two people sharing a browser keep a secret each. Every page, not
// only the table, looks after the secrets this browser keeps (`watchReveals`): a person
// whose tab shows the home page, a league or another game when the table fills still
// reveals. Where the browser has no Web
// Crypto digest (a page not served over HTTPS or from this machine) the seat commits to
// nothing and adds nothing: the game goes on the same.
import { get, me, post } from "./api.js";

const PREFIX = "marketfold.seat-secret.";
const KEY = (gameId) => `${PREFIX}${gameId}.${(me() || {}).id || ""}`;
const WATCH_S = 2; // how often the games this browser keeps a secret for are looked at
export const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

function stored(gameId) {
  try {
    return localStorage.getItem(KEY(gameId));
  } catch {
    return null;
  }
}

// A secret (hex; a fresh one of 32 random bytes unless given) and its commitment, as
// {secret, commitment}; null without Web Crypto.
export async function newSecret(given = null) {
  if (!globalThis.crypto || !crypto.subtle || !crypto.getRandomValues) return null;
  try {
    const bytes = given ? Uint8Array.from(given.match(/../g), (h) => parseInt(h, 16)) : crypto.getRandomValues(new Uint8Array(32));
    return { secret: hex(bytes), commitment: hex(await crypto.subtle.digest("SHA-256", bytes)) };
  } catch {
    return null;
  }
}

// Keep the seat's secret for the game until it is revealed (never over one kept already:
// the seat may have committed to that one).
export function keep(gameId, made) {
  try {
    if (made && !stored(gameId)) localStorage.setItem(KEY(gameId), made.secret);
  } catch {
    /* storage full or refused: this seat will add nothing */
  }
}

// Join `path` (a game's API path) with `body`, committing to the secret kept for game
// `gameId` (a fresh one, kept before the call: an answer lost on the way must not lose it;
// a retried join sends the same).
export async function joinCommitted(gameId, path, body) {
  const made = await newSecret(stored(gameId));
  keep(gameId, made);
  return post(`${path}/join`, made ? { ...(body || {}), seat_commitment: made.commitment } : body);
}

// Reveal this seat's secret when the game asks for it (every seat taken, reveals open, this
// seat committed and has not revealed); return true when a reveal was sent.
export async function revealIfAsked(game) {
  const seeds = game && game.seat_seeds;
  const you = game && game.you;
  if (!seeds || !seeds.reveals_close_at || !Number.isInteger(you)) return false;
  if (!(seeds.committed || []).includes(you) || (seeds.revealed || []).includes(you)) return false;
  const secret = stored(game.id);
  if (!secret) return false; // committed from another browser: that one reveals
  try {
    await post(`/games/${encodeURIComponent(game.id)}/reveal`, { seat_secret: secret });
  } catch {
    return false; // the window closed meanwhile: the game starts without it
  }
  drop(game.id); // public in the game's log from now on
  return true;
}

// The games this browser keeps an unrevealed secret for, of the player signed in.
function pendingGames() {
  const mine = `.${(me() || {}).id || ""}`;
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k && k.startsWith(PREFIX) && k.endsWith(mine)) out.push(k.slice(PREFIX.length, -mine.length));
    }
  } catch {
    /* no storage: nothing kept */
  }
  return out;
}

function drop(gameId) {
  try {
    localStorage.removeItem(KEY(gameId));
  } catch {
    /* nothing to tidy */
  }
}

// On every page: while this browser keeps a secret for a seat of the player signed in,
// read that game every WATCH_S seconds and reveal as soon as its reveals open; a secret
// for a game that started or was cancelled is dropped (it can add nothing now). Nothing is
// read while no secret is kept. Return what stops it.
export function watchReveals() {
  let busy = false;
  const tick = async () => {
    if (busy || !me()) return;
    busy = true;
    try {
      for (const gameId of pendingGames()) {
        let game = null;
        try {
          game = await get(`/games/${encodeURIComponent(gameId)}`);
        } catch (e) {
          if (e && e.status === 404) drop(gameId);
          continue;
        }
        if (await revealIfAsked(game)) continue;
        if (game.status !== "waiting") drop(gameId); // started or cancelled: too late to add it
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(tick, WATCH_S * 1000);
  tick();
  return () => clearInterval(timer);
}

// The seat's randomness (docs/fairness.md, "Seats' randomness"), without asking the person:
// joining a game draws 32 random bytes in this browser, sends their SHA-256 as the join's
// `seat_commitment` and keeps the bytes here (localStorage, by game id); once every seat is
// taken the table reveals them (POST /games/{id}/reveal), so they join the game's draws and
// neither the operator nor any one player chooses a shuffle. The key names the game and
// the player signed in, so two people sharing a browser keep a secret each. Where the browser has no Web
// Crypto digest (a page not served over HTTPS or from this machine) the seat commits to
// nothing and adds nothing: the game goes on the same.
import { me, post } from "./api.js";

const KEY = (gameId) => `marketfold.seat-secret.${gameId}.${(me() || {}).id || ""}`;
const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

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
  try {
    localStorage.removeItem(KEY(game.id)); // public in the game's log from now on
  } catch {
    /* nothing to tidy */
  }
  return true;
}

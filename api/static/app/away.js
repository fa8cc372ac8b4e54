// "While you were away": when a seated player comes back to a table, what happened to their
// seat since they last looked (a deadline that ran out and played the default for them, the
// moves of the others, the end of the game), in a few sentences. The last version seen of
// each game is kept in this browser (localStorage), nowhere else.
import { el, add } from "../shared/dom.js";
import { get } from "./api.js";
import { t } from "./i18n.js";

const KEY = (id) => `marketfold.seen.${id}`;

export function rememberSeen(game) {
  try {
    localStorage.setItem(KEY(game.id), String(game.version));
  } catch {
    /* private mode: nothing kept */
  }
}

function lastSeen(id) {
  try {
    const v = Number(localStorage.getItem(KEY(id)));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

// A box with the summary, or null when nothing happened (or this is the first visit).
export async function awaySummary(gameId, game, seatName) {
  const since = lastSeen(gameId);
  rememberSeen(game);
  if (since === null || !Number.isInteger(game.you) || game.version <= since) return null;
  let events = [];
  try {
    events = (await get(`/games/${encodeURIComponent(gameId)}/events?after=${since}`)).events || [];
  } catch {
    return null;
  }
  const you = game.you;
  const lines = [];
  const timedOut = events.filter((e) => e.type === "game.DecisionTimedOut" && e.data && e.data.seat === you).length;
  if (timedOut) lines.push(timedOut === 1 ? t("awayTimedOutOne") : t("awayTimedOut", { n: timedOut }));
  const moved = new Map(); // each other seat's actions (one command: one cause)
  for (const e of events) {
    if (!Number.isInteger(e.actor) || e.actor === you) continue;
    const causes = moved.get(e.actor) || new Set();
    causes.add(e.cause || e.seq);
    moved.set(e.actor, causes);
  }
  for (const [seat, { size: n }] of moved) lines.push(n === 1 ? t("awayMovedOne", { name: seatName(seat) }) : t("awayMoved", { name: seatName(seat), n }));
  if (events.some((e) => e.type === "game.Ended")) lines.push(t("awayEnded"));
  if ((game.owed || []).some((o) => o.seat === you)) lines.push(t("awayYourTurn"));
  if (!lines.length) return null;
  const box = add(el("section", "box away"), el("h2", null, t("awayTitle", { n: events.length })));
  box.setAttribute("role", "status");
  const list = add(el("ul"), ...lines.map((l) => el("li", null, l)));
  const dismiss = el("button", null, t("dismiss"));
  dismiss.type = "button";
  dismiss.addEventListener("click", () => box.remove());
  return add(box, list, dismiss);
}

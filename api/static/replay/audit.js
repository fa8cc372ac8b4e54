// The replay viewer as an audit tool: what kind of step each event is, which seat it
// concerns, the deadline an action or a default met, and the verification of the whole game
// (its export checked by POST /v1/verify, the same check as `marketfold verify`, the
// service's signature included), or of a bundle file the auditor opens.
// Pure helpers over the API's JSON; the replay viewer draws them (their words: ./words.js).
import { t, checkText } from "./words.js";

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// What an event is, for its mark in the list: a player's action, a step the rules took on
// their own after it, a default applied at a deadline, a phase resolved by a worker, a
// deadline extension, a lobby event, or a private step hidden from this viewer. `command`:
// the type of the command the event belongs to (`commandsOf`), as openapi.yaml documents
// it; the `cause` (a job's id for a worker's command) is opaque.
export function kindOf(ev, first, command = null) {
  if (ev.type === "hidden") return "hidden";
  if (ev.type === "game.DeadlineExtended") return "extension";
  if (ev.type === "game.DecisionTimedOut" || command === "expire") return "default";
  if (command === "resolve") return "resolution";
  if (ev.type.startsWith("game.")) return "lobby";
  return Number.isInteger(ev.actor) && first ? "action" : "auto";
}

const commandKey = (ev) => JSON.stringify([ev.actor, ev.cause, ev.at]);

// The type of the command each event belongs to, by seq (Map): the first envelope of a
// command carries `command`; the others share its actor, cause and time (a private step
// hidden from this viewer in between does not end it).
export function commandsOf(events) {
  const out = new Map();
  let current = null;
  for (const ev of events) {
    if (isObj(ev.command)) current = { key: commandKey(ev), type: ev.command.type };
    if (current && commandKey(ev) === current.key) out.set(ev.seq, current.type);
  }
  return out;
}

// The envelopes of one command share actor, cause and time; the first is the command's own.
export function firsts(events) {
  const out = new Set();
  let last = null;
  for (const ev of events) {
    const key = commandKey(ev);
    if (key !== last || ev.command) out.add(ev.seq);
    last = key;
  }
  return out;
}

// The seat an event concerns: the seat named in its data (who bid, who passed, whose
// deadline ran out), else for a player's own action that player; else none (the table).
export function concerns(ev, first) {
  const data = isObj(ev.data) ? ev.data : {};
  for (const key of ["seat", "winner", "proposer", "to_act"]) {
    if (Number.isInteger(data[key])) return data[key];
  }
  return first && Number.isInteger(ev.actor) ? ev.actor : null;
}

// The deadline an event met: for a player's action, the deadline of the decision that
// seat owed just before; for a default, the deadline that ran out. `before` is the game
// at the previous event (GET /state?at=seq-1).
export function deadline(ev, first, before) {
  if (!before || !Array.isArray(before.owed) || !ev.at) return null;
  let owed = null;
  if (ev.type === "game.DecisionTimedOut" && isObj(ev.data)) {
    owed = before.owed.find((o) => o.seat === ev.data.seat && o.deadline);
  } else if (first && Number.isInteger(ev.actor)) {
    owed = before.owed.find((o) => o.seat === ev.actor && o.deadline);
  }
  if (!owed) return null;
  const spare = (Date.parse(owed.deadline) - Date.parse(ev.at)) / 1000;
  const isDefault = ev.type === "game.DecisionTimedOut";
  // an action must come by its deadline; a default may not come before it
  const ok = isDefault ? spare <= 0 : spare >= 0;
  const n = Math.abs(spare).toFixed(1);
  const text = isDefault
    ? t(spare <= 0 ? "defaultAfter" : "defaultBefore", { n })
    : t(spare >= 0 ? "metWith" : "late", { n });
  return { deadline: owed.deadline, ok, text };
}

// The badge of a verifier's report: {state, text, seq}; the signature named when signed.
export function badgeOf(report) {
  const failed = (report.checks || []).find((c) => !c.ok);
  const signed = report.signed_by ? t("signedBy", { key: report.signed_by }) : t("notSigned");
  if (report.ok && !failed) {
    return { state: "ok", text: t("verifiedOk", { n: report.events, m: report.checks.length, signed }) };
  }
  const where = failed && Number.isInteger(failed.seq) ? t("atEvent", { n: failed.seq }) : "";
  const said = failed ? checkText(failed) : null;
  const why = said ? `${said.name}${where}: ${said.detail}` : t("refusedIt");
  return { state: "bad", text: t("notVerifiedWhy", { why, signed }), seq: failed ? failed.seq : null };
}

// Check a bundle file the auditor holds (its bytes as read) with the server's verifier.
export async function verifyFile(base, text) {
  const res = await fetch(`${base}/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream", Accept: "application/json" },
    body: text,
    credentials: "omit",
    cache: "no-store",
  });
  const report = await res.json();
  if (!res.ok) return { report: null, badge: { state: "bad", text: t("notBundle", { detail: report.detail || res.status }) } };
  return { report, badge: badgeOf(report) };
}

// Check the game's export with the server's verifier; {state, text, seq} for the badge.
export async function verify(api, base, finished) {
  if (!finished) {
    return { state: "pending", text: t("onceEnded") };
  }
  // the export's bytes exactly as downloaded go to the verifier
  const exported = await fetch(`${api}/export`, {
    headers: { Accept: "application/json" },
    credentials: "omit",
    cache: "no-store",
  });
  if (!exported.ok) return { state: "bad", text: t("couldNotExport", { status: exported.status }) };
  const res = await fetch(`${base}/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: await exported.text(),
    credentials: "omit",
    cache: "no-store",
  });
  const report = await res.json();
  if (!res.ok) return { state: "bad", text: t("notVerified", { detail: report.detail || res.status }) };
  return badgeOf(report);
}

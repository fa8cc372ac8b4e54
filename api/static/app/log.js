// What just happened, in words: the last events of the game as short sentences. Lobby events
// (a seat taken, a deadline run out, a resignation) have their own sentence; a game's own
// events read as "who: what · its facts", every card id named by its card.
import { el, add, isObj } from "../shared/dom.js";
import { t, word as human } from "./i18n.js";
import { seatLabel } from "./seats.js";

const KEEP = 12;
const GOODS = ["red", "yellow", "green", "blue", "purple", "orange"]; // in the games' order

// `first`: the event is the first of its command (the player's own action), so its actor
// did it; the automatic steps after it name only the seat their data names.
export function sentence(ev, name, first = true) {
  const d = isObj(ev.data) ? ev.data : {};
  const seat = (n) => name("seat", n);
  switch (ev.type) {
    case "game.Created": return t("created");
    case "game.PlayerJoined": return t("joined", { name: d.name ? seatLabel(d) : seat(d.seat) });
    case "game.PlayerLeft": return t("left", { name: seat(d.seat) });
    case "game.Started": return t("started");
    case "game.Ended": return t("ended");
    case "game.Cancelled": return t("cancelledEv");
    case "game.SeatResigned": return t("resigned", { name: seat(d.seat) });
    case "game.DecisionTimedOut": return t("timedOut", { name: seat(d.seat) });
    // a league's remedies: said with names and times, never a player id
    case "game.Paused": return t("pausedEv");
    case "game.Resumed": return t("resumedEv");
    case "game.SeatAway": return t("awayEv", { name: seat(d.seat), from: localTime(d.from), until: localTime(d.until) });
    case "game.SeatTaken": return t("seatTakenEv", { name: d.name || "?" });
    case "hidden": return t("hiddenEv");
    default: break;
  }
  // the seat the event is about: the one its data names, else the player who acted
  const subject = ["seat", "winner", "proposer"].find((k) => Number.isInteger(d[k]));
  const about = subject ? d[subject] : Number.isInteger(ev.actor) && first ? ev.actor : null;
  const who = Number.isInteger(about) ? `${seat(about)}: ` : "";
  // a flag that holds reads as its word alone ("forced"), one that does not is left out
  const facts = Object.entries(d)
    .filter(([k]) => k !== subject)
    .filter(([, v]) => v !== null && v !== undefined && v !== false && !(Array.isArray(v) && v.length > 6))
    .slice(0, 5)
    .map(([k, v]) => (v === true ? human(k).toLowerCase() : `${human(k).toLowerCase()} ${short(k, v, name)}`))
    .join(" · ");
  const bare = String(ev.type).replace(/^[a-z0-9-]+\./, "");
  const named = t(`ev_${bare}`);
  return `${who}${named === `ev_${bare}` ? human(ev.type) : named}${facts ? ` — ${facts}` : ""}`;
}

// An ISO time as a person reads it, in the page's language (as given, if it is not one).
function localTime(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? String(iso) : when.toLocaleString(document.documentElement.lang || undefined);
}

function short(k, v, name) {
  if (Array.isArray(v)) return v.length ? v.map((x) => short(k, x, name)).join(", ") : t("none");
  if (isObj(v) && Number.isInteger(v.seat)) {
    const rest = Object.entries(v).filter(([f, x]) => f !== "seat" && typeof x !== "object");
    return [name("seat", v.seat), ...rest.map(([f, x]) => short(f, x, name))].join(" ");
  }
  if (isObj(v) && (v.name || v.id)) return v.name || v.id;
  if (isObj(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== null && x !== undefined && typeof x !== "object");
    if (entries.length && entries.every(([c]) => GOODS.includes(c))) { // goods by colour: "2 red, 1 blue"
      const held = GOODS.map((c) => [c, v[c]]).filter(([, n]) => n);
      return held.length ? held.map(([c, n]) => `${n} ${t(`good_${c}`)}`).join(", ") : t("none");
    }
    return entries.slice(0, 4).map(([f, x]) => `${human(f).toLowerCase()} ${short(f, x, name)}`).join(", ") || t("none");
  }
  if (typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v)) return localTime(v); // a time, as a person reads it
  if (typeof v === "boolean") return `${human(k).toLowerCase()} ${v ? t("yes") : t("no")}`; // words, not ✓ ✗: a screen reader says them
  return name(k, v);
}

export function createLog(list, name) {
  const shown = [];
  return {
    push(ev) {
      if (shown.some((x) => x.seq === ev.seq)) return;
      shown.push(ev);
      shown.sort((a, b) => a.seq - b.seq);
      while (shown.length > KEEP) shown.shift();
      this.draw();
    },
    draw() {
      // the envelopes of one command share actor, cause and time; the first is the action
      const firsts = new Set();
      let last = null;
      for (const ev of shown) {
        const key = JSON.stringify([ev.actor, ev.cause, ev.at]);
        if (key !== last || ev.command) firsts.add(ev.seq);
        last = key;
      }
      list.replaceChildren(...shown.slice().reverse().map((ev) => {
        const li = el("li", `ev${ev.type === "game.DecisionTimedOut" ? " timed-out" : ""}`);
        li.dataset.seq = ev.seq;
        li.dataset.type = ev.type;
        return add(li, el("span", "ev-n", ev.seq), el("span", null, sentence(ev, name, firsts.has(ev.seq))));
      }));
    },
  };
}

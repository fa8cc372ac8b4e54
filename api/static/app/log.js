// What just happened, in words: the last events of the game as short sentences. Lobby events
// (a seat taken, a deadline run out, a resignation) have their own sentence, and so has the
// final score; each event of the four games reads as its sentence in words_log.js ("Ana bid
// 5 coins."), every card id named by its card, every seat by its player's name, every other
// value by its words (words_values.js). An event with no sentence there (an archived
// version's) reads as "who: what — its facts".
import { el, add, isObj } from "../shared/dom.js";
import { t, lang, goodsOf, word as human } from "./i18n.js";
import { seatLabel } from "./seats.js";
import { LOG_LINES } from "./words_log.js";

const KEEP = 12;
const GOODS = ["red", "yellow", "green", "blue", "purple", "orange"]; // in the games' order
// the games' event fields whose small integers are seats (beyond the drawing's seat keys,
// which the page's `name` knows), and the events whose `by` is a seat
const SEATS = new Set(["seat", "from", "to", "partner", "proposer", "starter", "target", "acceptors", "answerers",
  "sellers", "eligible", "joined", "declined", "players", "responders", "turns", "winners", "bidders", "order", "seats",
  "opener", "next_opener", "high_bidder", "to_act"]);
const BY_SEAT = new Set(["gobcon.PlayCancelled"]);
// a private offer's or a decision's internal id; a deal's legs (its give and take say it)
const HIDDEN_FIELDS = new Set(["id", "key", "legs"]);
const SCORED = new Set(["GameScored", "GameFinished"]);

// The page's name of a value of the log (`name(field, value)`): a colour of goods by its word,
// a seat by its player (`isSeat(field, value)`), a card id by its card (`glossed(id)`).
export function namer({ seatName, glossed, isSeat }) {
  const name = (k, v) => {
    if (Array.isArray(v)) return v.length ? v.map((x) => name(k, x)).join(", ") : t("nothing");
    if (GOODS.includes(v)) return t(`good_${v}`); // a colour of goods, in the page's language
    if (typeof v === "number" && isSeat(k, v)) return seatName(v);
    if (typeof v === "string") return (glossed(v) || {}).name || v;
    return v === null || v === undefined ? "—" : String(v);
  };
  return name;
}

// A value's words from the tables (val_<field>_<value>), or null when there are none.
export function valueWord(k, v) {
  const key = `val_${k}_${v}`;
  const said = t(key);
  return said === key ? null : said;
}

const list = (items) => (items.length > 1
  ? t("listAnd", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] }) : items.join(""));

// The final score: "Final score: Ana 4 points and Bo 5 points. Winner: Bo."
function scored(d, seat) {
  const rows = (Array.isArray(d.scores) ? d.scores : []).filter((r) => isObj(r) && Number.isInteger(r.seat));
  const points = rows.map((r) => {
    const n = Number.isInteger(r.score) ? r.score : r.total;
    return t(n === 1 ? "pointsOne" : "pointsOf", { name: seat(r.seat), n });
  });
  const winners = (Array.isArray(d.winners) ? d.winners : []).map(seat);
  const why = typeof d.reason === "string" ? valueWord("reason", d.reason) : null;
  const won = winners.length ? t(winners.length > 1 ? "winnersAre" : "winnerIs", { names: list(winners) }) : "";
  const head = why ? t("endedWhy", { why }) : t("finalScore");
  return `${head} ${list(points)}.${won ? ` ${won}` : ""}`;
}

// The end of the game, with its winners by name when the result names them.
function ended(d, seat) {
  const res = isObj(d.result) ? d.result : {};
  const winners = (Array.isArray(res.winners) ? res.winners : []).filter(Number.isInteger).map(seat);
  if (!winners.length) return t("ended");
  return `${t("ended")}. ${t(winners.length > 1 ? "winnersAre" : "winnerIs", { names: list(winners) })}`;
}

// The table's own events beyond the commonest: their name, the seat they concern, their words.
function lobby(bare, d, seat) {
  const when = (v) => timeOf(v) || String(v);
  if (bare === "DeadlineExtended") {
    const seats = Array.isArray(d.seats) ? list(d.seats.map(seat)) : "";
    const why = typeof d.reason === "string" ? valueWord("reason", d.reason) : null;
    return t("extendedEv", { names: seats || t("nothing"), time: when(d.new_deadline) }) + (why ? ` (${why})` : "");
  }
  if (bare === "SeatAway") return t("awayEv", { name: seat(d.seat), from: when(d.from), until: when(d.until) });
  if (bare === "SeatTaken") return t("seatTakenEv", { name: d.name || seat(d.seat) });
  if (bare === "Claimed") return t("claimedEv", { name: seat(d.seat) });
  if (bare === "SeedRevealed") return t("revealedEv", { name: seat(d.seat) });
  const seats = (k) => (Array.isArray(d[k]) ? d[k].filter(Number.isInteger).map(seat) : []);
  const also = (parts) => parts.filter(Boolean).join("; ");
  if (bare === "SeedsCombined") {
    const withheld = seats("withheld");
    const none = seats("none");
    return also([t("combinedEv"), withheld.length && t("withheldEv", { names: list(withheld), n: withheld.length }),
      none.length && t("uncommittedEv", { names: list(none), n: none.length })]);
  }
  if (bare === "Terms") {
    return also([t("termsEv"), d.unlisted && t("termsPrivate"),
      d.reserved_until && t("termsReserved", { time: when(d.reserved_until) })]);
  }
  if (bare === "InvitationDeclined") return t("declinedEv");
  if (bare === "ReservationsLapsed") return also([t("lapsedEv"), d.listed && t("lapsedListed")]);
  const named = t(`ev_${bare}`);
  return named === `ev_${bare}` ? human(bare) : named;
}

// `first`: the event is the first of its command (the player's own action), so its actor
// did it; the automatic steps after it name only the seat their data names.
export function sentence(ev, name, first = true) {
  const d = isObj(ev.data) ? ev.data : {};
  const seat = (n) => name("seat", n);
  switch (ev.type) {
    case "game.Created": return t("created");
    case "game.PlayerJoined": return t("joined", { name: d.name ? seatLabel(d) : seat(d.seat) });
    case "game.PlayerLeft": return t("left", { name: seat(d.seat) });
    case "game.Started": return Array.isArray(d.order) && d.order.length
      ? t("startedOrder", { names: list(d.order.map(seat)) }) : t("started");
    case "game.Ended": return ended(d, seat);
    case "game.Cancelled": return t("cancelledEv");
    case "game.RevealsOpened": return Array.isArray(d.seats) && d.seats.length
      ? t("revealsOpenedEv", { names: list(d.seats.map(seat)) }) : t("ev_RevealsOpened");
    case "game.SeatResigned": return t("resigned", { name: seat(d.seat) });
    case "game.DecisionTimedOut": return t("timedOut", { name: seat(d.seat) });
    // a league's remedies: said with names and times, never a player id
    case "game.Paused": return t("pausedEv");
    case "game.Resumed": return t("resumedEv");
    case "hidden": return t("hiddenEv");
    default: break;
  }
  const bare = String(ev.type).replace(/^[a-z0-9-]+\./, "");
  if (String(ev.type).startsWith("game.")) return lobby(bare, d, seat);
  const named = t(`ev_${bare}`);
  const what = named === `ev_${bare}` ? human(ev.type) : named;
  if (SCORED.has(bare) && Array.isArray(d.scores)) return scored(d, seat);
  const line = LOG_LINES[ev.type];
  if (line) {
    const about = Number.isInteger(d.seat) ? d : { ...d, seat: Number.isInteger(ev.actor) && first ? ev.actor : d.seat };
    const said = line[lang() === "es" ? 1 : 0](sayer(about, name)).replace(/([!?])\.$/, "$1");
    return startsWithName(said, name) ? said : said.charAt(0).toUpperCase() + said.slice(1);
  }
  // the seat the event is about: the one its data names, else the player who acted
  const subject = ["seat", "winner", "proposer"].find((k) => Number.isInteger(d[k]));
  const about = subject ? d[subject] : Number.isInteger(ev.actor) && first ? ev.actor : null;
  const who = Number.isInteger(about) ? `${seat(about)}: ` : "";
  const ctx = { name, bySeat: BY_SEAT.has(ev.type), bare };
  // a flag that holds reads as its word alone ("forced"), one that does not is left out
  const facts = Object.entries(d)
    .filter(([k]) => k !== subject && !HIDDEN_FIELDS.has(k))
    .filter(([, v]) => v !== null && v !== undefined && v !== false && !(Array.isArray(v) && v.length > 6))
    .slice(0, 5)
    .map(([k, v]) => (v === true ? label(k, ctx) : `${label(k, ctx)} ${short(k, v, ctx)}`))
    .join(" · ");
  return `${who}${what}${facts ? ` — ${facts}` : ""}`;
}

// A sentence that opens with a player's name keeps it as the player wrote it ("zoe answered").
const startsWithName = (said, name) => [...Array(8).keys()].map((i) => name("seat", i))
  .some((n) => typeof n === "string" && n && said.startsWith(n));

// The sayer of an event's data for its sentence (words_log.js): each field in words.
function sayer(d, name) {
  const es = lang() === "es";
  const nobody = es ? "nadie" : "nobody";
  const has = (k) => d[k] !== null && d[k] !== undefined && d[k] !== false && !(Array.isArray(d[k]) && !d[k].length)
    && !(isObj(d[k]) && !Object.values(d[k]).some((n) => n));
  const one = (k, v) => (Number.isInteger(v) ? name("seat", v) : nobody);
  const colour = (c) => (GOODS.includes(c) ? t(`good_${c}`) : String(c ?? "—"));
  const s = {
    has,
    n: (k) => (typeof d[k] === "number" ? d[k] : 0),
    len: (k) => (Array.isArray(d[k]) ? d[k].length : 0),
    who: (k = "seat") => one(k, d[k]),
    all: (k) => {
      const v = Array.isArray(d[k]) ? d[k] : [];
      const said = v.map((x) => (Number.isInteger(x) ? name("seat", x) : colour(x)));
      return said.length ? list(said) : nobody;
    },
    cards: (k) => {
      const v = Array.isArray(d[k]) ? d[k] : [d[k]];
      const said = v.filter((x) => x !== null && x !== undefined).map((x) => name("card", x));
      return said.length ? list(said) : t("nothing");
    },
    good: (k) => colour(d[k]),
    goods: (k) => {
      const held = GOODS.map((c) => [c, isObj(d[k]) ? d[k][c] : 0]).filter(([, n]) => n);
      return held.length ? list(held.map(([c, n]) => goodsOf(c, n))) : t("nothing");
    },
    // colours on a track: "red on row 4, yellow on row 2"
    rows: (k, unit) => {
      const held = GOODS.map((c) => [c, isObj(d[k]) ? d[k][c] : null]).filter(([, n]) => Number.isInteger(n) && (unit === "row" || n));
      const at = { row: es ? "fila" : "row", step: es ? "paso" : "step" }[unit];
      return held.length ? held.map(([c, n]) => `${colour(c)} ${es ? "en" : "on"} ${at} ${n}`).join(", ") : t("nothing");
    },
    word: (k) => (typeof d[k] === "string" ? valueWord(k, d[k]) || name(k, d[k]) : String(d[k] ?? "—")),
    words: (k) => list((Array.isArray(d[k]) ? d[k] : [d[k]]).map((v) => valueWord(k, v) || String(v))),
    each: (k, f, sep = ", ") => {
      const v = (Array.isArray(d[k]) ? d[k] : []).filter(isObj).map((x) => f(sayer(x, name)));
      return v.length ? v.join(sep) : nobody;
    },
  };
  return s;
}

// A field's name in the log: the event's own word for it when it has one ("cancelled by" for
// GobCon's PlayCancelled `by`), else the field's name in words.
function label(k, ctx) {
  const key = `field_${ctx.bare}_${k}`;
  const said = t(key);
  return said === key ? human(k).toLowerCase() : said;
}

const isSeatField = (k, ctx) => SEATS.has(k) || (k === "by" && ctx.bySeat);

function short(k, v, ctx) {
  const { name } = ctx;
  if (Array.isArray(v)) return v.length ? v.map((x) => short(k, x, ctx)).join(", ") : t("none");
  if (isObj(v) && Number.isInteger(v.seat)) { // one seat's facts, each by what it is: "Ana amount 3"
    const rest = Object.entries(v).filter(([f, x]) => f !== "seat" && x !== null && (typeof x !== "object" || isGoods(x)));
    return [name("seat", v.seat), ...rest.map(([f, x]) => (typeof x === "boolean" ? short(f, x, ctx)
      : `${label(f, ctx)} ${short(f, x, ctx)}`))].join(" ");
  }
  if (isObj(v) && (v.name || v.id)) return v.name || v.id;
  if (isObj(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== null && x !== undefined && typeof x !== "object");
    if (isGoods(v)) { // goods by colour: "2 red, 1 blue"
      const held = GOODS.map((c) => [c, v[c]]).filter(([, n]) => n);
      return held.length ? held.map(([c, n]) => goodsOf(c, n)).join(", ") : t("none");
    }
    return entries.slice(0, 4).map(([f, x]) => `${label(f, ctx)} ${short(f, x, ctx)}`).join(", ") || t("none");
  }
  const when = timeOf(v);
  if (when) return when;
  if (typeof v === "boolean") return `${human(k).toLowerCase()} ${v ? t("yes") : t("no")}`; // words, not ✓ ✗: a screen reader says them
  if (Number.isInteger(v) && isSeatField(k, ctx)) return name("seat", v);
  if (typeof v === "string") return valueWord(k, v) || name(k, v);
  return name(k, v);
}

// a time (ISO 8601) as a person reads it in the page's language, or null
export function timeOf(v) {
  if (typeof v !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v)) return null;
  const when = new Date(v);
  return Number.isNaN(when.getTime()) ? null : when.toLocaleString(document.documentElement.lang || undefined);
}

// goods by colour ({red: 2, blue: 0}), an object of numbers keyed by the goods' colours
function isGoods(v) {
  if (!isObj(v)) return false;
  const entries = Object.entries(v).filter(([, x]) => x !== null && x !== undefined && typeof x !== "object");
  return entries.length > 0 && entries.every(([c]) => GOODS.includes(c));
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

// How a game's view is drawn, for any ruleset and without game-specific code (docs/replay.md):
// cards, seats (one row per seat), counters, tallies, tables of objects of one shape and
// labelled groups. Shared by the replay viewer and the web client's table. `createDraw(ctx)`
// takes ctx.seatName(n), ctx.seatCount(), ctx.glossary() and ctx.words (labels in the
// page's language). Every value is set as text.
import { el, add, isObj, human as humanKey, LABELS } from "./dom.js";
import { createCards } from "./cards.js";

// Keys whose small integers are seat numbers (seat, winners, high_bidder, to_act, order...).
const SEAT_KEY =
  /(^|_)(seats?|winners?|bidders?|openers?|to_act|actors?|order|passed|received|holders?|leaders?|dealers?|turn|owner)($|_)/;
export const SHOWN_ELSEWHERE = new Set(["game", "name", "you", "owed"]);
const COLOURS = new Set(["red", "yellow", "green", "blue", "purple", "orange", "white", "black"]);
const ENGLISH = { yes: "yes", no: "no", seat: "seat", none: "none", toAct: "to act", winner: "★ winner", you: "you", hidden: "hidden", table: "Table" };

export function createDraw(ctx) {
  const words = { ...ENGLISH, ...(ctx.words || {}) };
  const labels = { ...LABELS, ...(ctx.labels || {}) };
  const human = (k) => humanKey(k, labels);
  const cards = createCards(ctx.glossary, ctx.words || {});
  const { SUITS, card, cardBack, hand, suitMark, glossed } = cards;
  const seatCount = ctx.seatCount;
  const seatName = ctx.seatName;

  // A Decktet card (rank, suits) or a card with a rules text (GobCon, Black Market).
  const isCard = (v) =>
    isObj(v) &&
    ("id" in v || "name" in v) &&
    (Array.isArray(v.suits) || "rank" in v || (typeof v.text === "string" && typeof v.name === "string"));
  const isCards = (v) => Array.isArray(v) && v.length > 0 && v.every(isCard);
  const isSeatNo = (v) => Number.isInteger(v) && v >= 0 && v < seatCount();
  const isSeatKey = (k) => SEAT_KEY.test(String(k));
  const isTally = (v) =>
    isObj(v) && Object.keys(v).length > 0 && Object.values(v).every((x) => typeof x === "number");

  // A list with one object per seat entry ({seat: n, ...}), or a dict keyed "0".."n-1".
  function perSeat(v) {
    if (Array.isArray(v) && v.length > 0 && v.every((x) => isObj(x) && isSeatNo(x.seat))) {
      return v.map((x) => [x.seat, x]);
    }
    if (isObj(v) && !isCard(v) && Object.keys(v).length > 0) {
      const keys = Object.keys(v);
      if (keys.every((k) => /^[0-9]+$/.test(k) && isSeatNo(Number(k)))) {
        return keys.map((k) => [Number(k), v[k]]);
      }
    }
    return null;
  }

  // ---- drawing values ----------------------------------------------------------------------

  function seatChip(n) {
    const chip = el("span", `seat-chip s${n % 8}`, seatName(n));
    chip.dataset.seatRef = n;
    return chip;
  }

  function counter(key, n) {
    const node = el("span", "counter");
    if (/coin|gold|money|cash/.test(key)) node.classList.add("coins");
    node.dataset.key = key;
    add(node, el("span", "num", n), el("span", "lbl", human(key)));
    return node;
  }

  function tally(key, v, labelled) {
    const node = el("span", labelled ? "tally labelled" : "tally");
    node.dataset.key = key;
    node.title = human(key);
    if (labelled) node.appendChild(el("span", "tally-lbl", human(key)));
    for (const [k, n] of Object.entries(v)) {
      const item = el("span", n ? "tally-item" : "tally-item zero");
      if (SUITS.includes(k)) add(item, suitMark(k));
      else if (COLOURS.has(k)) {
        const cube = el("i", `cube cube-${k}`);
        cube.title = k;
        add(item, cube);
      }
      else add(item, el("span", "tally-key", human(k)));
      add(item, el("b", null, n));
      node.appendChild(item);
    }
    return node;
  }

  function empty(text) {
    return el("span", "muted", text || words.none);
  }

  // Draw any value: cards, seats, numbers, lists and nested objects.
  function value(key, v, parent) {
    if (v === null || v === undefined) {
      if (parent && parent[`has_${key}`] === true) return cardBack(`${human(key)} (${words.hidden})`);
      return empty("—");
    }
    if (typeof v === "boolean") return el("span", v ? "flag yes" : "flag no", v ? words.yes : words.no);
    if (typeof v === "number") return isSeatKey(key) && isSeatNo(v) ? seatChip(v) : el("b", "n", v);
    if (typeof v === "string") {
      const known = glossed(v);
      if (!known) return el("span", "text", ctx.labels && ctx.labels[v] ? ctx.labels[v] : v);
      const node = el("span", "card-ref", known.name); // a card named by id: its name and text
      node.title = `${v}\n${known.text}`;
      return node;
    }
    if (isCard(v)) return card(v);
    if (Array.isArray(v)) return list(key, v);
    const seats = perSeat(v);
    if (seats) return seatLines(seats);
    if (isTally(v)) return tally(key, v);
    return group(v);
  }

  function list(key, v) {
    if (v.length === 0) return empty();
    if (isCards(v)) return hand(v);
    if (isSeatKey(key) && v.every(isSeatNo)) return add(el("span", "chips"), ...v.map(seatChip));
    const seats = perSeat(v);
    if (seats) return seatLines(seats);
    if (v.every((x) => typeof x !== "object" || x === null)) {
      return add(el("span", "chips"), ...v.map((x) => el("span", "chip", x === null ? "—" : x)));
    }
    const keys = isObj(v[0]) ? Object.keys(v[0]) : [];
    const uniform = keys.length > 1 && keys.length <= 12 &&
      v.every((x) => isObj(x) && !isCard(x) && JSON.stringify(Object.keys(x)) === JSON.stringify(keys));
    if (uniform) return rows(keys, v); // objects of one shape: one table row each
    const box = el("ol", "items");
    const small = (x) => isObj(x) && !isCard(x) && Object.keys(x).length <= 6;
    for (const x of v) {
      if (!small(x)) {
        box.appendChild(add(el("li"), value(key, x)));
        continue;
      }
      const line = el("li", "item-line"); // a small object on one line: "under A · seat p1 · card ?"
      for (const [k, y] of Object.entries(x)) {
        add(line, add(el("span", "kv"), el("span", "k", human(k)), value(k, y, x)));
      }
      box.appendChild(line);
    }
    return box;
  }

  function rows(keys, items) {
    const table = el("table", "rows");
    table.tabIndex = 0; // a wide table scrolls inside its panel: reachable by keyboard
    const head = el("tr");
    for (const k of keys) head.appendChild(el("th", null, human(k)));
    table.appendChild(add(el("thead"), head));
    const body = el("tbody");
    for (const x of items) {
      const tr = el("tr");
      for (const k of keys) tr.appendChild(add(el("td"), value(k, x[k], x)));
      body.appendChild(tr);
    }
    return add(table, body);
  }

  // Small per-seat entries inside a panel, e.g. bids: "p2 · amount 16".
  function seatLines(seats) {
    const box = el("div", "seat-lines");
    for (const [n, item] of seats) {
      const line = add(el("div", "seat-line"), seatChip(n));
      if (isObj(item)) {
        for (const [k, x] of Object.entries(item)) {
          if (k === "seat") continue;
          add(line, add(el("span", "kv"), el("span", "k", human(k)), value(k, x, item)));
        }
      } else {
        add(line, value("", item));
      }
      box.appendChild(line);
    }
    return box;
  }

  function group(obj) {
    const box = el("dl", "group");
    for (const [k, v] of Object.entries(obj)) {
      add(box, el("dt", null, human(k)), add(el("dd"), value(k, v, obj)));
    }
    return box;
  }

  // ---- drawing a view ----------------------------------------------------------------------

  function panel(title, key, wide) {
    const box = el("section", wide ? "panel wide" : "panel");
    if (key) box.dataset.key = key;
    box.appendChild(el("h3", null, title));
    return box;
  }

  function seatRow(n, item, ctx) {
    const row = el("div", "seat-row");
    row.dataset.seat = n;
    const who = add(el("div", "who"), seatChip(n)); // the player by name, never a seat number
    const tags = el("div", "tags");
    const owes = ctx.owed.filter((o) => o.seat === n);
    if (owes.length) {
      row.classList.add("to-act");
      add(tags, el("span", "tag act", `${words.toAct}: ${owes.map((o) => human(o.kind)).join(", ")}`));
    }
    if (ctx.winners.includes(n)) add(tags, el("span", "tag win", words.winner));
    if (ctx.you === n) add(tags, el("span", "tag you", words.you));
    add(who, tags);
    const stats = el("div", "stats");
    const cards = el("div", "cards");
    const rest = el("dl", "group");
    const fields = isObj(item) ? Object.entries(item) : [["value", item]];
    for (const [k, v] of fields) {
      if (k === "seat") continue;
      if (typeof v === "number" && !isSeatKey(k)) stats.appendChild(counter(k, v));
      else if (isTally(v)) stats.appendChild(tally(k, v, true));
      else if (isCards(v) || isCard(v) || (Array.isArray(v) && /card|hand|aces?$/.test(k))) {
        const cell = add(el("div", "cards-of"), el("span", "lbl", human(k)));
        cell.dataset.key = k;
        add(cell, isCard(v) ? card(v) : value(k, v, item));
        cards.appendChild(cell);
      } else add(rest, el("dt", null, human(k)), add(el("dd"), value(k, v, item)));
    }
    if (rest.childElementCount) stats.appendChild(rest);
    return add(row, who, stats, cards);
  }

  function seatPanel(key, seats, ctx) {
    const box = panel(human(key), key, true);
    box.classList.add("seats");
    for (const [n, item] of seats) box.appendChild(seatRow(n, item, ctx));
    return box;
  }

  function drawView(view, ctx) {
    const out = el("div", "view");
    const facts = panel(words.table, "table", false);
    const counters = el("div", "facts");
    const factList = el("dl", "group");
    add(facts, counters, factList);
    const panels = [];
    const seatPanels = [];
    for (const [k, v] of Object.entries(view)) {
      if (SHOWN_ELSEWHERE.has(k)) continue;
      const seats = Array.isArray(v) || isObj(v) ? perSeat(v) : null;
      const once = seats && new Set(seats.map(([n]) => n)).size === seats.length;
      if (once && seats.every(([, x]) => isObj(x) && Object.keys(x).length > 2)) {
        seatPanels.push(seatPanel(k, seats, ctx));
      } else if (typeof v === "number" && !isSeatKey(k)) {
        counters.appendChild(counter(k, v));
      } else if (isObj(v) && !isCard(v) && !isTally(v) && !seats) {
        panels.push(add(panel(human(k), k), group(v)));
      } else if (seats) {
        panels.push(add(panel(human(k), k), seatLines(seats)));
      } else if (isCards(v) || isCard(v)) {
        panels.push(add(panel(human(k), k, isCards(v) && v.length > 2), value(k, v, view)));
      } else {
        const dd = add(el("dd"), value(k, v, view));
        dd.dataset.key = k;
        add(factList, el("dt", null, human(k)), dd);
      }
    }
    if (!counters.childElementCount) counters.remove();
    const grid = el("div", "panels");
    add(grid, counters.childElementCount || factList.childElementCount ? facts : null, ...panels);
    // the web client shows the shared objects (auction, market, hand) above the seats
    return ctx.panelsFirst ? add(out, grid, ...seatPanels) : add(out, ...seatPanels, grid);
  }

  // What a seat's view shows beyond the spectator's: the keys that differ and, in per-seat
  // lists, only the seats' entries (and fields) that differ.
  function ownPart(view, pub) {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const out = {};
    for (const [k, v] of Object.entries(view)) {
      if (SHOWN_ELSEWHERE.has(k) || same(v, pub[k])) continue;
      const mine = Array.isArray(v) || isObj(v) ? perSeat(v) : null;
      const theirs = pub[k] && (Array.isArray(pub[k]) || isObj(pub[k])) ? perSeat(pub[k]) : null;
      if (mine && theirs) {
        const public_ = new Map(theirs);
        out[k] = mine
          .filter(([n, x]) => !same(x, public_.get(n)))
          .map(([n, x]) => {
            const p = public_.get(n);
            if (!isObj(x) || !isObj(p)) return x;
            const fields = Object.entries(x).filter(([f, y]) => f === "seat" || !same(y, p[f]));
            return Object.fromEntries(fields);
          });
      } else if (isObj(v) && isObj(pub[k]) && !isCard(v)) {
        out[k] = Object.fromEntries(Object.entries(v).filter(([f, y]) => !same(y, pub[k][f])));
      } else if (Array.isArray(v) && Array.isArray(pub[k]) && v.length === pub[k].length) {
        out[k] = v.filter((x, i) => !same(x, pub[k][i])); // only the entries this seat saw
      } else out[k] = v;
    }
    return out;
  }

  return {
    ...cards, human, isCard, isCards, isSeatNo, isSeatKey, isTally, perSeat, seatChip, counter,
    tally, empty, value, list, rows, seatLines, group, panel, seatRow, drawView, ownPart,
  };
}

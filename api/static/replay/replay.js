// The replay viewer: steps through one game's history, drawing the table after each event.
// It reads the public API only: GET /v1/games/{id}/events once, and
// GET /v1/games/{id}/state?at=N per step (cached). Without a pasted token it is a spectator.
// Every value from the server goes into the page as text (textContent), never as HTML.
"use strict";

(() => {
  const TOKEN_KEY = "marketfold.replay.token";
  // Keys whose small integers are seat numbers (seat, winners, high_bidder, to_act, order...).
  const SEAT_KEY =
    /(^|_)(seats?|winners?|bidders?|openers?|to_act|actors?|order|passed|received|holders?|leaders?|dealers?|turn|owner)($|_)/;
  const SHOWN_ELSEWHERE = new Set(["game", "name", "you", "owed"]);
  // Labels for keys a view abbreviates (Black Market's player areas).
  const LABELS = { aside: "Set aside", vp: "VP space", production: "Production", storage: "Storage" };
  const COLOURS = new Set(["red", "yellow", "green", "blue", "purple", "orange", "white", "black"]);
  const audit = window.replayAudit;
  // Cards are drawn by cards.js, with the names and texts of the step shown (st.glossary).
  const { SUITS, card, cardBack, hand, suitMark, glossed } = window.replayCards({
    el,
    add,
    glossary: () => st.glossary,
  });

  const where = location.pathname.match(/^(.*)\/games\/([A-Za-z0-9_-]{1,64})\/replay\/?$/);
  const base = where ? where[1] : "";
  const gameId = where ? where[2] : "";
  const api = `${base}/v1/games/${encodeURIComponent(gameId)}`;

  const st = {
    events: [], // the envelopes, in order
    bySeq: new Map(),
    version: 0,
    seq: 0, // the step asked for
    shown: 0, // the step drawn
    cache: new Map(), // seq -> Promise of the state JSON
    names: new Map(), // seat -> name
    perspective: "public", // "public", "all" or a seat number (finished games)
    playing: 0, // a new number each time play starts; 0 when paused
    game: null,
    glossary: {}, // card id -> {name, text}, from the state's `cards`
    catalogue: {}, // the ruleset's card list (GET /v1/rulesets/{ruleset}/cards), by id
    firsts: new Set(), // seqs of the first envelope of each command
  };
  const $ = (id) => document.getElementById(id);

  // ---- small DOM helpers ----------------------------------------------------------------

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function add(parent, ...children) {
    for (const c of children) if (c) parent.appendChild(c);
    return parent;
  }

  function human(key) {
    if (LABELS[key]) return LABELS[key];
    const words = String(key)
      .replace(/^[a-z0-9-]+\./, "")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/_/g, " ")
      .toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // ---- what a value is -------------------------------------------------------------------

  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
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

  function seatCount() {
    const g = st.game;
    return Math.max(g ? g.players || 0 : 0, g && g.seats ? g.seats.length : 0, st.names.size);
  }

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

  function seatName(n) {
    return st.names.get(n) || `seat ${n}`;
  }

  // ---- drawing values ----------------------------------------------------------------------

  function seatChip(n) {
    const chip = el("span", `seat-chip s${n % 8}`, seatName(n));
    chip.title = `seat ${n}`;
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
    return el("span", "muted", text || "none");
  }

  // Draw any value: cards, seats, numbers, lists and nested objects.
  function value(key, v, parent) {
    if (v === null || v === undefined) {
      if (parent && parent[`has_${key}`] === true) return cardBack(`${human(key)} (hidden)`);
      return empty("—");
    }
    if (typeof v === "boolean") return el("span", v ? "flag yes" : "flag no", v ? "yes" : "no");
    if (typeof v === "number") return isSeatKey(key) && isSeatNo(v) ? seatChip(v) : el("b", "n", v);
    if (typeof v === "string") {
      const known = glossed(v);
      if (!known) return el("span", "text", v);
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
    const who = add(el("div", "who"), seatChip(n), el("span", "seat-no", `seat ${n}`));
    const tags = el("div", "tags");
    const owes = ctx.owed.filter((o) => o.seat === n);
    if (owes.length) {
      row.classList.add("to-act");
      add(tags, el("span", "tag act", `to act: ${owes.map((o) => human(o.kind)).join(", ")}`));
    }
    if (ctx.winners.includes(n)) add(tags, el("span", "tag win", "★ winner"));
    if (ctx.you === n) add(tags, el("span", "tag you", "you"));
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
    const facts = panel("Table", "table", false);
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
    add(out, ...seatPanels);
    if (!counters.childElementCount) counters.remove();
    const grid = el("div", "panels");
    add(grid, counters.childElementCount || factList.childElementCount ? facts : null, ...panels);
    return add(out, grid);
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

  function context(game, view, seat) {
    const res = game.result || {};
    const winners = Array.isArray(res.winners)
      ? res.winners
      : view && Array.isArray(view.winners)
        ? view.winners
        : [];
    return { owed: game.owed || [], winners, you: seat === undefined ? game.you : seat };
  }

  function drawTable(game) {
    const table = $("table");
    table.replaceChildren();
    if (!game.view) {
      const box = panel("Seats", "seats", true);
      const seated = game.seats || [];
      add(box, el("p", "muted", `${seated.length} of ${game.players} seats filled. ` +
        "The table is dealt when every seat is taken."));
      add(box, add(el("span", "chips"), ...seated.map((s) => seatChip(s.seat))));
      table.appendChild(box);
      return;
    }
    const views = Array.isArray(game.views) ? game.views : null;
    if (!views || st.perspective === "public") {
      table.appendChild(drawView(game.view, context(game, game.view)));
    } else if (st.perspective === "all") {
      add(table, el("h2", "view-head", "The table as everyone saw it"));
      table.appendChild(drawView(game.view, context(game, game.view)));
      views.forEach((v, n) => {
        const head = add(el("h2", "view-head"), el("span", null, "Only "), seatChip(n), el("span", null, " saw"));
        const own = ownPart(v, game.view);
        const body = Object.keys(own).length
          ? drawView(own, context(game, v, n))
          : add(el("div", "view"), el("p", "muted", "nothing more than the table above"));
        body.classList.add("own");
        add(table, head, body);
      });
    } else {
      const n = Number(st.perspective);
      table.appendChild(drawView(views[n], context(game, views[n], n)));
    }
  }

  function drawPerspective(game) {
    const box = $("perspective");
    const views = Array.isArray(game.views) && game.view ? game.views : null;
    box.hidden = !views;
    box.replaceChildren();
    if (!views) return;
    const same = (v) => JSON.stringify({ ...v, you: null }) === JSON.stringify({ ...game.view, you: null });
    add(box, el("span", "k", "This game has ended, so every seat's view is open at every step. Show:"));
    const choices = [["public", "spectator"], ...views.map((v, n) => [String(n), seatName(n), same(v)]),
      ["all", "all seats"]];
    for (const [id, label, isSame] of choices) {
      const b = el("button", id === String(st.perspective) ? "tab on" : "tab", label);
      b.type = "button";
      b.dataset.perspective = id;
      if (isSame) b.title = "this seat saw the same as a spectator here";
      if (isSame) b.appendChild(el("small", null, " (same)"));
      b.addEventListener("click", () => {
        st.perspective = id;
        draw(st.game);
      });
      box.appendChild(b);
    }
  }

  function drawSummary(game) {
    const box = $("summary");
    box.replaceChildren();
    const status = el("span", `badge ${game.status}`, game.status);
    status.id = "step-status";
    add(box, add(el("span", "fact"), el("span", "k", "At event"),
      el("b", "n", `${game.version} of ${st.version}`)), status);
    if (game.view && typeof game.view.phase === "string") {
      add(box, add(el("span", "fact"), el("span", "k", "Phase"), el("b", null, human(game.view.phase))));
    }
    const turn = add(el("span", "fact turn"), el("span", "k", "Turn"));
    turn.id = "turn";
    if (game.owed && game.owed.length) {
      for (const o of game.owed) {
        const t = add(el("span", "owe"), seatChip(o.seat), el("span", "muted", human(o.kind)));
        if (o.deadline) t.appendChild(el("span", "muted", ` until ${o.deadline}`));
        turn.appendChild(t);
      }
    } else {
      turn.appendChild(empty(game.status === "finished" ? "game over" : "no decision owed"));
    }
    box.appendChild(turn);
    if (game.order && game.order.length) {
      add(box, add(el("span", "fact"), el("span", "k", "Order"),
        add(el("span", "chips"), ...game.order.map(seatChip))));
    }
  }

  function drawResult(game) {
    const box = $("result");
    box.replaceChildren();
    if (!game.result) return;
    const res = game.result;
    const p = panel("Result", "result", true);
    p.classList.add("result");
    if (Array.isArray(res.standings)) {
      const ol = el("ol", "standings");
      for (const s of res.standings) {
        const li = el("li", (res.winners || []).includes(s.seat) ? "won" : null);
        li.dataset.seat = s.seat;
        add(li, el("span", "place", s.place), seatChip(s.seat));
        for (const [k, v] of Object.entries(s)) {
          if (k !== "place" && k !== "seat") add(li, add(el("span", "kv"), el("span", "k", human(k)), value(k, v, s)));
        }
        ol.appendChild(li);
      }
      p.appendChild(ol);
    }
    const rest = Object.fromEntries(Object.entries(res).filter(([k]) => k !== "standings"));
    if (Object.keys(rest).length) {
      const more = add(el("details", "more"), el("summary", null, "Full result"));
      more.appendChild(group(rest));
      p.appendChild(more);
    }
    box.appendChild(p);
  }

  function drawCurrentEvent(seq) {
    const box = $("current-event");
    box.replaceChildren();
    const ev = st.bySeq.get(seq);
    if (!ev) return;
    const first = st.firsts.has(seq);
    const kind = audit.kindOf(ev, first);
    const p = panel(`Event ${seq}: ${human(ev.type)}`, "event", true);
    p.classList.add(`k-${kind}`);
    const line = el("p", "ev-meta");
    add(line, el("span", `ev-kind k-${kind}`, audit.LABELS[kind]), el("code", null, ev.type));
    const seat = audit.concerns(ev, first);
    if (Number.isInteger(seat)) add(line, el("span", "muted", " concerns "), seatChip(seat));
    if (Number.isInteger(ev.actor) && (!first || seat !== ev.actor)) {
      add(line, el("span", "muted", " after an action of "), seatChip(ev.actor));
    }
    if (ev.redacted) add(line, el("span", "tag hidden", "hidden from this viewer"));
    p.appendChild(line);
    const when = el("p", "ev-time");
    when.id = "ev-time";
    add(when, el("span", "k", "Time "), el("b", null, ev.at || "—"));
    p.appendChild(when);
    if (seq > 1 && ev.at) {
      stateAt(seq - 1)
        .then((before) => {
          const met = audit.deadline(ev, first, before);
          if (!met || st.seq !== seq) return;
          const note = el("span", met.ok ? "deadline ok" : "deadline bad", ` · deadline ${met.deadline}: ${met.text}`);
          note.id = "ev-deadline";
          when.appendChild(note);
        })
        .catch(() => {});
    }
    if (isObj(ev.data) && Object.keys(ev.data).length) p.appendChild(group(ev.data));
    else p.appendChild(empty("no data shown"));
    const raw = add(el("details", "more"), el("summary", null, "Envelope (JSON)"));
    raw.appendChild(el("pre", "json", JSON.stringify(ev, null, 2)));
    p.appendChild(raw);
    box.appendChild(p);
  }

  function actor(a) {
    return Number.isInteger(a) ? seatChip(a) : el("span", "system", a || "system");
  }

  function draw(game) {
    for (const s of game.seats || []) st.names.set(s.seat, s.name);
    st.glossary = { ...st.catalogue, ...(isObj(game.cards) ? game.cards : {}) };
    $("game-name").textContent = `${game.name} replay`;
    document.title = `${game.name} replay · ${game.id}`;
    const you = game.you;
    $("viewer").textContent = Number.isInteger(you)
      ? `viewing as ${seatName(you)} (seat ${you})`
      : token() ? "token not seated here: spectator view" : "spectator view";
    drawSummary(game);
    drawResult(game);
    drawPerspective(game);
    drawTable(game);
    drawCurrentEvent(game.version);
  }

  // ---- the event list ------------------------------------------------------------------------

  function short(k, v) {
    if (v === null || v === undefined) return "—";
    if (typeof v === "number") return isSeatKey(k) && isSeatNo(v) ? seatName(v) : String(v);
    if (typeof v === "string") {
      const name = glossed(v) ? glossed(v).name : v;
      return name.length > 28 ? `${name.slice(0, 26)}…` : name;
    }
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (isCard(v)) return v.name || v.id;
    if (Array.isArray(v)) {
      if (v.length === 0) return "none";
      if (v.length <= 3 && v.every((x) => typeof x !== "object" || isCard(x))) {
        return v.map((x) => short(k, x)).join(", ");
      }
      return `${v.length} items`;
    }
    return "…";
  }

  function summary(ev) {
    if (!isObj(ev.data)) return "";
    const parts = Object.entries(ev.data).map(([k, v]) => `${human(k).toLowerCase()} ${short(k, v)}`);
    const text = parts.join(" · ");
    return text.length > 90 ? `${text.slice(0, 89)}…` : text;
  }

  function drawEvents() {
    const ol = $("events");
    ol.replaceChildren();
    for (const ev of st.events) {
      const first = st.firsts.has(ev.seq);
      const kind = audit.kindOf(ev, first);
      const li = el("li", `ev k-${kind}${ev.type.startsWith("game.") ? " sys" : ""}`);
      li.dataset.seq = ev.seq;
      li.dataset.kind = kind;
      const b = el("button", "ev-btn");
      b.type = "button";
      b.title = `${ev.type} · ${audit.LABELS[kind]}${ev.at ? ` · ${ev.at}` : ""}`;
      const title = el("span", "ev-t", human(ev.type));
      if (ev.redacted) add(title, el("span", "tag hidden", "hidden"));
      if (kind !== "action" && kind !== "lobby" && kind !== "hidden") {
        add(title, el("span", `ev-kind k-${kind}`, audit.LABELS[kind]));
      }
      const seat = audit.concerns(ev, first);
      const who = Number.isInteger(seat) ? seatChip(seat) : actor(ev.actor === "hidden" ? "hidden" : "system");
      who.classList.add("ev-who");
      add(b, el("span", "ev-n", ev.seq), title, who);
      const time = ev.at ? el("span", "ev-at", ev.at.slice(11, 19)) : null;
      add(b, add(el("span", "ev-s"), time, el("span", null, summary(ev))));
      b.addEventListener("click", () => {
        pause();
        go(ev.seq);
      });
      ol.appendChild(add(li, b));
    }
  }

  function markEvents(seq) {
    const ol = $("events");
    for (const li of ol.children) {
      const n = Number(li.dataset.seq);
      li.classList.toggle("past", n < seq);
      li.classList.toggle("current", n === seq);
      if (n === seq) {
        li.setAttribute("aria-current", "step");
        const top = li.offsetTop;
        if (top < ol.scrollTop || top + li.offsetHeight > ol.scrollTop + ol.clientHeight) {
          ol.scrollTop = Math.max(0, top - ol.clientHeight / 3);
        }
      } else li.removeAttribute("aria-current");
    }
  }

  // ---- fetching ------------------------------------------------------------------------------

  function token() {
    try {
      return localStorage.getItem(TOKEN_KEY) || "";
    } catch {
      return "";
    }
  }

  async function getJSON(url) {
    const headers = { Accept: "application/json" };
    const t = token();
    if (t) headers.Authorization = `Bearer ${t}`;
    const res = await fetch(url, { headers, credentials: "omit", cache: "no-store" });
    let body = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (!res.ok) {
      const why = body && body.detail ? body.detail : res.statusText;
      const hint = res.status === 401 && t ? " (the pasted token was refused; forget it to watch)" : "";
      const error = new Error(`${res.status} ${why}${hint}`);
      if (res.status === 429 || res.status === 503) {
        error.retryAfter = Math.min(60, Number(res.headers.get("Retry-After")) || 2);
      }
      throw error;
    }
    return body;
  }

  function stateAt(n) {
    if (!st.cache.has(n)) {
      const promise = getJSON(`${api}/state?at=${n}`);
      promise.catch(() => st.cache.delete(n));
      st.cache.set(n, promise);
    }
    return st.cache.get(n);
  }

  function showError(e) {
    const box = $("error");
    box.textContent = e ? String(e.message || e) : "";
    box.hidden = !e;
  }

  // ---- stepping ------------------------------------------------------------------------------

  const clamp = (n) => Math.min(Math.max(1, Math.round(n) || 1), Math.max(1, st.version));

  async function go(n) {
    n = clamp(n);
    st.seq = n;
    $("slider").value = String(n);
    $("seq").textContent = String(n);
    markEvents(n);
    document.body.classList.add("loading");
    let game;
    try {
      game = await stateAt(n);
    } catch (e) {
      if (st.seq === n) {
        document.body.classList.remove("loading");
        showError(e.retryAfter ? new Error(`${e.message}; retrying in ${e.retryAfter} s`) : e);
        if (e.retryAfter) setTimeout(() => st.seq === n && go(n), e.retryAfter * 1000);
      }
      return;
    }
    if (st.seq !== n) return; // the user moved on meanwhile
    showError(null);
    st.game = game;
    draw(game);
    st.shown = n;
    $("table").dataset.seq = String(n);
    document.body.classList.remove("loading");
    if (location.hash !== `#at=${n}`) history.replaceState(null, "", `#at=${n}`);
    if (n < st.version) stateAt(n + 1).catch(() => {}); // so the next step is instant
  }

  function pause() {
    st.playing = 0;
    $("play").textContent = "▶ Play";
    $("play").classList.remove("on");
  }

  async function play() {
    if (st.seq >= st.version) await go(1);
    const run = Date.now();
    st.playing = run;
    $("play").textContent = "‖ Pause";
    $("play").classList.add("on");
    while (st.playing === run && st.seq < st.version) {
      await new Promise((done) => setTimeout(done, Number($("speed").value)));
      if (st.playing !== run) return;
      await go(st.seq + 1);
    }
    if (st.playing === run) pause();
  }

  function hashSeq() {
    const m = location.hash.match(/^#at=([0-9]{1,9})$/);
    return m ? Number(m[1]) : 0;
  }

  async function start() {
    pause();
    st.cache.clear();
    st.events = [];
    $("events").replaceChildren();
    if (!gameId) return showError(new Error("this page must be opened at /games/<id>/replay"));
    $("game-id").textContent = gameId;
    let data;
    try {
      data = await getJSON(`${api}/events`);
    } catch (e) {
      return showError(e);
    }
    st.events = data.events;
    st.version = data.version;
    st.bySeq = new Map(st.events.map((e) => [e.seq, e]));
    st.firsts = audit.firsts(st.events);
    try {
      const ruleset = (await stateAt(1)).ruleset;
      const listed = await getJSON(`${base}/v1/rulesets/${encodeURIComponent(ruleset)}/cards`);
      st.catalogue = Object.fromEntries(listed.cards.map((c) => [c.id, { name: c.name, text: c.text }]));
      st.glossary = { ...st.catalogue };
    } catch {
      st.catalogue = {}; // names then come from each step's own `cards`
    }
    for (const e of st.events) {
      if (e.type === "game.PlayerJoined" && isObj(e.data) && Number.isInteger(e.data.seat)) {
        st.names.set(e.data.seat, String(e.data.name || `seat ${e.data.seat}`));
      }
    }
    $("slider").max = String(Math.max(1, st.version));
    $("total").textContent = String(st.version);
    const ended = st.events.some((e) => e.type === "game.Ended");
    const started = st.events.some((e) => e.type === "game.Started");
    const now = ended ? "finished" : started ? "active" : "waiting";
    $("status").textContent = `now ${ended ? "finished" : started ? "in play" : "waiting for players"}`;
    $("status").className = `badge ${now}`;
    const link = $("export");
    link.hidden = !ended;
    if (ended) link.href = `${api}/export`;
    drawEvents();
    verifyGame(ended);
    drawChat();
    await go(hashSeq() || 1);
  }

  async function verifyGame(ended) {
    const badge = $("verified");
    badge.className = "verify pending";
    badge.textContent = ended ? "verifying…" : "not verified yet";
    let out;
    try {
      out = await audit.verify(api, base, ended);
    } catch (e) {
      out = { state: "bad", text: `could not verify: ${e.message || e}` };
    }
    badge.className = `verify ${out.state}`;
    badge.textContent = out.state === "ok" ? `✓ ${out.text}` : out.state === "bad" ? `✗ ${out.text}` : out.text;
    badge.dataset.state = out.state;
    badge.onclick = Number.isInteger(out.seq) ? () => (pause(), go(out.seq)) : null;
  }

  // The table chat (what the viewer may read): text is set with textContent, never as HTML.
  async function drawChat() {
    let data;
    try {
      data = await getJSON(`${api}/chat`);
    } catch {
      return; // the replay works without it
    }
    const items = (data.messages || []).map((m) => {
      const li = el("li", `chat-${m.channel === "spectators" ? "spectators" : "players"}`);
      add(li, el("b", "who", String(m.name || m.player)), el("span", "text", String(m.text)));
      return li;
    });
    $("chat").replaceChildren(...(items.length ? items : [empty("no messages")]));
  }

  function wire() {
    $("first").addEventListener("click", () => (pause(), go(1)));
    $("back").addEventListener("click", () => (pause(), go(st.seq - 1)));
    $("step").addEventListener("click", () => (pause(), go(st.seq + 1)));
    $("last").addEventListener("click", () => (pause(), go(st.version)));
    $("play").addEventListener("click", () => (st.playing ? pause() : play()));
    // While the slider is dragged, show the number at once and fetch once it rests.
    let resting = 0;
    $("slider").addEventListener("input", (e) => {
      pause();
      const n = clamp(Number(e.target.value));
      $("seq").textContent = String(n);
      clearTimeout(resting);
      resting = setTimeout(() => go(n), 120);
    });
    window.addEventListener("hashchange", () => {
      const n = hashSeq();
      if (n && n !== st.seq) go(n);
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input, select, textarea, summary") || e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = {
        ArrowLeft: () => go(st.seq - 1),
        ArrowRight: () => go(st.seq + 1),
        Home: () => go(1),
        End: () => go(st.version),
      };
      if (e.key === " " && !e.target.closest("button")) {
        e.preventDefault();
        return st.playing ? pause() : play();
      }
      if (keys[e.key]) {
        e.preventDefault();
        pause();
        keys[e.key]();
      }
    });
    const box = $("token-box");
    const mark = () => {
      box.querySelector("summary").textContent = token() ? "View as a player (token set)…" : "View as a player…";
    };
    mark();
    $("token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const t = $("token-input").value.trim();
      $("token-input").value = "";
      try {
        if (t) localStorage.setItem(TOKEN_KEY, t);
      } catch {
        showError(new Error("this browser does not allow storing the token"));
      }
      mark();
      box.open = false;
      start();
    });
    $("token-forget").addEventListener("click", () => {
      try {
        localStorage.removeItem(TOKEN_KEY);
      } catch {
        /* nothing stored */
      }
      mark();
      start();
    });
  }

  wire();
  start();
})();

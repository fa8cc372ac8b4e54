// The replay viewer's panels: the table at the step shown (from any seat's perspective once
// the game has ended), the summary line, the result, the current event and the event list.
// `createPanels(app)` takes the viewer's state and helpers (replay.js).
import { el, add, isObj } from "../shared/dom.js";
import * as audit from "./audit.js";

export function createPanels(app) {
  const { st, $, d, stateAt, token, seatName } = app;
  const { human, panel, seatChip, drawView, ownPart, value, group, empty, isSeatKey, isSeatNo, isCard, glossed } = d;
  const pause = () => app.pause();
  const go = (n) => app.go(n);

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
    $("step-said").textContent = `Event ${seq} of ${$("total").textContent}: ${human(ev.type)}`;
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
    const data = isObj(ev.data) ? Object.fromEntries(Object.entries(ev.data).map(([k, v]) => [k, person(v)])) : null;
    if (data && Object.keys(data).length) p.appendChild(group(data));
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

  // a player id (the game's creator, a seat's player) read as the player's name
  const person = (v) => (typeof v === "string" && st.players && st.players.has(v) ? st.players.get(v) : v);

  function short(k, v) {
    v = person(v);
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

  return { draw, drawEvents, markEvents };
}

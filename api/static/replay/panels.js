// The replay viewer's panels: the table at the step shown (from any seat's perspective once
// the game has ended), the summary line, the result, the current event and the event list.
// `createPanels(app)` takes the viewer's state and helpers (replay.js).
import { el, add, isObj } from "../shared/dom.js";
import * as audit from "./audit.js";
import { t, eventName, kindName } from "./words.js";
import { namer, sentence, timeOf } from "../app/log.js";

export function createPanels(app) {
  const { st, $, d, stateAt, token, seatName } = app;
  // the drawing of the page's language (app.d is made again when the language changes)
  const { human, panel, seatChip, drawView, ownPart, value, group, empty, isSeatKey, isSeatNo, glossed } = app.d;
  // an event told as the table's log tells it (app/log.js), players by name; a part hidden
  // from this viewer keeps the event's name, its data being withheld
  const name = namer({ seatName, glossed: (v) => glossed(v), isSeat: (k, v) => isSeatKey(k) && isSeatNo(v) });
  const told = (ev, first) => (ev.redacted ? eventName(ev.type) : sentence(ev, name, first));
  const localTime = (v) => timeOf(v) || String(v);
  // a time as the reader reads it, the exact instant kept for machines (<time datetime>)
  const stamp = (iso, shown, cls = null) => {
    const node = el("time", cls, shown);
    node.dateTime = iso;
    return node;
  };
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
      const box = panel(t("seats"), "seats", true);
      const seated = game.seats || [];
      add(box, el("p", "muted", t("seatsFilled", { n: seated.length, m: game.players })));
      add(box, add(el("span", "chips"), ...seated.map((s) => seatChip(s.seat))));
      table.appendChild(box);
      return;
    }
    const views = Array.isArray(game.views) ? game.views : null;
    if (!views || st.perspective === "public") {
      table.appendChild(drawView(game.view, context(game, game.view)));
    } else if (st.perspective === "all") {
      add(table, el("h2", "view-head", t("asEveryone")));
      table.appendChild(drawView(game.view, context(game, game.view)));
      views.forEach((v, n) => {
        const head = add(el("h2", "view-head"), el("span", null, t("only")), seatChip(n), el("span", null, t("saw")));
        const own = ownPart(v, game.view);
        const body = Object.keys(own).length
          ? drawView(own, context(game, v, n))
          : add(el("div", "view"), el("p", "muted", t("nothingMore")));
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
    add(box, el("span", "k", t("endedOpen")));
    const choices = [["public", t("spectator")], ...views.map((v, n) => [String(n), seatName(n), same(v)]),
      ["all", t("allSeats")]];
    for (const [id, label, isSame] of choices) {
      const b = el("button", id === String(st.perspective) ? "tab on" : "tab", label);
      b.type = "button";
      b.dataset.perspective = id;
      if (isSame) b.title = t("sameAsSpectator");
      if (isSame) b.appendChild(el("small", null, t("same")));
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
    const status = el("span", `badge ${game.status}`, t(`status_${game.status}`));
    status.id = "step-status";
    add(box, add(el("span", "fact"), el("span", "k", t("atEventK")),
      el("b", "n", t("nOfM", { n: game.version, m: st.version }))), status);
    const turn = add(el("span", "fact turn"), el("span", "k", t("turn")));
    turn.id = "turn";
    if (game.owed && game.owed.length) {
      for (const o of game.owed) {
        const owe = add(el("span", "owe"), seatChip(o.seat), el("span", "muted", kindName(o.kind)));
        if (o.deadline) owe.appendChild(el("span", "muted", t("until", { time: localTime(o.deadline) })));
        turn.appendChild(owe);
      }
    } else {
      turn.appendChild(empty(game.status === "finished" ? t("gameOver") : t("noDecision")));
    }
    box.appendChild(turn);
    if (game.order && game.order.length) {
      add(box, add(el("span", "fact"), el("span", "k", t("order")),
        add(el("span", "chips"), ...game.order.map(seatChip))));
    }
  }

  function drawResult(game) {
    const box = $("result");
    box.replaceChildren();
    if (!game.result) return;
    const res = game.result;
    const p = panel(t("result"), "result", true);
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
      const more = add(el("details", "more"), el("summary", null, t("fullResult")));
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
    const kind = audit.kindOf(ev, first, st.commands.get(ev.seq));
    $("step-said").textContent = t("eventNofM", { n: seq, m: $("total").textContent, name: told(ev, first) });
    const p = panel(t("eventN", { n: seq, name: eventName(ev.type) }), "event", true);
    p.classList.add(`k-${kind}`);
    p.appendChild(el("p", "ev-told", told(ev, first)));
    const line = el("p", "ev-meta");
    // its type (game.Ended) is the auditor's: in the envelope below, folded away
    add(line, el("span", `ev-kind k-${kind}`, t(`kind_${kind}`)));
    const seat = audit.concerns(ev, first);
    if (Number.isInteger(seat)) add(line, el("span", "muted", t("concerns")), seatChip(seat));
    if (Number.isInteger(ev.actor) && (!first || seat !== ev.actor)) {
      add(line, el("span", "muted", t("afterAction")), seatChip(ev.actor));
    }
    if (ev.redacted) add(line, el("span", "tag hidden", t("hiddenFromViewer")));
    p.appendChild(line);
    const when = el("p", "ev-time");
    when.id = "ev-time";
    add(when, el("span", "k", t("time")), ev.at ? add(el("b"), stamp(ev.at, localTime(ev.at))) : el("b", null, "—"));
    p.appendChild(when);
    if (seq > 1 && ev.at) {
      stateAt(seq - 1)
        .then((before) => {
          const met = audit.deadline(ev, first, before);
          if (!met || st.seq !== seq) return;
          const note = el("span", met.ok ? "deadline ok" : "deadline bad", t("deadlineNote", { time: localTime(met.deadline), text: met.text }));
          note.id = "ev-deadline";
          when.appendChild(note);
        })
        .catch(() => {});
    }
    const data = isObj(ev.data) ? Object.fromEntries(Object.entries(ev.data).map(([k, v]) => [k, person(v)])) : null;
    if (data && Object.keys(data).length) p.appendChild(group(data));
    else p.appendChild(empty(t("noData")));
    const raw = add(el("details", "more"), el("summary", null, t("envelope")));
    raw.appendChild(el("pre", "json", JSON.stringify(ev, null, 2)));
    p.appendChild(raw);
    box.appendChild(p);
  }

  function actor(a) {
    return Number.isInteger(a) ? seatChip(a) : el("span", "system", a === "hidden" ? t("hidden") : t("system"));
  }

  function draw(game) {
    for (const s of game.seats || []) st.names.set(s.seat, s.name);
    st.glossary = { ...st.catalogue, ...(isObj(game.cards) ? game.cards : {}) };
    $("game-name").textContent = t("replayOf", { name: game.name });
    document.title = t("docTitle", { name: game.name, id: game.id });
    const you = game.you;
    $("viewer").textContent = Number.isInteger(you)
      ? t("viewingAs", { name: seatName(you), n: you })
      : token() ? t("tokenNotSeated") : t("spectatorView");
    drawSummary(game);
    drawResult(game);
    drawPerspective(game);
    drawTable(game);
    drawCurrentEvent(game.version);
  }

  // ---- the event list ------------------------------------------------------------------------

  // a player id (the game's creator, a seat's player) read as the player's name
  // and a time as a person reads it in the page's language
  const person = (v) => (typeof v === "string" && st.players && st.players.has(v) ? st.players.get(v) : timeOf(v) || v);

  function drawEvents() {
    const ol = $("events");
    ol.replaceChildren();
    for (const ev of st.events) {
      const first = st.firsts.has(ev.seq);
      const kind = audit.kindOf(ev, first, st.commands.get(ev.seq));
      const li = el("li", `ev k-${kind}${ev.type.startsWith("game.") ? " sys" : ""}`);
      li.dataset.seq = ev.seq;
      li.dataset.kind = kind;
      const b = el("button", "ev-btn");
      b.type = "button";
      b.title = `${t(`kind_${kind}`)}${ev.at ? ` · ${localTime(ev.at)}` : ""}`;
      const title = el("span", "ev-t", told(ev, first));
      if (ev.redacted) add(title, el("span", "tag hidden", t("hidden")));
      if (kind !== "action" && kind !== "lobby" && kind !== "hidden") {
        add(title, el("span", `ev-kind k-${kind}`, t(`kind_${kind}`)));
      }
      const seat = audit.concerns(ev, first);
      const who = Number.isInteger(seat) ? seatChip(seat) : actor(ev.actor === "hidden" ? "hidden" : "system");
      who.classList.add("ev-who");
      add(b, el("span", "ev-n", ev.seq), title, who);
      const time = ev.at ? stamp(ev.at, new Date(ev.at).toLocaleTimeString(document.documentElement.lang || undefined), "ev-at") : null;
      add(b, add(el("span", "ev-s"), time, el("span", null, eventName(ev.type))));
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

// A table: one game as its seat (or a spectator) sees it, live. It reads GET /games/{id}
// (view, owed, deadlines, result) and GET .../legal when the seat owes a decision once, then
// follows the event stream with its table frames (`?with=table`: the game and the legal
// actions after each append) and draws each from the frame, reading nothing per event; it
// reads the game again only when a frame it awaits does not come. The view is drawn with
// the drawing shared with the replay viewer.
import { el, add, isObj } from "../shared/dom.js";
import { createDraw } from "../shared/draw.js";
import { get, post, del, act, me } from "./api.js";
import { revealIfAsked } from "./seatseed.js";
import { claimText, t, labels, problemWords, cardWords } from "./i18n.js";
import { follow } from "./stream.js";
import { drawActions } from "./actions.js";
import { createLog, namer } from "./log.js";
import { createChat } from "./chat.js";
import { drawResult, lobbyButtons, seatLabel } from "./seats.js";
import { signal } from "./signal.js";
import { watchRematch } from "./rematch.js";
import { leagueTag } from "./leagueparts.js";
import { clockNotes } from "./leaguevacation.js";
import { readDisputes, disputeForm } from "./leaguedisputes.js";
import { drawBoard, suitLegend } from "./board.js";
import { statusSentence } from "./status.js";
import { createCardDetail } from "./carddetail.js";
import { awaySummary, rememberSeen } from "./away.js";
import { rulesLink } from "./optionhelp.js";
import { keepReceipt, fetchReceipt, keptReceipt, receiptLine } from "./receipt.js";

const catalogues = new Map(); // ruleset + language -> {id: {name, text}}
const GAP_MS = 3000; // how long a table frame may lag the event it follows before a read

export async function drawTable(root, gameId, app, secret = null) {
  const path = `/games/${encodeURIComponent(gameId)}`;
  // typed: what a person typed in the move box's fields, kept when the box is drawn again
  // (after a refusal, after another seat's move) until an action goes through
  const st = { game: null, legal: null, names: new Map(), glossary: {}, refusal: "", busy: false, sent: false, typed: new Map(), leagues: {} };
  const seatName = (n) => st.names.get(n) || `${t("seat")} ${n}`;
  const seatCount = () => (st.game ? st.game.players : 0);
  const d = createDraw({
    seatName,
    seatCount,
    glossary: () => st.glossary,
    labels: labels(),
    words: {
      yes: t("yes"), no: t("no"), seat: t("seat"), none: t("none"), toAct: t("toAct"), winner: t("winner"), you: t("you"), hidden: t("hidden"), table: t("table"),
      worth: t("worth"), type_item: t("type_item"), type_friend: t("type_friend"), type_game: t("type_game"), type_special: t("type_special"),
      ...cardWords(),
    },
  });
  const name = namer({ seatName, glossed: (v) => d.glossed(v), isSeat: (k, v) => d.isSeatKey(k) && d.isSeatNo(v) });

  const page = el("div", "table-page");
  const head = el("header", "table-head");
  const turn = el("div", "turn-bar");
  turn.id = "turn";
  // the decision named in one sentence ("Bid for The Savage and The Castle, or pass")
  const decision = el("p", "decision");
  decision.id = "decision";
  // What a screen reader is told, once each time it changes: whose turn it is and, when
  // the reader's own deadline gets short, how short. Not the turn bar itself, whose
  // countdowns change every second and whose redraw follows every event.
  const said = el("p", "sr-only");
  said.id = "turn-said";
  said.setAttribute("role", "status");
  const told = { turn: "", deadline: "" }; // the last turn said, the deadline warned of
  const result = el("div");
  result.id = "result";
  const disputing = el("div"); // a league table's "Dispute this game" (leaguedisputes.js)
  disputing.id = "dispute-slot";
  const offer = el("div"); // a rematch another former player offered (rematch.js)
  offer.id = "rematch-offer";
  offer.setAttribute("role", "status");
  let rematch = null; // stops following the offers
  const move = el("section", "box move");
  move.id = "move";
  move.setAttribute("aria-labelledby", "move-title");
  const board = el("div", "board"); // the generic drawing, for a ruleset board.js does not know
  board.id = "board-view";
  // each game drawn as its game (board.js): the middle of the table, the seat's own hand and
  // resources beside its move box, the opponents around
  const middle = el("div", "middle-slot");
  const mineSlot = el("div", "mine-slot");
  const others = el("div", "others-slot");
  const detail = createCardDetail(() => st.glossary);
  const away = el("div");
  away.id = "away";
  const clock = el("div"); // a league table stopped by its organizers, seats away on vacation
  clock.id = "clock-notes";
  const side = el("aside", "side");
  const logBox = add(el("section", "box log-box"), el("h2", null, t("lastEvents")));
  const logList = el("ol", "recent");
  logList.id = "log";
  logBox.appendChild(logList);
  const log = createLog(logList, name);
  const chat = createChat(gameId, app.fail);
  add(side, logBox, chat.node);
  const play = add(el("div", "play"), middle, add(el("div", "my-area"), move, mineSlot), others, board);
  play.id = "board";
  const about = el("details", "about-game");
  add(page, head, decision, turn, clock, said, away, result, offer, disputing, add(el("div", "table-grid"), play, side), about, detail.node);
  detail.watch(page);
  root.replaceChildren(el("p", "muted", t("loading")));

  async function load() {
    const game = await get(path);
    if (!game) return;
    const mine = Number.isInteger(game.you) && (game.owed || []).some((o) => o.seat === game.you);
    const legal = mine && game.status === "active" ? await get(`${path}/legal`) : null;
    if (await revealIfAsked(game)) return load(); // the seat's secret joins the draws
    await show(game, legal);
  }

  // Draw the game and the seat's legal actions (null: none), as read or as a table frame
  // brought them; an older version than the one drawn is dropped, and so is a show that a
  // later one overtook while it looked up a name.
  let shows = 0;
  async function show(game, legal) {
    if (st.game && game.version < st.game.version) return;
    const n = ++shows;
    const secret = game.secret || (st.game && st.game.id === game.id ? st.game.secret : null);
    st.game = { ...game, secret }; // a frame never carries the creator's link: kept from the read
    if (root.contains(page)) rememberSeen(game); // drawn to this person: seen
    const named = (game.seats || []).filter((s) => st.names.get(s.seat) !== seatLabel(s));
    for (const s of named) st.names.set(s.seat, seatLabel(s));
    if (named.length) log.draw(); // events that came before the names said "seat N"
    const key = `${game.ruleset}:${document.documentElement.lang}`;
    if (!catalogues.has(key)) {
      const listed = await get(`/rulesets/${encodeURIComponent(game.ruleset)}/cards`);
      catalogues.set(key, Object.fromEntries(listed.cards.map((c) => [c.id, { name: c.name, text: c.text }])));
    }
    st.glossary = { ...catalogues.get(key), ...(isObj(game.cards) ? game.cards : {}) };
    if (game.league && !(game.league.id in st.leagues)) { // a league's table says which, once
      st.leagues[game.league.id] = game.league.id;
      const league = await get(`/leagues/${encodeURIComponent(game.league.id)}`).catch(() => null);
      if (league) st.leagues[game.league.id] = league.name || league.id;
      // its players may dispute it (where the server keeps disputes)
      const disputes = Number.isInteger(game.you) ? await readDisputes(game.league.id).catch(() => null) : null;
      if (disputes) disputing.replaceChildren(disputeForm(game, app));
    }
    if (n !== shows) return; // a newer game came meanwhile: it draws
    st.legal = legal;
    if (st.legal && isObj(st.legal.cards)) Object.assign(st.glossary, st.legal.cards);
    if (awaited && st.game.version >= awaited) clearTimeout(gap);
    draw();
  }

  function draw() {
    const game = st.game;
    const you = game.you;
    const seated = Number.isInteger(you);
    head.replaceChildren();
    const back = el("a", "back", t("back"));
    back.href = "#/";
    const title = add(el("h1"), el("span", null, game.name));
    // the game's id is for support and the command line, not for play: kept at the page's foot
    about.replaceChildren(el("summary", null, t("aboutGame")), el("p", "muted", t("gameIdIs", { id: game.id })));
    const status = el("span", `badge ${game.status}`, t(game.status));
    status.id = "status";
    const ongoing = game.status === "active" || game.status === "waiting";
    const live = el("span", `live ${app.live || ""}`, !ongoing ? "" : app.live === "open" ? t("live") : app.live === "down" ? t("reconnecting") : "");
    live.hidden = !ongoing; // a finished table has nothing live to follow
    add(head, back, title, game.league ? leagueTag(game.league, st.leagues) : null, status, live, rulesLink(game.ruleset));
    const claim = game.status === "finished" ? null : claimText(game.claim_after_s);
    if (claim) head.appendChild(el("span", "muted claim-after", claim));
    head.appendChild(lobbyButtons(game, app, { path, post, del, reload: load, secret }));
    // whose turn, with a countdown to each deadline
    turn.replaceChildren(el("span", "k", t("turnOf")));
    const owed = game.owed || [];
    if (!owed.length) turn.appendChild(el("span", "muted", game.status === "finished" ? t("gameOver") : t("noDecision")));
    for (const o of owed) {
      const item = add(el("span", o.seat === you ? "owe mine" : "owe"), d.seatChip(o.seat), el("span", "muted", t(`kind_${o.kind}`)));
      if (o.deadline) {
        const c = el("span", "countdown");
        c.dataset.deadline = o.deadline;
        item.appendChild(c);
      }
      turn.appendChild(item);
    }
    clock.replaceChildren(...[clockNotes(game, seatName)].filter(Boolean));
    decision.textContent = statusSentence(game, seatName);
    decision.classList.toggle("mine", owed.some((o) => o.seat === you));
    const whose = owed.map((o) => `${o.seat === you ? t("yourTurn") : seatName(o.seat)}: ${t(`kind_${o.kind}`)}`);
    const now = `${t("turnOf")}: ${whose.length ? whose.join(", ") : game.status === "finished" ? t("gameOver") : t("noDecision")}`;
    if (now !== told.turn) said.textContent = told.turn = now;
    tick();
    result.replaceChildren(...(game.result ? [drawResult(game, d, seatName)] : []));
    if (game.result && seated) drawReceipt(game);
    drawMove(game, seated);
    board.replaceChildren();
    middle.replaceChildren();
    mineSlot.replaceChildren();
    others.replaceChildren();
    const drawn = game.view ? drawBoard(game, { d, seatName, you }) : null;
    if (drawn) {
      add(middle, drawn.middle, drawn.legend ? suitLegend(d) : null);
      add(mineSlot, drawn.mine);
      add(others, drawn.others);
      detail.mark(page);
    } else if (!game.view) {
      board.appendChild(add(el("section", "box"), el("p", null, t("waitingStart", { n: (game.seats || []).length, m: game.players })),
        add(el("span", "chips"), ...(game.seats || []).map((s) => d.seatChip(s.seat)))));
    } else {
      const res = game.result || {};
      const winners = Array.isArray(res.winners) ? res.winners : Array.isArray(game.view.winners) ? game.view.winners : [];
      board.appendChild(d.drawView(game.view, { owed, winners, you, panelsFirst: true }));
      detail.mark(page);
    }
    signal(owed.some((o) => o.seat === you) && game.status === "active", game.name);
    if (game.status === "finished" && seated && !game.league && !rematch) rematch = watchRematch(game, offer, app);
  }

  // A seat's receipt of the finished game, kept in this browser: "receipt kept" and its
  // download under the result; fetched from the stream when the end came while away.
  let fetching = null;
  let merging = false;
  function drawReceipt(game) {
    const line = receiptLine(game.id);
    const box = result.querySelector("#result-box");
    if (line && box) box.appendChild(line);
    const kept = keptReceipt(game.id);
    if (!line && !fetching && !kept) fetching = fetchReceipt(game.id, game.version, () => draw());
    if (kept && !kept.leaves && !merging) { // kept before its leaves were merged: add the proofs
      merging = true;
      get(`${path}/transparency`).then((found) => found && keepReceipt({ ...kept, ...found })).catch(() => {});
    }
  }

  // The move box is drawn again only when what it offers changes: the table is redrawn after
  // every event, and a person typing a deal or focused on a choice must keep it.
  let offered = null;
  function drawMove(game, seated) {
    move.hidden = game.status === "finished" || game.status === "cancelled";
    const actions = seated && st.legal && st.legal.actions && st.legal.actions.length ? st.legal.actions : null;
    const now = actions && JSON.stringify([actions, st.refusal, document.documentElement.lang]);
    if (now && now === offered) return;
    offered = now;
    // focus stays in the move box when it is drawn again (not dropped to the page's body)
    const focused = move.contains(document.activeElement) || st.sent;
    st.sent = false;
    move.replaceChildren();
    const h = el("h2", null, seated ? t("yourMove") : game.status === "waiting" ? t("joinTitle") : t("watchingTitle"));
    h.id = "move-title";
    h.tabIndex = -1;
    move.appendChild(h);
    const problem = el("p", "error refusal", st.refusal);
    problem.id = "refusal";
    problem.setAttribute("role", "alert");
    problem.hidden = !st.refusal;
    move.appendChild(problem);
    if (!seated) {
      move.appendChild(el("p", "muted", game.status === "waiting" && !me() ? t("signInToPlay") : t("spectating")));
      return;
    }
    if (st.legal && st.legal.actions && st.legal.actions.length) {
      move.classList.add("yours");
      const text = (v) => (typeof v === "string" && d.glossed(v) ? d.glossed(v).text : null);
      move.appendChild(drawActions(st.legal, name, send, text, { game, seatName, typed: st.typed }));
      if (focused) refocus();
      return;
    }
    move.classList.remove("yours");
    const others = (game.owed || []).filter((o) => o.simultaneous && o.seat !== game.you);
    const sealed = others.length && game.status === "active" && (game.owed || []).every((o) => o.simultaneous);
    const text = sealed
      ? others.length === 1 ? t("sealedWaitingOne") : t("sealedWaiting", { n: others.length })
      : t("notYourTurn");
    const p = el("p", sealed ? "sealed" : "muted", text);
    p.id = "waiting";
    move.appendChild(p);
    if (focused) refocus();
  }

  function refocus() {
    const first = move.querySelector("button:not(:disabled), select, input");
    (first || move.querySelector("#move-title")).focus();
  }

  async function send(action) {
    if (st.busy) return;
    st.busy = true;
    for (const b of move.querySelectorAll("button, select, input")) b.disabled = true;
    let done = null;
    try {
      done = await act(gameId, action);
      st.refusal = "";
      st.typed.clear(); // what was typed went through: the next form starts empty
    } catch (e) {
      st.refusal = t("refused", { detail: problemWords(e) });
    } finally {
      st.sent = true;
      st.busy = false;
      offered = null; // its controls were disabled: draw them again, whatever follows
    }
    if (!done) return load().catch(app.fail); // refused: read where the game stands now
    // the stream's table frame after this action draws what follows (it may be here already)
    if (st.game.version < done.version) {
      st.legal = null;
      expect(done.version);
    }
    draw();
  }

  // An append the stream told of (an event, an action's answer): its table frame follows;
  // when none has come within GAP_MS (a frame lost to a race or a reconnect), read the game.
  let awaited = 0;
  let gap = 0;
  function expect(version) {
    if (!Number.isInteger(version) || version <= st.game.version || version <= awaited) return;
    awaited = version;
    clearTimeout(gap);
    gap = setTimeout(() => {
      if (st.game.version < awaited) refresh();
    }, GAP_MS);
  }

  function tick() {
    for (const c of turn.querySelectorAll(".countdown")) {
      const left = Math.max(0, Math.round((Date.parse(c.dataset.deadline) - Date.now()) / 1000));
      const text = left >= 3600 ? `${Math.floor(left / 3600)}h ${Math.floor((left % 3600) / 60)}m`
        : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      c.textContent = t("deadline", { time: text });
      if (left < 20 && c.closest(".owe.mine") && told.deadline !== c.dataset.deadline) {
        told.deadline = c.dataset.deadline;
        said.textContent = `${t("yourTurn")}: ${c.textContent}`;
      }
      c.classList.toggle("urgent", left < 20);
    }
  }

  let pending = 0;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => load().catch(app.fail), 120);
  };

  try {
    await load();
  } catch (e) {
    // an unknown game (or one this person may not open) stops loading, with a way back
    const back = el("a", "back", t("back"));
    back.href = "#/";
    root.replaceChildren(add(el("section", "box missing"), el("h1", null, t("noSuchGame")),
      el("p", null, e && e.status === 404 ? t("noSuchGameHelp", { id: gameId }) : problemWords(e)), back));
    return () => {};
  }
  root.replaceChildren(page);
  const seen = await awaySummary(gameId, st.game, seatName);
  if (seen) away.replaceChildren(seen);
  const recent = await get(`${path}/events?after=${Math.max(0, st.game.version - 12)}`);
  for (const ev of recent.events || []) log.push(ev);
  chat.load();
  // every connect starts with a table frame: no read after a dropped connection either
  const stream = follow(`/v1${path}/events/stream?with=table`, st.game.version, (kind, data) => {
    if (kind === "chat") return chat.show(data);
    if (kind === "owes") return; // the table frame that follows says it, and more
    if (kind === "table") return fromFrame(data).catch(app.fail);
    if (kind === "receipt") return keepReceipt(data) && draw(); // kept without asking
    log.push(data);
    expect(data.seq);
  }, (state) => {
    app.live = state;
    const live = head.querySelector(".live");
    const ongoing = st.game && (st.game.status === "active" || st.game.status === "waiting");
    if (live) live.textContent = !ongoing ? "" : state === "open" ? t("live") : state === "down" ? t("reconnecting") : "";
  });

  async function fromFrame(frame) {
    if (await revealIfAsked(frame.game)) return; // its event brings the next frame
    await show(frame.game, frame.legal);
  }
  const timer = setInterval(tick, 1000);
  return () => {
    stream.stop();
    if (fetching) fetching.stop();
    if (rematch) rematch();
    clearInterval(timer);
    clearTimeout(pending);
    clearTimeout(gap);
    signal(false);
  };
}

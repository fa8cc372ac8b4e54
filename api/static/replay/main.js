// The replay viewer: steps through one game's history, drawing the table after each event.
// It reads the public API only: GET /v1/games/{id}/events once, and
// GET /v1/games/{id}/state?at=N per step (cached). Without a pasted token it is a spectator.
// Every value from the server goes into the page as text (textContent), never as HTML.
// The drawing of views and cards is shared with the web client (../shared/).
import { el, add, isObj } from "../shared/dom.js";
import { createDraw } from "../shared/draw.js";
import * as audit from "./audit.js";
import { createPanels } from "./panels.js";
import { t, lang, LANGS, storeLang, labels, drawWords, problemText, checkText } from "./words.js";

const TOKEN_KEY = "marketfold.replay.token";
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
  commands: new Map(), // seq -> the type of the command it belongs to (audit.commandsOf)
};
const $ = (id) => document.getElementById(id);

function seatCount() {
  const g = st.game;
  return Math.max(g ? g.players || 0 : 0, g && g.seats ? g.seats.length : 0, st.names.size);
}

function seatName(n) {
  return st.names.get(n) || t("seatN", { n });
}

let d;
let panels;
const app = { st, $, d: null, stateAt, token, seatName, go, pause };
// the drawing and the panels in the page's language (made again when it changes)
function setWords() {
  d = createDraw({ seatName, seatCount, glossary: () => st.glossary, words: drawWords(), labels: labels() });
  app.d = d;
  panels = createPanels(app);
}
setWords();
const draw = (game) => panels.draw(game);
const drawEvents = () => panels.drawEvents();
const markEvents = (n) => panels.markEvents(n);
const empty = (text) => d.empty(text);

// ---- fetching ------------------------------------------------------------------------------

function token() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

async function getJSON(url) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  const held = token();
  if (held) headers.Authorization = `Bearer ${held}`;
  const res = await fetch(url, { headers, credentials: "omit", cache: "no-store" });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const why = problemText(body) || res.statusText;
    const hint = res.status === 401 && held ? t("tokenRefused") : "";
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
      showError(e.retryAfter ? new Error(t("retrying", { error: e.message, n: e.retryAfter })) : e);
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
  $("play").textContent = t("play");
  $("play").classList.remove("on");
}

async function play() {
  if (st.seq >= st.version) await go(1);
  const run = Date.now();
  st.playing = run;
  $("play").textContent = t("pause");
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
  if (!gameId) return showError(new Error(t("wrongAddress")));
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
  st.commands = audit.commandsOf(st.events);
  try {
    const ruleset = (await stateAt(1)).ruleset;
    const listed = await getJSON(`${base}/v1/rulesets/${encodeURIComponent(ruleset)}/cards`);
    st.catalogue = Object.fromEntries(listed.cards.map((c) => [c.id, { name: c.name, text: c.text }]));
    st.glossary = { ...st.catalogue };
  } catch {
    st.catalogue = {}; // names then come from each step's own `cards`
  }
  st.players = new Map(); // player id -> name, so the log names people, not their ids
  for (const e of st.events) {
    if (e.type === "game.PlayerJoined" && isObj(e.data) && typeof e.data.player === "string") {
      st.players.set(e.data.player, String(e.data.name || e.data.player));
    }
    if (e.type === "game.PlayerJoined" && isObj(e.data) && Number.isInteger(e.data.seat)) {
      st.names.set(e.data.seat, String(e.data.name || t("seatN", { n: e.data.seat })));
    }
  }
  $("slider").max = String(Math.max(1, st.version));
  $("total").textContent = String(st.version);
  const ended = st.events.some((e) => e.type === "game.Ended");
  const started = st.events.some((e) => e.type === "game.Started");
  const now = ended ? "finished" : started ? "active" : "waiting";
  $("status").textContent = t(ended ? "nowFinished" : started ? "nowActive" : "nowWaiting");
  $("status").className = `badge ${now}`;
  const link = $("export");
  link.hidden = !ended;
  if (ended) link.href = `${api}/export`;
  drawEvents();
  verifyGame(ended);
  drawChat();
  await go(hashSeq() || st.version); // where the game stands now; |◀ goes back to its start
}

async function verifyGame(ended) {
  const badge = $("verified");
  badge.className = "verify pending";
  badge.textContent = ended ? t("verifying") : t("notVerifiedYet");
  let out;
  try {
    out = await audit.verify(api, base, ended);
  } catch (e) {
    out = { state: "bad", text: t("couldNotVerify", { detail: e.message || e }) };
  }
  badge.className = `verify ${out.state}`;
  badge.textContent = out.state === "ok" ? `✓ ${out.text}` : out.state === "bad" ? `✗ ${out.text}` : out.text;
  badge.dataset.state = out.state;
  badge.onclick = Number.isInteger(out.seq) ? () => (pause(), go(out.seq)) : null;
}

// A bundle file the auditor holds: verified by POST /v1/verify (its bytes as read), every
// check listed, the signature named, and compared with this server's copy event by event
// (by hash): the first event where they part is marked, and the badge jumps to it.
async function openFile(file) {
  const box = $("file-report");
  box.hidden = false;
  const badge = $("file-verified");
  badge.className = "verify pending";
  badge.textContent = t("verifyingFile", { name: file.name });
  const text = await file.text();
  let out;
  try {
    out = await audit.verifyFile(base, text);
  } catch (e) {
    out = { report: null, badge: { state: "bad", text: t("couldNotVerify", { detail: e.message || e }) } };
  }
  badge.className = `verify ${out.badge.state}`;
  badge.dataset.state = out.badge.state;
  badge.textContent = `${out.badge.state === "ok" ? "✓" : "✗"} ${out.badge.text}`;
  const checks = (out.report ? out.report.checks : []).map((c) => {
    const li = el("li", c.ok ? "check ok" : "check bad");
    const where = Number.isInteger(c.seq) ? t("atEvent", { n: c.seq }) : "";
    const said = checkText(c, (n) => st.names.get(n) || t("seatN", { n }));
    add(li, el("b", "", `${c.ok ? t("pass") : t("fail")} ${said.name}${where}`), el("span", "", `: ${said.detail}`));
    return li;
  });
  $("file-checks").replaceChildren(...checks);
  $("file-match").textContent = compare(text);
}

// How the file's events compare with this server's copy of the game shown.
function compare(text) {
  let data;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return t("notJson");
  }
  const events = Array.isArray(data && data.events) ? data.events : [];
  const id = isObj(data && data.game) ? data.game.id : "";
  if (id !== gameId) return t("otherGame", { id: String(id) });
  const differs = events.findIndex((e, i) => !st.events[i] || !isObj(e) || e.hash !== st.events[i].hash);
  if (differs >= 0) {
    pause();
    go(differs + 1);
    return t("partsAt", { n: differs + 1 });
  }
  if (events.length !== st.events.length) {
    return t("countDiffers", { n: events.length, m: st.events.length });
  }
  return t("sameEvents", { n: events.length });
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
  $("chat").replaceChildren(...(items.length ? items : [add(el("li", "muted"), empty(t("noMessages")))]));
}

// The page's fixed words (data-t: text, data-t-title, data-t-aria, data-t-placeholder) in
// its language, and the language selector.
function words() {
  document.documentElement.lang = lang();
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-t-title]")) node.title = t(node.dataset.tTitle);
  for (const node of document.querySelectorAll("[data-t-aria]")) node.setAttribute("aria-label", t(node.dataset.tAria));
  for (const node of document.querySelectorAll("[data-t-placeholder]")) node.placeholder = t(node.dataset.tPlaceholder);
  $("lang").replaceChildren(...Object.entries(LANGS).map(([code, label]) => {
    const o = el("option", null, label);
    o.value = code;
    o.lang = code;
    o.selected = code === lang();
    return o;
  }));
}

function wire() {
  $("lang").addEventListener("change", (e) => {
    storeLang(e.target.value);
    words();
    setWords();
    $("token-box").querySelector("summary").textContent = token() ? t("viewAsPlayerSet") : t("viewAsPlayer");
    start(); // card names and texts come again in the new language; the #at= step is kept
  });
  $("bundle-file").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) openFile(file);
  });
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
    box.querySelector("summary").textContent = token() ? t("viewAsPlayerSet") : t("viewAsPlayer");
  };
  mark();
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const pasted = $("token-input").value.trim();
    $("token-input").value = "";
    try {
      if (pasted) localStorage.setItem(TOKEN_KEY, pasted);
    } catch {
      showError(new Error(t("noStorage")));
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

words();
wire();
start();

// What a person may do about their seat at a table (join, leave, cancel, resign, rematch,
// invite by link, the replay) and the finished game's result with places and scores.
import { el, add, isObj } from "../shared/dom.js";
import { me, post } from "./api.js";
import { t } from "./i18n.js";
import { joinCommitted, keep, newSecret } from "./seatseed.js";

export const LEVELS = ["quick", "strong"];

// A seat's name as the page shows it: a computer player's says so, with its level.
export function seatLabel(s) {
  if (!s || !s.computer) return s ? s.name : "";
  return `${s.name} (${t("computerTag", { level: t(`level_${s.computer.level}`) })})`;
}

// A labelled choice of the computer players' level (strong first chosen), its id `id`,
// with a line under it that says what the chosen level does.
export function levelPick(id) {
  const pick = el("select", "level-pick");
  pick.id = id;
  for (const level of LEVELS) {
    const o = el("option", null, t(`level_${level}`));
    o.value = level;
    if (level === "strong") o.selected = true;
    pick.appendChild(o);
  }
  const label = el("label", "sf-label", t("computerLevel"));
  label.htmlFor = id;
  const hint = el("small", "muted level-hint", t(`levelHelp_${pick.value}`));
  hint.id = `${id}-hint`;
  pick.setAttribute("aria-describedby", hint.id);
  pick.addEventListener("change", () => (hint.textContent = t(`levelHelp_${pick.value}`)));
  return { pick, label, hint };
}

function button(text, cls, onClick) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// A button that answers the invitation or rematch offer holding a seat for the caller in
// game `gameId`: `join` (Accept) or `decline`, then `after()`.
export function answerButton(gameId, how, cls, after, app) {
  return button(t(how === "join" ? "accept" : "decline"), cls, async () => {
    try {
      const path = `/games/${encodeURIComponent(gameId)}`;
      await (how === "join" ? joinCommitted(gameId, path) : post(`${path}/${how}`));
      after();
    } catch (e) {
      app.fail(e);
    }
  });
}

export function lobbyButtons(game, app, { path, post, del, reload, secret }) {
  const box = el("div", "seat-actions");
  const player = me();
  const seated = Number.isInteger(game.you);
  const run = (fn) => async () => {
    try {
      await fn();
      await reload();
    } catch (e) {
      app.fail(e);
    }
  };
  // seats held for named players (invitations, rematch offers) and their answers
  const invited = Array.isArray(game.invited) ? game.invited : [];
  const mine = player && invited.find((i) => i.player === player.id && i.answer === "pending");
  if (game.status === "waiting") {
    // a private game opens to its invited players and to whoever has its link's secret only
    const closed = game.unlisted && !secret && !game.secret && !mine;
    if (player && !seated && !closed) {
      const body = secret ? { secret } : undefined;
      box.appendChild(button(mine ? t("accept") : t("join"), "primary join", run(() => joinCommitted(game.id, path, body))));
    }
    if (mine) box.appendChild(button(t("decline"), "decline", run(() => post(`${path}/decline`))));
    if (seated) box.appendChild(button(t("leave"), "leave", run(() => post(`${path}/leave`))));
    if (player && game.creator === player.id) box.appendChild(button(t("cancelGame"), "cancel", run(async () => {
      if (window.confirm(t("cancelGameSure"))) await del(path);
    })));
    if (player && game.creator === player.id && !game.league) box.appendChild(fillBox(path, run));
    const invite = add(el("details", "invite"), el("summary", null, t("invite")));
    const link = el("input", "invite-link");
    link.readOnly = true;
    // an unlisted game's link carries its secret (shown to its creator only)
    const tail = game.secret ? `/${encodeURIComponent(game.secret)}` : secret ? `/${encodeURIComponent(secret)}` : "";
    link.value = `${location.origin}/#/g/${encodeURIComponent(game.id)}${tail}`;
    link.setAttribute("aria-label", t("invite"));
    add(invite, el("p", "muted", t("inviteHelp")), link, button(t("copy"), null, () => navigator.clipboard && navigator.clipboard.writeText(link.value)));
    if (!game.unlisted || game.secret || secret) box.appendChild(invite);
    if (invited.length) box.appendChild(invitedList(invited));
  }
  if (game.status === "active" && seated) {
    box.appendChild(button(t("resign"), "resign", run(async () => {
      if (window.confirm(t("resignSure"))) await post(`${path}/resign`);
    })));
  }
  if (game.status === "finished" && seated && !game.league) {
    box.appendChild(button(t("rematch"), "primary rematch", async () => {
      try {
        const made = await newSecret(); // this seat's randomness in the rematch (seatseed.js)
        const next = await post(`${path}/rematch`, made ? { seat_commitment: made.commitment } : undefined);
        if ((next.seat_seeds?.committed || []).includes(next.you)) keep(next.id, made);
        location.hash = `#/g/${encodeURIComponent(next.id)}`;
      } catch (e) {
        app.fail(e);
      }
    }));
  }
  if (game.status !== "waiting") {
    const replay = el("a", "replay-link", t("replay"));
    replay.href = `/games/${encodeURIComponent(game.id)}/replay`;
    box.appendChild(replay);
  }
  return box;
}

export function drawResult(game, d, seatName) {
  const res = game.result;
  const box = add(el("section", "box result"), el("h2", null, t("result")));
  box.id = "result-box";
  const standings = Array.isArray(res.standings) ? res.standings : [];
  const table = el("table", "standings");
  const keys = [...new Set(standings.flatMap((s) => Object.keys(s)))].filter((k) => k !== "place" && k !== "seat");
  const headRow = add(el("tr"), el("th", null, t("place")), el("th", null, t("player")));
  for (const k of keys) headRow.appendChild(el("th", null, d.human(k)));
  table.appendChild(add(el("thead"), headRow));
  const body = el("tbody");
  for (const s of standings) {
    const tr = el("tr", (res.winners || []).includes(s.seat) ? "won" : null);
    tr.dataset.seat = s.seat;
    add(tr, el("td", "place", s.place), add(el("td"), d.seatChip(s.seat)));
    for (const k of keys) tr.appendChild(add(el("td"), isObj(s[k]) || Array.isArray(s[k]) ? d.value(k, s[k], s) : el("span", null, s[k] ?? "—")));
    body.appendChild(tr);
  }
  add(box, add(table, body));
  if (res.reason) box.appendChild(el("p", "muted reason", t(`reason_${res.reason}`)));
  return box;
}

// For a waiting game's creator: give every free seat to a computer player of a level.
function fillBox(path, run) {
  const box = el("div", "fill-computer");
  const { pick, label, hint } = levelPick("fill-level");
  const go = button(t("fillNow"), "fill", run(() => post(`${path}/computer-seats`, { level: pick.value })));
  return add(box, label, pick, go, hint);
}

// Who a held seat waits for, and each answer.
function invitedList(invited) {
  const list = el("ul", "invited");
  list.setAttribute("aria-label", t("invitations"));
  for (const i of invited) {
    const li = add(el("li"), el("span", null, i.name), el("span", `badge answer-${i.answer}`, t(`answer_${i.answer}`)));
    li.dataset.player = i.player;
    list.appendChild(li);
  }
  return list;
}

// What a person may do about their seat at a table (join, leave, cancel, resign, rematch,
// invite by link, the replay) and the finished game's result with places and scores.
import { el, add, isObj } from "../shared/dom.js";
import { me } from "./api.js";
import { t } from "./i18n.js";

function button(text, cls, onClick) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

export function lobbyButtons(game, app, { path, post, del, reload }) {
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
  if (game.status === "waiting") {
    if (player && !seated) box.appendChild(button(t("join"), "primary join", run(() => post(`${path}/join`))));
    if (seated) box.appendChild(button(t("leave"), "leave", run(() => post(`${path}/leave`))));
    if (player && game.creator === player.id) box.appendChild(button(t("cancelGame"), "cancel", run(() => del(path))));
    const invite = add(el("details", "invite"), el("summary", null, t("invite")));
    const link = el("input", "invite-link");
    link.readOnly = true;
    link.value = `${location.origin}/#/g/${encodeURIComponent(game.id)}`;
    link.setAttribute("aria-label", t("invite"));
    add(invite, el("p", "muted", t("inviteHelp")), link, button(t("copy"), null, () => navigator.clipboard && navigator.clipboard.writeText(link.value)));
    box.appendChild(invite);
  }
  if (game.status === "active" && seated) {
    box.appendChild(button(t("resign"), "resign", run(async () => {
      if (window.confirm(t("resignSure"))) await post(`${path}/resign`);
    })));
  }
  if (game.status === "finished" && seated && !game.league) {
    box.appendChild(button(t("rematch"), "primary rematch", async () => {
      try {
        const next = await post(`${path}/rematch`);
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
  if (res.reason) box.appendChild(el("p", "muted", d.human(res.reason)));
  return box;
}

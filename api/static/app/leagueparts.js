// Small pieces the web client's pages share: a part of a page drawn again only when its
// data changed (keeping the focus on the same control), a time in the reader's time zone, and
// a button that asks to confirm before it acts, and where a league's game sits.
import { el } from "../shared/dom.js";
import { post } from "./api.js";
import { registerLeagueChains } from "./leagueseed.js";
import { lang, t } from "./i18n.js";

// A part of a page drawn again as a whole (the home page's lists, a league page's
// sections): `box.put(node, key)` replaces what it shows when `key` changed, and a
// control that had the focus keeps it: the same control (its data-k, else its class) of
// the same item (its game, league, player or dispute).
export function slot() {
  const box = el("div", "slot");
  let drawn = null;
  box.put = (node, key) => {
    if (key === drawn) return;
    drawn = key;
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
    const mark = focused && place(focused);
    box.replaceChildren(...(node ? [node] : []));
    if (mark) {
      const again = [...box.querySelectorAll("a, button, input, select, textarea, summary")].find((c) => place(c) === mark);
      if (again) again.focus();
    }
  };
  return box;
}

function place(control) {
  const item = control.closest("[data-game], [data-league], [data-player], [data-dispute]");
  const d = item ? item.dataset : {};
  return JSON.stringify([d.game, d.league, d.player, d.dispute, control.dataset.k || control.className]);
}

// An ISO time as the reader's local date and time, with the zone's name.
export function when(iso) {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(lang(), {
    weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  }).format(new Date(iso));
}

export function span(cls, text, id) {
  const s = el("span", cls, text);
  if (id) s.id = id;
  return s;
}

// A button that asks `question` (the browser's own dialog, which keyboards and screen
// readers handle; null: it does not ask) and then runs `act()`, then `after()`; a
// refusal shows its problem.
export function confirmButton(text, cls, question, act, app, after) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", async () => {
    if (question && !window.confirm(question)) return;
    b.disabled = true;
    try {
      await act();
      app.fail(null);
      after();
    } catch (e) {
      app.fail(e);
      b.disabled = false;
    }
  });
  return b;
}

// Where a league's game sits: "Spring league · round 2 · table 1", a link to the league.
export function leagueTag(where, leagueNames) {
  const a = el("a", "league-tag", t("leagueWhere", { name: leagueNames[where.id] || where.id, round: where.round, table: where.table }));
  a.href = `#/l/${encodeURIComponent(where.id)}`;
  return a;
}


// Join (`how` "join") or decline an invitation to league `id`, then `after()`. Joining
// registers this browser's hash chain with the league at once (leagueseed.js), without
// asking: the league's first table may be drawn before the person opens another page.
export function leagueAnswer(id, how, app, after) {
  const [text, cls] = how === "join" ? [t("joinLeague"), "primary join-league"] : [t("decline"), "decline-league"];
  const answer = async () => {
    const done = await post(`/leagues/${encodeURIComponent(id)}/${how}`);
    if (how === "join") registerLeagueChains();
    return done;
  };
  return confirmButton(text, cls, null, answer, app, after);
}

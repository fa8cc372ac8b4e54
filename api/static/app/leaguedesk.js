// The organizer's desk on a league's page: invite a player by handle (or add them at once), the members with a
// Remove button each, and the league's own actions (pause, resume, cancel). Every action
// is one call of the public API (openapi.yaml) and asks to confirm first.
import { el, add } from "../shared/dom.js";
import { post, del } from "./api.js";
import { t } from "./i18n.js";
import { confirmButton } from "./leagueparts.js";

// `said`: the desk's status line, kept by the page across redraws (what was just done).
// `can`: what this server's API offers beyond today's (leagueform.js, leagueFeatures).
export function deskBox(league, app, reload, said, can = {}) {
  const path = `/leagues/${encodeURIComponent(league.id)}`;
  const box = add(el("section", "box league-desk"), el("h2", null, t("organizerDesk")));
  box.id = "league-desk";
  const over = league.status === "finished" || league.status === "cancelled";
  const started = league.schedule.some((r) => r.status === "started");

  if (!over) {
    const form = el("form", "inline fields add-member");
    const input = el("input");
    input.id = "add-member-input";
    input.autocomplete = "off";
    input.required = true;
    input.maxLength = 64;
    input.dataset.k = "add-member";
    const label = el("label", null, t("addByHandle"));
    label.htmlFor = input.id;
    const invite = el("button", "primary invite-member", t("inviteMember"));
    invite.type = "submit";
    const now = el("button", "add-member-now", t("addMember"));
    now.type = "submit";
    add(form, add(el("div", "field"), label, input), invite, now);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const direct = e.submitter === now; // added at once, or invited to answer
      try {
        const done = await post(`${path}/${direct ? "members" : "invitations"}`, { player: input.value.trim() });
        app.fail(null);
        input.value = "";
        said.textContent = t(direct ? "memberAdded" : "memberInvited", { name: done.name });
        reload();
      } catch (err) {
        app.fail(err);
      }
    });
    add(box, form, said);
  }

  const list = el("ul", "league-members");
  list.setAttribute("aria-label", t("membersTitle"));
  for (const m of league.members) {
    const li = add(el("li", m.withdrawn_from_round === null ? "member" : "member withdrawn"), el("span", "seat-name", m.name));
    li.dataset.player = m.player;
    if (m.withdrawn_from_round !== null) {
      li.appendChild(el("span", "badge", t("withdrawnFrom", { n: m.withdrawn_from_round })));
      if (can.reinstate && !over) {
        const b = confirmButton(t("reinstate"), "reinstate-member", t("reinstateSure", { name: m.name }),
          () => post(`${path}/members/${encodeURIComponent(m.player)}/reinstate`), app, reload);
        b.setAttribute("aria-label", `${t("reinstate")}: ${m.name}`);
        b.dataset.k = `reinstate-${m.player}`;
        li.appendChild(b);
      }
    } else if (!over) {
      if (can.substitute && started) li.appendChild(substituteForm(path, m, app, reload));
      const b = confirmButton(t("removeMember"), "remove-member", t("removeSure", { name: m.name }),
        () => del(`${path}/members/${encodeURIComponent(m.player)}`), app, reload);
      b.setAttribute("aria-label", `${t("removeMember")}: ${m.name}`);
      b.dataset.k = `remove-${m.player}`;
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  add(box, el("h3", null, t("membersTitle")), list.childElementCount ? list : el("p", "muted", t("noMembers")));
  if ((league.invited || []).length) {
    const waiting = el("ul", "league-invited");
    waiting.setAttribute("aria-label", t("invitedTitle"));
    for (const i of league.invited) {
      const li = add(el("li"), el("span", "seat-name", i.name), el("span", "badge answer-pending", t("answer_pending")));
      li.dataset.player = i.player;
      waiting.appendChild(li);
    }
    add(box, el("h3", null, t("invitedTitle")), waiting);
  }

  if (can.organizers && !over) box.appendChild(organizersForm(path, league, app, reload));
  if (can.update && !over) {
    const edit = el("a", "edit-league", t("editSettings"));
    edit.href = `#/l/${encodeURIComponent(league.id)}/edit`;
    box.appendChild(add(el("p"), edit));
  }
  if (!over) {
    const actions = el("div", "inline league-actions");
    if (league.status === "paused") {
      actions.appendChild(confirmButton(t("resumeLeague"), "resume-league", t("resumeSure"), () => post(`${path}/resume`), app, reload));
    } else {
      actions.appendChild(confirmButton(t("pauseLeague"), "pause-league", t("pauseSure"), () => post(`${path}/pause`), app, reload));
    }
    actions.appendChild(confirmButton(t("cancelLeague"), "cancel-league danger", t("cancelSure"), () => post(`${path}/cancel`), app, reload));
    add(box, el("h3", null, t("leagueActions")), actions);
  }
  return box;
}

// A member's substitute (by handle), who takes their place in later rounds and their seat
// at running games (league.MemberSubstituted, game.SeatTaken).
function substituteForm(path, m, app, reload) {
  const box = add(el("details", "substitute"), el("summary", null, t("substitute")));
  box.querySelector("summary").setAttribute("aria-label", `${t("substitute")}: ${m.name}`);
  const form = el("form", "inline");
  const input = el("input");
  input.id = `substitute-${m.player}`;
  input.required = true;
  input.maxLength = 64;
  input.dataset.k = `substitute-${m.player}`;
  const label = el("label", null, t("substituteHandle", { name: m.name }));
  label.htmlFor = input.id;
  const go = el("button", "primary", t("substituteGo"));
  go.type = "submit";
  add(form, label, input, go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!window.confirm(t("substituteSure", { name: m.name, sub: input.value.trim() }))) return;
    try {
      await post(`${path}/substitutions`, { player: m.player, substitute: input.value.trim() });
      app.fail(null);
      reload();
    } catch (err) {
      app.fail(err);
    }
  });
  return add(box, form);
}

// Co-organizers: who runs the league with its creator.
function organizersForm(path, league, app, reload) {
  const box = add(el("div", "league-organizers"), el("h3", null, t("organizersTitle")));
  const names = (league.organizers || []).map((o) => (typeof o === "string" ? o : o.name || o.player));
  if (names.length) box.appendChild(el("p", null, names.join(", ")));
  const form = el("form", "inline fields");
  const input = el("input");
  input.id = "add-organizer-input";
  input.required = true;
  input.maxLength = 64;
  input.dataset.k = "add-organizer";
  const label = el("label", null, t("addOrganizer"));
  label.htmlFor = input.id;
  const go = el("button", null, t("addOrganizerGo"));
  go.type = "submit";
  add(form, add(el("div", "field"), label, input), go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await post(`${path}/organizers`, { player: input.value.trim() });
      app.fail(null);
      reload();
    } catch (err) {
      app.fail(err);
    }
  });
  return add(box, form);
}

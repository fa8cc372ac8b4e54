// Roles on the operators' page (#/moderation): who holds which role (GET /v1/roles), a form
// that grants one by handle or id (PUT /v1/players/{player}/roles/{role}), and a Revoke
// button on each role kept in the store (DELETE ..., after a confirmation). A role comes
// into force at the player's next request: no restart. An operator named in the server's
// OPERATORS setting is listed without a button (it cannot be revoked here).
import { el, add } from "../shared/dom.js";
import { get, put, del } from "./api.js";
import { t } from "./i18n.js";
import { confirmButton } from "./leagueparts.js";

const ROLES = ["organizer", "operator"];

export function rolesBox(app) {
  const box = add(el("section", "box roles"), el("h2", null, t("rolesTitle")));
  box.id = "roles";
  const said = el("p", "muted");
  said.id = "roles-said";
  said.setAttribute("role", "status");
  const list = el("ul", "role-list");
  const who = el("input");
  who.id = "grant-player";
  who.required = true;
  who.maxLength = 64;
  who.autocomplete = "off";
  const whoLabel = el("label", null, t("grantWho"));
  whoLabel.htmlFor = who.id;
  const role = el("select");
  role.id = "grant-role";
  for (const r of ROLES) {
    const o = el("option", null, t(`role_${r}`));
    o.value = r;
    role.appendChild(o);
  }
  const roleLabel = el("label", null, t("grantRole"));
  roleLabel.htmlFor = role.id;
  const go = el("button", "primary", t("grant"));
  go.type = "submit";
  const form = add(el("form", "inline fields grant-role"),
    add(el("div", "field"), whoLabel, who), add(el("div", "field"), roleLabel, role), go);

  async function draw() {
    let held;
    try {
      held = (await get("/roles")).roles;
    } catch (e) {
      list.replaceChildren(el("li", "muted", e.code === "not_operator" ? t("notOperator") : String(e.message)));
      return;
    }
    list.replaceChildren(...held.map((h) => {
      const li = add(el("li", "role-held"), el("span", "seat-name", h.name || h.player),
        el("span", `badge role-${h.role}`, t(`role_${h.role}`)));
      li.dataset.player = h.player;
      li.dataset.role = h.role;
      if (h.source === "config") li.appendChild(el("span", "muted", t("roleFromConfig")));
      else {
        const b = confirmButton(t("revoke"), "revoke-role", t("revokeSure", { name: h.name || h.player, role: t(`role_${h.role}`) }),
          () => del(`/players/${encodeURIComponent(h.player)}/roles/${h.role}`), app, draw);
        b.setAttribute("aria-label", `${t("revoke")}: ${h.name || h.player}, ${t(`role_${h.role}`)}`);
        li.appendChild(b);
      }
      return li;
    }));
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = who.value.trim().replace(/^@/, "");
    if (!name) return;
    try {
      const done = await put(`/players/${encodeURIComponent(name)}/roles/${role.value}`);
      app.fail(null);
      said.textContent = t("granted", { name: done.name, role: t(`role_${role.value}`) });
      who.value = "";
      await draw();
    } catch (err) {
      app.fail(err);
    }
  });
  add(box, el("p", "muted", t("rolesHelp")), list, form, said);
  draw();
  return box;
}

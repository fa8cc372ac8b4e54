// The operators' page (#/moderation): the roles players hold (roles.js: grant, revoke), and
// players' open reports, each with what an operator can
// do about it: mute or ban the player reported (a reason asked first; a ban confirmed), or
// close the report with a note. The server refuses anyone else (403 not_operator), which the
// page says. docs/operations.md, "Moderation".
import { el, add } from "../shared/dom.js";
import { get, post } from "./api.js";
import { t } from "./i18n.js";
import { rolesBox } from "./roles.js";

export async function drawModeration(root, app) {
  const h = el("h1", null, t("moderation"));
  h.tabIndex = -1;
  const said = el("p", "sr-only");
  said.setAttribute("role", "status");
  const list = el("ul", "reports");
  list.id = "reports";
  root.replaceChildren(add(el("section", "box"), h, said, list), rolesBox(app));
  const names = new Map();
  async function name(id) {
    if (!names.has(id)) {
      names.set(id, get(`/players/${encodeURIComponent(id)}`).then((p) => p.name, () => id));
    }
    return names.get(id);
  }
  function act(label, about, run, confirmText) {
    const b = el("button", null, label);
    b.type = "button";
    b.setAttribute("aria-label", `${label}: ${about}`);
    b.addEventListener("click", async () => {
      if (confirmText && !window.confirm(confirmText)) return;
      try {
        if (await run()) {
          said.textContent = t("moderationDone", { what: label });
          await draw();
        }
      } catch (e) {
        app.fail(e);
      }
    });
    return b;
  }
  const ask = (text) => (window.prompt(text) || "").trim();
  async function draw() {
    let reports;
    try {
      reports = (await get("/reports?status=open")).reports;
    } catch (e) {
      list.replaceChildren(el("li", "muted", e.code === "not_operator" ? t("notOperator") : String(e.message)));
      return;
    }
    const items = [];
    for (const r of reports) {
      const [by, who] = await Promise.all([name(r.by), name(r.player)]);
      const li = el("li", "report");
      li.dataset.report = r.id;
      const head = el("p", null, t("reportLine", { by, who, at: new Date(r.at).toLocaleString() }));
      const reason = el("blockquote", "reason", r.reason);
      const where = r.game ? el("a", null, t("reportGame")) : null;
      if (where) where.href = `#/g/${encodeURIComponent(r.game)}`;
      const tools = el("div", "inline");
      const player = encodeURIComponent(r.player);
      add(
        tools,
        act(t("mute"), who, async () => {
          const why = ask(t("muteWhy", { who }));
          return why && post(`/players/${player}/mute`, { reason: why });
        }),
        act(t("ban"), who, async () => {
          const why = ask(t("banWhy", { who }));
          return why && post(`/players/${player}/ban`, { reason: why });
        }, t("banSure", { who })),
        act(t("closeReport"), t("reportLine", { by, who, at: "" }), async () => {
          const note = ask(t("closeWhy"));
          return note && post(`/reports/${encodeURIComponent(r.id)}/close`, { note });
        }),
      );
      items.push(add(li, head, reason, where, tools));
    }
    list.replaceChildren(...(items.length ? items : [el("li", "muted", t("noReports"))]));
  }
  await draw();
  h.focus();
  return null;
}

// Table chat: what this viewer may read (GET .../chat, then `chat` frames of the stream) and a
// box to post (players talk to players, anyone else with a token to spectators). Messages are
// set as text, never markup.
import { el, add } from "../shared/dom.js";
import { get, post, me } from "./api.js";
import { t } from "./i18n.js";

export function createChat(gameId, fail) {
  const box = el("section", "box chat-box");
  box.setAttribute("aria-labelledby", "chat-title");
  const h = el("h2", null, t("chat"));
  h.id = "chat-title";
  const list = el("ol", "chat");
  list.id = "chat";
  list.setAttribute("aria-live", "polite");
  const seen = new Set();
  const path = `/games/${encodeURIComponent(gameId)}/chat`;
  let operator = false; // the caller's roles, read once (GET /players/me)
  function body(li, m) {
    const who = el("b", "who", String(m.name || m.player));
    const text = m.hidden && !operator
      ? el("span", "text muted", t("chatHidden", { reason: String(m.hidden.reason || "") }))
      : el("span", "text", String(m.text));
    li.replaceChildren(who, text);
    const mine = me();
    if (mine && m.player !== mine.id) {
      const report = el("button", null, t("report"));
      report.type = "button";
      report.setAttribute("aria-label", `${t("report")}: ${m.name || m.player}`);
      report.addEventListener("click", async () => {
        const reason = (window.prompt(t("reportWhy")) || "").trim();
        if (!reason) return;
        try {
          await post("/reports", { game: gameId, message: m.id, reason });
          report.textContent = t("reported");
          report.disabled = true;
        } catch (err) {
          fail(err);
        }
      });
      li.appendChild(report);
    }
    if (operator && !m.hidden) {
      const hide = el("button", null, t("hide"));
      hide.type = "button";
      hide.addEventListener("click", async () => {
        const reason = (window.prompt(t("hideWhy")) || "").trim();
        if (!reason) return;
        try {
          const done = await post(`${path}/${encodeURIComponent(m.id)}/hide`, { reason });
          body(li, { ...m, hidden: done.hidden });
        } catch (err) {
          fail(err);
        }
      });
      li.appendChild(hide);
    }
  }
  function show(m) {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    if (list.querySelector(".empty")) list.replaceChildren();
    const li = el("li", `chat-${m.channel === "spectators" ? "spectators" : "players"}`);
    li.dataset.id = m.id;
    body(li, m);
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
  }
  add(box, h, list);
  if (me()) {
    const formBox = el("form", "inline chat-form");
    const input = el("input");
    input.id = "chat-input";
    input.maxLength = 500;
    input.placeholder = t("chatPlaceholder");
    input.autocomplete = "off";
    input.setAttribute("aria-label", t("chatPlaceholder"));
    const send = el("button", null, t("send"));
    send.type = "submit";
    add(formBox, input, send);
    formBox.addEventListener("submit", async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        show(await post(path, { text }));
        input.value = "";
      } catch (err) {
        fail(err);
      }
    });
    box.appendChild(formBox);
  }
  return {
    node: box,
    show,
    async load() {
      try {
        if (me()) operator = ((await get("/players/me")).roles || []).includes("operator");
        const data = await get(path);
        list.replaceChildren();
        seen.clear();
        for (const m of data.messages || []) show(m);
        if (!seen.size) list.appendChild(el("li", "muted empty", t("noMessages")));
      } catch {
        /* chat is optional */
      }
    },
  };
}

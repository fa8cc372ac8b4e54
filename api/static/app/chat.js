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
  function show(m) {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    if (list.querySelector(".empty")) list.replaceChildren();
    const li = el("li", `chat-${m.channel === "spectators" ? "spectators" : "players"}`);
    list.appendChild(add(li, el("b", "who", String(m.name || m.player)), el("span", "text", String(m.text))));
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

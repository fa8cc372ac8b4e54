// A game's event stream read with fetch (so the bearer token goes in a header, which an
// EventSource cannot send), parsed as Server-Sent Events, resumed with Last-Event-ID after
// a dropped connection or the server's periodic close. docs/clients.md shows the same.
import { headers } from "./api.js";

export function follow(url, after, onFrame, onState) {
  let last = after;
  let stopped = false;
  let controller = null;
  let backoff = 1;

  async function once() {
    controller = new AbortController();
    const h = headers({ Accept: "text/event-stream" });
    if (last) h["Last-Event-ID"] = String(last);
    const res = await fetch(url, { headers: h, signal: controller.signal, cache: "no-store", credentials: "omit" });
    if (res.status === 204) return "ended";
    if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status}`);
    onState("open");
    backoff = 1;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return "closed";
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const frame = { event: "message", data: "", id: null };
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const at = line.indexOf(":");
          const field = at < 0 ? line : line.slice(0, at);
          const text = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
          if (field === "data") frame.data += (frame.data ? "\n" : "") + text;
          else if (field === "event") frame.event = text;
          else if (field === "id") frame.id = text;
        }
        if (frame.id !== null) last = frame.id;
        if (frame.data) onFrame(frame.event, JSON.parse(frame.data));
      }
    }
  }

  (async () => {
    while (!stopped) {
      let how;
      try {
        how = await once();
      } catch (e) {
        if (stopped) return;
        onState("down");
        how = "error";
      }
      if (how === "ended" || stopped) return onState("ended");
      await new Promise((done) => setTimeout(done, backoff * 1000));
      backoff = Math.min(backoff * 2, 15);
    }
  })();

  return {
    stop() {
      stopped = true;
      if (controller) controller.abort();
    },
    last: () => last,
  };
}

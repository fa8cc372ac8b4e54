// At a table, the header says when a decision waits on the player in another game ("Your
// turn in 1 other game", a link to it; to the home page's list when there are more), read
// from GET /v1/players/me/turns when the table opens and every POLL_S while the tab is
// shown. A status region says so when the count grows.
import { get } from "./api.js";
import { t } from "./i18n.js";

const POLL_S = 20;

export function watchElsewhere(gameId, link, said) {
  let shown = 0;
  let reads = 0;
  async function read() {
    if (document.visibilityState !== "visible") return;
    const n = ++reads;
    const data = await get("/players/me/turns");
    if (n !== reads) return;
    const others = [...new Set(data.turns.map((x) => x.game))].filter((g) => g !== gameId);
    link.hidden = !others.length;
    link.textContent = others.length === 1 ? t("turnElsewhere") : t("turnsElsewhere", { n: others.length });
    link.href = others.length === 1 ? `#/g/${encodeURIComponent(others[0])}` : "#/";
    if (others.length > shown) said.textContent = link.textContent;
    shown = others.length;
  }
  const quiet = () => {}; // a failed read waits for the next one
  read().catch(quiet);
  const timer = setInterval(() => read().catch(quiet), POLL_S * 1000);
  const again = () => read().catch(quiet);
  document.addEventListener("visibilitychange", again);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", again);
  };
}

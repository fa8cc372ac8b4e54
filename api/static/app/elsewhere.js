// At a table, the header says when a decision waits on the player in another game ("Your
// turn in 1 other game", a link to it; to the home page's list when there are more), read
// from GET /v1/players/me/turns when the table opens and every POLL_S while the tab is
// shown. A status region says so when the count grows.
import { get } from "./api.js";
import { t } from "./i18n.js";
import { latest, whileShown } from "./refresh.js";

const POLL_S = 20;

export function watchElsewhere(gameId, link, said) {
  let shown = 0;
  const read = latest(() => get("/players/me/turns"), (data) => {
    const others = [...new Set(data.turns.map((x) => x.game))].filter((g) => g !== gameId);
    link.hidden = !others.length;
    link.textContent = others.length === 1 ? t("turnElsewhere") : t("turnsElsewhere", { n: others.length });
    link.href = others.length === 1 ? `#/g/${encodeURIComponent(others[0])}` : "#/";
    if (others.length > shown) said.textContent = link.textContent;
    shown = others.length;
  });
  read().catch(() => {}); // a failed read waits for the next one
  return whileShown(POLL_S, read);
}

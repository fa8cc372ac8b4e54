// At a finished table, a rematch another former player offered: "Ana offers a rematch",
// with Accept (join the new game, then go to its table) and Decline. Read from
// GET /v1/players/me/invitations when the result is shown, and again on each `rematch`
// note of the player's feed (the game's own stream has ended by then). The offer goes
// when its held seat lapses.
import { el, add } from "../shared/dom.js";
import { get, post } from "./api.js";
import { t } from "./i18n.js";
import { follow } from "./stream.js";

export function watchRematch(game, box, app) {
  let lapse = 0;
  const nameOf = (id) => ((game.seats || []).find((s) => s.player === id) || {}).name || "?";

  function show(inv) {
    clearTimeout(lapse);
    if (!inv) return box.replaceChildren();
    const path = `/games/${encodeURIComponent(inv.game)}`;
    const answer = (how, after) => {
      const b = el("button", how === "join" ? "primary accept-rematch" : "decline-rematch", t(how === "join" ? "accept" : "decline"));
      b.type = "button";
      b.addEventListener("click", async () => {
        try {
          await post(`${path}/${how}`);
          after();
        } catch (e) {
          app.fail(e);
        }
      });
      return b;
    };
    const offer = add(
      el("section", "box offer"),
      el("p", null, t("rematchOffer", { name: nameOf(inv.creator) })),
      add(el("div", "inline"),
        answer("join", () => (location.hash = `#/g/${encodeURIComponent(inv.game)}`)),
        answer("decline", () => show(null))),
    );
    box.replaceChildren(offer);
    const left = Date.parse(inv.reserved_until) - Date.now();
    if (left > 0) lapse = setTimeout(() => show(null), left);
  }

  let reads = 0;
  async function read() {
    const n = ++reads;
    const data = await get("/players/me/invitations");
    if (n === reads) show((data.invitations || []).find((i) => i.rematch_of === game.id));
  }

  const quiet = () => {}; // a failed read waits for the next note
  read().catch(quiet);
  const feed = follow("/v1/players/me/feed", null, (kind, data) => {
    if (kind === "rematch" && data.rematch_of === game.id) read().catch(quiet);
  }, () => {});
  return () => {
    feed.stop();
    clearTimeout(lapse);
  };
}

// At a finished table, a rematch another former player offered: "Ana offers a rematch",
// with Accept (join the new game, then go to its table) and Decline. Read from
// GET /v1/players/me/invitations when the result is shown, and again on each `rematch`
// note of the player's feed (the game's own stream has ended by then). The offer goes
// when its held seat lapses.
import { el, add } from "../shared/dom.js";
import { get } from "./api.js";
import { t } from "./i18n.js";
import { follow } from "./stream.js";
import { latest } from "./refresh.js";
import { answerButton } from "./seats.js";

export function watchRematch(game, box, app) {
  let lapse = 0;
  const nameOf = (id) => ((game.seats || []).find((s) => s.player === id) || {}).name || "?";

  function show(inv) {
    clearTimeout(lapse);
    if (!inv) return box.replaceChildren();
    const offer = add(
      el("section", "box offer"),
      el("p", null, t("rematchOffer", { name: nameOf(inv.creator) })),
      add(el("div", "inline"),
        answerButton(inv.game, "join", "primary accept-rematch", () => (location.hash = `#/g/${encodeURIComponent(inv.game)}`), app),
        answerButton(inv.game, "decline", "decline-rematch", () => show(null), app)),
    );
    box.replaceChildren(offer);
    const left = Date.parse(inv.reserved_until) - Date.now();
    if (left > 0) lapse = setTimeout(() => show(null), left);
  }

  const read = latest(() => get("/players/me/invitations"), (data) => {
    show((data.invitations || []).find((i) => i.rematch_of === game.id));
  });

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

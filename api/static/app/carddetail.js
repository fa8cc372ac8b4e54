// A card read in full: every card at the table can be focused and opened with a tap, a click
// or Enter/Space, which shows its name, its type line and its whole text in a box at the foot
// of the screen (announced to a screen reader), instead of a mouse-only tooltip.
import { el, add } from "../shared/dom.js";
import { t } from "./i18n.js";

export function createCardDetail() {
  const node = el("section", "card-detail");
  node.id = "card-detail";
  node.setAttribute("aria-labelledby", "card-detail-title");
  node.hidden = true;
  const title = el("h2", null, "");
  title.id = "card-detail-title";
  const body = el("div", "cd-body");
  const close = el("button", "cd-close", t("closeDetail"));
  close.type = "button";
  let opener = null;
  const hide = () => {
    node.hidden = true;
    if (opener && opener.isConnected) opener.focus();
    opener = null;
  };
  close.addEventListener("click", hide);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hide();
  });
  add(node, add(el("div", "cd-head"), title, close), body);

  function show(card) {
    // the card's own words: its title attribute holds name, type line and text, one a line
    const lines = (card.dataset.full || card.title || card.textContent).split("\n").filter(Boolean);
    const [head, ...rest] = lines;
    const [name, kind] = head.split(" — ");
    title.textContent = name;
    body.replaceChildren(...(kind ? [el("p", "cd-kind", kind)] : []), ...rest.map((l) => el("p", null, l)));
    node.hidden = false;
    opener = card;
    close.focus();
  }

  return {
    node,
    // make every card inside `root` focusable and openable
    mark(root) {
      for (const card of root.querySelectorAll(".card:not(.back):not([data-full])")) {
        card.dataset.full = card.title || card.textContent;
        card.removeAttribute("title"); // the full text is one tap away, not a hover away
        card.tabIndex = 0;
        card.setAttribute("role", "button");
        // a screen reader hears the card's first line in words (name, rank, suits), not the
        // marks' abbreviations
        for (const mark of card.querySelectorAll(".suit, .rank")) mark.setAttribute("aria-hidden", "true");
        const kind = card.dataset.full.split("\n")[0].split(" — ")[1];
        if (kind) card.appendChild(el("span", "sr-only", ` (${kind})`));
      }
    },
    watch(root) {
      root.addEventListener("click", (e) => {
        const card = e.target.closest(".card[data-full]");
        if (card && !node.contains(card)) show(card);
      });
      root.addEventListener("keydown", (e) => {
        const card = e.target.closest && e.target.closest(".card[data-full]");
        if (card && (e.key === "Enter" || e.key === " ")) {
          e.preventDefault();
          show(card);
        }
      });
    },
  };
}

// The replay viewer's cards: a Decktet card (rank, coloured suit marks), a card with a rules
// text (GobCon's cards, Black Market's information cards), a face-down card, and a row or pile
// of cards. `glossary()` gives the card names and texts of what is shown ({card id: {name,
// text}}), so a card names what it does on hover. Shared by the replay viewer and the web client.
import { el, add, isObj } from "./dom.js";
import { hyphenate } from "./hyphen.js";

// `words` (optional) names the card types, "worth", the suits (suit_<Suit>, their marks
// abbr_<Suit>), GP (gpShort) and the die's faces (val_face_<face>) in the page's language.
export function createCards(glossary, words = {}) {
  const SUITS = ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"];
  const SUIT_ABBR = { Moons: "Mo", Suns: "Su", Waves: "Wa", Leaves: "Le", Wyrms: "Wy", Knots: "Kn" };
  const RANK_ABBR = { Ace: "A", Crown: "C", Pawn: "P", Court: "Ct", Excuse: "Ex" };

  function suitMark(suit) {
    const known = SUITS.includes(suit);
    const mark = el("i", known ? `suit suit-${suit}` : "suit", words[`abbr_${suit}`] || SUIT_ABBR[suit] || suit.slice(0, 2));
    mark.title = words[`suit_${suit}`] || suit;
    if (!known) mark.style.setProperty("--suit", hue(suit));
    return mark;
  }

  // a card's title, breakable at its syllables in the page's language (./hyphen.js)
  const title = (name) => el("span", "cname", hyphenate(name, globalThis.document?.documentElement.lang || ""));

  function hue(text) {
    let h = 0;
    for (const ch of String(text)) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return `hsl(${h} 45% 42%)`;
  }

  // A card with its rules text: name, kind and figures, the text itself.
  function textCard(c) {
    const node = el("span", `card text-card${c.type ? ` type-${c.type}` : ""}`);
    const head = add(el("span", "tc-head"), title(c.name || c.id));
    if (typeof c.gp === "number" && (c.gp || c.type === "item" || c.type === "friend")) {
      head.appendChild(el("span", "tc-gp", `${c.gp} ${words.gpShort || "GP"}`));
    }
    const table = isObj(c.table)
      ? Object.entries(c.table).map(([f, n]) => `${(words[`val_face_${f}`] || f).charAt(0).toUpperCase()}${n >= 0 ? "+" : ""}${n}`).join(" ")
      : null;
    const worth = typeof c.value === "number" && c.value !== c.gp ? `${words.worth || "worth"} ${c.value}` : null;
    const kind = c.type ? (words[`type_${c.type}`] || c.type) : null;
    const meta = [kind, c.category_name || c.category, table, worth].filter(Boolean).join(" · ");
    add(node, head, meta ? el("span", "tc-meta", meta) : null, el("span", "tc-text", c.text));
    node.title = `${c.name || c.id}\n${c.text}`;
    node.dataset.card = c.card || c.id;
    return node;
  }

  function card(c) {
    if (typeof c.text === "string" && !Array.isArray(c.suits)) return textCard(c);
    const suits = Array.isArray(c.suits) ? c.suits : [];
    const node = el("span", "card");
    if (suits.length && SUITS.includes(suits[0])) node.classList.add(`tint-${suits[0]}`);
    const rank = c.rank === undefined || c.rank === null ? "" : String(c.rank);
    add(node, el("span", "rank", RANK_ABBR[rank] || rank));
    const marks = add(el("span", "suits"), ...suits.map(suitMark));
    add(node, marks, title(c.name || c.id));
    const names = Array.isArray(c.suit_names) ? c.suit_names : suits;
    const known = glossary()[c.id];
    node.title = [c.name || c.id, [c.rank_name || rank, names.join(", ")].filter(Boolean).join(" · ")]
      .filter(Boolean)
      .join(" — ") + (known ? `\n${known.text}` : "");
    node.dataset.card = c.id || c.name;
    return node;
  }

  function cardBack(label) {
    const node = el("span", "card back", "?");
    node.title = label || "hidden";
    return node;
  }

  const PILE = 12; // a longer list of cards shows its names only, and its last PILE cards

  function hand(cards) {
    const row = el("span", cards.length > PILE ? "hand mini" : "hand");
    const older = cards.length > PILE ? cards.slice(0, cards.length - PILE) : [];
    if (older.length) {
      const more = add(el("details", "pile"), el("summary", null, (words.earlierN || "{n} earlier").replace("{n}", String(older.length))));
      add(more, add(el("span", "hand mini"), ...older.map(card)));
      row.appendChild(more);
    }
    for (const c of cards.slice(older.length)) row.appendChild(card(c));
    return row;
  }

  // The glossary entry of a card id, or of a card instance id `<card>#<n>`.
  function glossed(text) {
    return glossary()[text] || glossary()[String(text).replace(/#[0-9]+$/, "")] || null;
  }

  return { SUITS, card, cardBack, hand, suitMark, glossed };
}

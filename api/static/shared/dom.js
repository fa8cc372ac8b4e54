// Small DOM helpers shared by the replay viewer and the web client. Every value from the
// server goes into the page as text (textContent), never as HTML.

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function add(parent, ...children) {
  for (const c of children) if (c) parent.appendChild(c);
  return parent;
}

export const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Labels for keys a view abbreviates (Black Market's player areas); a client may add its own.
export const LABELS = { aside: "Set aside", vp: "VP space", production: "Production", storage: "Storage" };

// A key as words: "high_bidder" -> "High bidder", "game.PlayerJoined" -> "Player joined".
export function human(key, labels = LABELS) {
  if (labels[key]) return labels[key];
  const words = String(key)
    .replace(/^[a-z0-9-]+\./, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

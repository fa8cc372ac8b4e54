// A finished game's receipt, kept in this browser without the player asking: the game's
// event stream sends it after game.Ended (the service's signed promise of the game's end,
// and its leaves in the public log of games). It is stored in localStorage by game id,
// shown as "receipt kept" on the result, and downloadable as a file for
// `marketfold verify --seen FILE` (docs/audit.md, "What a player keeps").
import { el, add } from "../shared/dom.js";
import { t } from "./i18n.js";
import { follow } from "./stream.js";

const FORMAT = "marketfold-receipt/1";
const KEY = (id) => `marketfold.receipt.${id}`;

// Keep a receipt the stream sent; a kept one with its proofs is not replaced by a later
// one (the first one kept is the earliest word of the service). True if one is kept now.
export function keepReceipt(receipt) {
  if (!receipt || receipt.format !== FORMAT || typeof receipt.game !== "string" || !receipt.promise) return false;
  try {
    const had = keptReceipt(receipt.game);
    if (!had || (!had.leaves && receipt.leaves)) localStorage.setItem(KEY(receipt.game), JSON.stringify(receipt));
    return true;
  } catch {
    return false; // private mode or a full storage: the download stays possible from the page
  }
}

export function keptReceipt(gameId) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
    return kept && kept.format === FORMAT && kept.game === gameId ? kept : null;
  } catch {
    return null;
  }
}

// A seat that was not at the table when the game ended: its stream, resumed just before
// the end, sends the end and the receipt again. Calls `done` once it is kept.
export function fetchReceipt(gameId, version, done) {
  const path = `/v1/games/${encodeURIComponent(gameId)}/events/stream`;
  const stream = follow(path, Math.max(0, version - 1), (kind, data) => {
    if (kind !== "receipt") return;
    stream.stop();
    if (keepReceipt(data)) done();
  }, () => {});
  return stream;
}

// "Receipt kept", and a button that downloads it as marketfold-<game>.receipt.json.
export function receiptLine(gameId) {
  const kept = keptReceipt(gameId);
  if (!kept) return null;
  const line = el("p", "receipt-kept");
  line.id = "receipt-kept";
  const download = el("button", "receipt-download", t("receiptDownload"));
  download.type = "button";
  download.addEventListener("click", () => {
    const text = JSON.stringify(keptReceipt(gameId) || kept, null, 1) + "\n";
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = el("a");
    a.href = url;
    a.download = `marketfold-${gameId}.receipt.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return add(line, el("strong", "receipt-word", t("receiptKept")), el("span", "muted", t("receiptHelp")), download);
}

// The decision named in one sentence, as a player says it: "Bid for The Savage and The
// Castle, or pass", "Ana is bidding for Ace of Moons", "Waiting for Bo and Cy to produce".
// Built from the game's `owed` list and its view; a spectator never reads "your".
import { isObj } from "../shared/dom.js";
import { t } from "./i18n.js";
import { cardList, goodsWords } from "./board.js";

const cardNames = (cards) => (Array.isArray(cards) ? cards.map((c) => (isObj(c) ? c.name || c.id : c)) : []);

// What is at stake in the decision `kind` of this view, as words ("The Savage and The Castle").
function stake(game) {
  const v = isObj(game.view) ? game.view : {};
  const a = isObj(v.auction) ? v.auction : {};
  if (game.ruleset === "goblin-market") return cardList(cardNames(a.offer));
  if (game.ruleset === "sorcerous-futures") return a.card ? a.card.name : "";
  if (game.ruleset === "black-market") return isObj(v.card) ? v.card.name : "";
  return "";
}

// one sentence for the seat `you` (null: a spectator)
export function statusSentence(game, seatName) {
  const owed = game.owed || [];
  const you = Number.isInteger(game.you) ? game.you : null;
  if (game.status === "finished") return t("statusOver");
  if (game.status === "cancelled") return t("statusCancelled");
  if (game.status === "waiting") return t("statusWaiting", { n: (game.seats || []).length, m: game.players });
  if (!owed.length) return t("statusResolving");
  const what = stake(game);
  const high = highBid(game, seatName);
  const mine = owed.find((o) => o.seat === you);
  if (mine) {
    const key = `you_${game.ruleset}_${mine.kind}`;
    const text = t(key, { stake: what, high, deal: dealWords(game, seatName) });
    return text === key ? t("you_generic", { what: t(`kind_${mine.kind}`) }) : text;
  }
  const names = cardList(owed.map((o) => seatName(o.seat)));
  const kinds = [...new Set(owed.map((o) => o.kind))];
  const key = `they_${game.ruleset}_${kinds[0]}`;
  const text = kinds.length === 1 ? t(key, { names, stake: what }) : key;
  return text === key ? t("they_generic", { names, what: kinds.map((k) => t(`kind_${k}`)).join(", ") }) : text;
}

function highBid(game, seatName) {
  const a = isObj(game.view) && isObj(game.view.auction) ? game.view.auction : {};
  return Number.isInteger(a.high_bidder) ? t("highBidBy", { n: a.high_bid, name: seatName(a.high_bidder) }) : t("noBidYet");
}

function dealWords(game, seatName) {
  const tr = isObj(game.view) && isObj(game.view.trade) ? game.view.trade : {};
  if (!isObj(tr.deal) || !Number.isInteger(tr.proposer)) return "";
  // the proposer gives `give` and takes `take`: the one answering gets `give` and pays `take`
  return t("dealForYou", { name: seatName(tr.proposer), get: goodsWords(tr.deal.give), pay: goodsWords(tr.deal.take) });
}

// Each game drawn as its game (docs/clients.md, "The table"): the middle of the table (the
// auction, the market, the game in play), the opponents' public facts around it, and the
// seat's own hand and resources, drawn next to its move box. `drawBoard(game, ctx)` returns
// {middle, mine, others} for the four rulesets; a ruleset it does not know returns null and
// the table falls back to the generic drawing (shared/draw.js). Everything a player reads is
// in words (i18n.js): names, never seat numbers; no field names of the API.
import { el, add, isObj } from "../shared/dom.js";
import { t, goodsOf } from "./i18n.js";

const GOODS = ["red", "yellow", "green", "blue", "purple", "orange"];

// ctx: {d (shared/draw.js), seatName(n), you}
export function drawBoard(game, ctx) {
  const draw = LAYOUTS[game.ruleset];
  if (!draw || !isObj(game.view)) return null;
  return draw(game.view, { ...ctx, owed: game.owed || [] });
}

// ---- small pieces ------------------------------------------------------------------------

function zone(cls, title) {
  const box = el("section", `zone ${cls}`);
  if (title) box.appendChild(el("h2", "zone-title", title));
  return box;
}

// the seat's own area: one of the table's seats (a .seat-row, like each opponent's)
function mineZone(p, title) {
  const box = zone("mine seat-row", title);
  box.dataset.seat = p.seat;
  return box;
}

function fact(label, value) {
  const row = add(el("div", "fact"), el("span", "fact-k", label));
  row.appendChild(value instanceof Node ? value : el("b", "fact-v", value));
  return row;
}

function facts(...rows) {
  return add(el("div", "facts-line"), ...rows.filter(Boolean));
}

export function cardList(names) {
  const list = names.filter(Boolean);
  if (list.length <= 1) return list.join("");
  return t("listAnd", { items: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

// goods as words: {red: 1, orange: 2} -> "1 red and 2 orange"
export function goodsWords(counts) {
  const entries = Array.isArray(counts)
    ? Object.entries(counts.reduce((m, c) => ({ ...m, [c]: (m[c] || 0) + 1 }), {}))
    : Object.entries(counts || {});
  const parts = entries.filter(([, n]) => n > 0).map(([c, n]) => goodsOf(c, n));
  return parts.length ? cardList(parts) : t("nothing");
}

function goodsRow(label, counts, cls = "") {
  const row = el("div", `goods-row ${cls}`);
  row.appendChild(el("span", "goods-lbl", label));
  const list = el("span", "goods");
  for (const c of GOODS) {
    const n = (counts || {})[c] || 0;
    const item = el("span", n ? "good" : "good zero");
    const cube = el("i", `cube cube-${c}`);
    cube.setAttribute("aria-hidden", "true");
    add(item, cube, el("b", null, n));
    item.setAttribute("aria-label", goodsOf(c, n));
    item.title = t(`good_${c}`);
    list.appendChild(item);
  }
  return add(row, list);
}

function more(summary, ...content) {
  const box = add(el("details", "more-cards"), el("summary", null, summary));
  return add(box, ...content);
}

function playerCard(n, ctx, ...body) {
  const box = el("section", "opponent seat-row");
  box.dataset.seat = n;
  const owes = ctx.owed.some((o) => o.seat === n);
  if (owes) box.classList.add("to-act");
  const head = add(el("h3", "opp-name"), ctx.d.seatChip(n));
  if (owes) head.appendChild(el("span", "tag act", t("deciding")));
  return add(box, head, ...body);
}

function hand(ctx, cards, empty = t("noCards")) {
  return Array.isArray(cards) && cards.length ? ctx.d.hand(cards) : el("p", "muted", empty);
}

function players(view) {
  return Array.isArray(view.players) ? view.players : [];
}

function split(view, ctx) {
  const all = players(view);
  const mine = all.find((p) => p.seat === ctx.you) || null;
  return { mine, others: all.filter((p) => p !== mine) };
}

function othersZone(list, draw, ctx) {
  const box = zone("others", t("opponents"));
  const row = el("div", "opponents");
  for (const p of list) row.appendChild(draw(p));
  box.appendChild(row);
  box.hidden = !list.length;
  return box;
}

function suitTally(ctx, suits) {
  const box = el("span", "suit-tally");
  for (const [s, n] of Object.entries(suits || {})) {
    const item = add(el("span", n ? "st" : "st zero"), ctx.d.suitMark(s), el("b", null, n));
    item.setAttribute("aria-label", `${t(`suit_${s}`)} ${n}`);
    box.appendChild(item);
  }
  return box;
}

// ---- Goblin Market -------------------------------------------------------------------------

function goblinMarket(view, ctx) {
  const { d, seatName } = ctx;
  const a = isObj(view.auction) ? view.auction : {};
  const middle = zone("middle", t("auctionN", { n: a.number ?? "" }));
  const offer = Array.isArray(a.offer) ? a.offer : [];
  middle.appendChild(hand(ctx, offer));
  const high = Number.isInteger(a.high_bidder)
    ? t("highBidBy", { n: a.high_bid, name: seatName(a.high_bidder) })
    : t("noBidYet");
  const passed = (a.passed || []).map(seatName);
  add(middle, facts(
    fact(t("highBid"), high),
    passed.length ? fact(t("passedWho"), cardList(passed)) : null,
    a.final ? fact(t("lastAuction"), t("yes")) : null,
    fact(t("auctionDeck"), view.auction_deck_size ?? "—"),
    fact(t("goblinDeck"), view.goblin_deck_size ?? "—"),
  ));
  if (Array.isArray(view.goblin_revealed) && view.goblin_revealed.length) {
    middle.appendChild(more(t("goblinRevealed", { n: view.goblin_revealed.length }), d.hand(view.goblin_revealed)));
  }
  if (Array.isArray(view.discards) && view.discards.length) {
    middle.appendChild(more(t("discardsN", { n: view.discards.length }), d.hand(view.discards)));
  }
  const stats = (p) => facts(fact(t("coins"), p.coins), fact(t("score"), p.score), fact(t("cardsN"), (p.cards || []).length));
  const { mine, others } = split(view, ctx);
  return {
    middle,
    mine: mine && add(mineZone(mine, t("yourHand")), stats(mine), suitTally(ctx, mine.suits), hand(ctx, mine.cards)),
    others: othersZone(others, (p) => playerCard(p.seat, ctx, stats(p), suitTally(ctx, p.suits), hand(ctx, p.cards)), ctx),
    legend: true,
  };
}

// ---- Sorcerous Futures ---------------------------------------------------------------------

function sorcerousFutures(view, ctx) {
  const { d, seatName } = ctx;
  const a = isObj(view.auction) ? view.auction : null;
  const middle = zone("middle", a && a.card ? t("auctionN", { n: a.number ?? "" }) : t("theRow"));
  if (a && a.card) {
    middle.appendChild(add(el("div", "on-auction"), d.card(a.card),
      el("p", null, a.format === "closed" ? t("closedAuction") : t("openAuction"))));
    const high = Number.isInteger(a.high_bidder) ? t("highBidBy", { n: a.high_bid, name: seatName(a.high_bidder) }) : t("noBidYet");
    add(middle, facts(
      a.format === "closed" ? null : fact(t("highBid"), high),
      (a.passed || []).length ? fact(t("passedWho"), cardList(a.passed.map(seatName))) : null,
      (a.sealed_submitted || []).length ? fact(t("sealedIn"), cardList(a.sealed_submitted.map(seatName))) : null,
      Number.isInteger(a.your_sealed_bid) ? fact(t("yourSealedBid"), a.your_sealed_bid) : null,
    ));
  }
  if (Array.isArray(view.row)) {
    middle.appendChild(add(el("div", "row-cards"), el("h3", null, t("theRowHelp")), hand(ctx, view.row)));
  }
  add(middle, facts(fact(t("deckLeft"), view.deck_size ?? "—"), fact(t("groupOf"), `${view.group ?? "—"} / ${view.groups ?? "—"}`)));
  const last = isObj(view.last_auction) ? view.last_auction : null;
  if (last && last.card && Number.isInteger(last.seat)) {
    middle.appendChild(el("p", "muted last", t("lastWon", { name: seatName(last.seat), card: last.card.name, n: last.amount })));
  }
  const stats = (p) => facts(fact(t("gold"), p.gold), fact(t("cardsN"), (p.cards || []).length));
  const crown = (p) => (p.crown ? add(el("div", "crown"), el("span", "lbl", t("crown")), d.card(p.crown))
    : p.has_crown ? add(el("div", "crown"), el("span", "lbl", t("crown")), d.cardBack(t("hiddenCrown"))) : null);
  const body = (p) => [stats(p), add(el("div", "lbl-row"), el("span", "lbl", t("aces")), hand(ctx, p.aces)), crown(p), hand(ctx, p.cards)];
  const { mine, others } = split(view, ctx);
  let mineArea = null;
  if (mine) {
    mineArea = add(mineZone(mine, t("yourHand")), ...body(mine));
    const secret = (view.valuations || []).filter((v) => v.seat === ctx.you && v.card);
    if (secret.length) {
      const list = el("ul", "valuations");
      for (const v of secret) list.appendChild(el("li", null, t("valuedUnder", { card: v.card.name, ace: v.under.name })));
      add(mineArea, el("h3", null, t("yourValuations")), list);
    }
  }
  return { middle, mine: mineArea, others: othersZone(others, (p) => playerCard(p.seat, ctx, ...body(p)), ctx), legend: true };
}

// ---- GobCon --------------------------------------------------------------------------------

// The Game being played, in words: who opened it, who may join, who plays, who rolled, who
// rolls next, whether a King was rolled.
function contest(c, ctx) {
  const { d, seatName, you } = ctx;
  const names = (seats) => (Array.isArray(seats) && seats.length ? cardList(seats.map((n) => (n === you ? t("youWord") : seatName(n)))) : null);
  const box = add(el("div", "in-play"), el("h3", null, t("gameInPlay")));
  if (isObj(c.card)) box.appendChild(d.card(c.card));
  const playing = names(c.players);
  const mayJoin = !playing ? names((c.eligible || []).filter((n) => !(c.declared || []).includes(n))) : null;
  box.appendChild(facts(
    Number.isInteger(c.seat) ? fact(t("openedBy"), seatName(c.seat)) : null,
    mayJoin ? fact(t("mayJoin"), mayJoin) : null,
    c.your_join === true ? fact(t("yourJoin"), t("youJoin")) : c.your_join === false ? fact(t("yourJoin"), t("youStayOut")) : null,
    playing ? fact(t("playingNow"), playing) : null,
    names(c.rolled) ? fact(t("rolledAlready"), names(c.rolled)) : null,
    Number.isInteger(c.to_roll) ? fact(t("rollsNext"), c.to_roll === you ? t("youWord") : seatName(c.to_roll)) : null,
  ));
  if (c.king_taken) box.appendChild(el("p", "muted", t("kingTaken")));
  return box;
}

function gobcon(view, ctx) {
  const { d, seatName } = ctx;
  const middle = zone("middle", t("roundTurn", { round: view.round ?? "—", turn: view.turn ?? "—" }));
  add(middle, facts(
    Number.isInteger(view.active) ? fact(t("activePlayer"), seatName(view.active)) : null,
    fact(t("goalGp"), view.goal ?? "—"),
    fact(t("drawPile"), view.draw_size ?? "—"),
  ));
  const inPlay = view.game_in_play;
  if (isObj(inPlay)) middle.appendChild(contest(inPlay, ctx));
  const pending = view.pending;
  if (isObj(pending)) {
    const box = add(el("div", "in-play"), el("h3", null, t("pendingCard")));
    if (isObj(pending.card)) box.appendChild(d.card(pending.card));
    box.appendChild(facts(
      Number.isInteger(pending.seat) ? fact(t("playedBy"), seatName(pending.seat)) : null,
      Number.isInteger(pending.target) ? fact(t("aimedAt"), seatName(pending.target)) : null,
    ));
    middle.appendChild(box);
  }
  const discard = Array.isArray(view.discard) ? view.discard : [];
  if (discard.length) {
    middle.appendChild(add(el("div", "lbl-row"), el("span", "lbl", t("topDiscard")), d.card(discard[discard.length - 1])));
  }
  const front = (p) => {
    const cards = [p.friend, ...(p.items || []), ...(p.specials || [])].filter(isObj);
    return cards.length ? add(el("div", "in-front"), el("span", "lbl", t("inFront")), d.hand(cards)) : null;
  };
  const category = (c) => { const w = t(`val_category_${c}`); return w === `val_category_${c}` ? c : w; }; // "Board" -> "Tablero"
  const banned = (p) => ((p.prohibited || []).length ? fact(t("bannedFrom"), p.prohibited.map((x) => (isObj(x) ? x.name || category(x.category) : category(x))).join(", ")) : null);
  const stats = (p) => facts(fact(t("gp"), p.score), fact(t("counters"), p.counters), fact(t("cardsInHand"), p.hand_size), banned(p));
  const { mine, others } = split(view, ctx);
  return {
    middle,
    mine: mine && add(mineZone(mine, t("yourHand")), stats(mine), hand(ctx, view.hand), front(mine)),
    others: othersZone(others, (p) => playerCard(p.seat, ctx, stats(p), front(p)), ctx),
    legend: false,
  };
}

// ---- Black Market --------------------------------------------------------------------------

function market(view) {
  const table = el("table", "market");
  const caption = el("caption", null, t("marketCaption"));
  const head = add(el("tr"), ...["colour", "row", "onOffer", "supply", "vpCosts", "vpValue"].map((k) => {
    const th = el("th", null, t(`mk_${k}`));
    th.scope = "col";
    return th;
  }));
  const body = el("tbody");
  for (const c of view.colours || []) {
    const name = add(el("th", "mk-colour"), el("i", `cube cube-${c.id}`), el("span", null, t(`good_${c.id}`)));
    name.scope = "row";
    // figures joined by "/" without spaces ("3/6/7/8"): one line each, even on a phone
    const vp = Array.isArray(c.vp_value) ? c.vp_value.join("/") : "—";
    add(body, add(el("tr"), name, el("td", null, `L${c.row}`), el("td", null, c.on_offer ? `${c.on_offer} (${c.offer_size})` : c.offer_size ?? "—"),
      el("td", null, c.supply), el("td", null, (c.costs || []).join("/")), el("td", null, vp)));
  }
  return add(table, caption, add(el("thead"), head), body);
}

export function tradeWords(view, ctx) {
  const tr = isObj(view.trade) ? view.trade : {};
  const lines = [];
  const { seatName, you } = ctx;
  if (isObj(tr.deal) && Number.isInteger(tr.proposer)) {
    const deal = { name: seatName(tr.proposer), give: goodsWords(tr.deal.give), take: goodsWords(tr.deal.take) };
    lines.push(t(tr.proposer === you ? "dealYouOffered" : "dealOffered", deal));
    if ((tr.acceptors || []).length) lines.push(t("dealAcceptors", { names: cardList(tr.acceptors.map(seatName)) }));
  }
  for (const o of tr.offers || []) {
    if (o.to === you) lines.push(t("offerToYou", { name: seatName(o.from), give: goodsWords(o.give), take: goodsWords(o.take) }));
    else if (o.from === you) lines.push(t("offerFromYou", { name: seatName(o.to), give: goodsWords(o.give), take: goodsWords(o.take) }));
  }
  return lines;
}

function blackMarket(view, ctx) {
  const { d, seatName } = ctx;
  const middle = zone("middle", t("roundN", { n: view.round ?? "—" }) + (view.final ? ` · ${t("finalRound")}` : ""));
  const wrap = add(el("div", "market-wrap"), market(view));
  wrap.tabIndex = 0; // scrolls sideways on a very narrow screen: reachable by keyboard
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("marketCaption"));
  middle.appendChild(wrap);
  const lines = tradeWords(view, ctx);
  if (lines.length) middle.appendChild(add(el("div", "trade-now"), el("h3", null, t("tradeNow")), ...lines.map((l) => el("p", null, l))));
  if (isObj(view.card)) middle.appendChild(add(el("div", "lbl-row"), el("span", "lbl", t("infoCard")), d.card(view.card)));
  const auction = isObj(view.auction) ? view.auction : {};
  if (Number.isInteger(auction.winner)) middle.appendChild(el("p", "muted", t("auctionWonBy", { name: seatName(auction.winner) })));
  const areas = (p, own) => [
    goodsRow(own ? t("yourGoods") : t("goods"), p.storage, "storage"),
    goodsRow(t("producedNow"), p.production),
    goodsRow(t("setAside"), p.aside),
    goodsRow(t("vpSpace"), p.vp),
    facts(fact(t("score"), isObj(p.score) ? p.score.total : p.score), fact(t("wildcards"), p.wildcards), fact(t("storageLimit"), p.storage_limit)),
    Array.isArray(p.cards) && p.cards.length ? d.hand(p.cards) : null,
  ];
  const { mine, others } = split(view, ctx);
  return {
    middle,
    mine: mine && add(mineZone(mine, t("yourGoodsTitle")), ...areas(mine, true)),
    others: othersZone(others, (p) => playerCard(p.seat, ctx, ...areas(p, false)), ctx),
    legend: false,
  };
}

const LAYOUTS = {
  "goblin-market": goblinMarket,
  "sorcerous-futures": sorcerousFutures,
  gobcon,
  "black-market": blackMarket,
};

// A legend for the Decktet's six suits: the mark, its name.
export function suitLegend(d) {
  const box = add(el("details", "legend"), el("summary", null, t("suitLegend")));
  const list = el("ul", "legend-list");
  for (const s of d.SUITS) list.appendChild(add(el("li"), d.suitMark(s), el("span", null, t(`suit_${s}`))));
  return add(box, list);
}

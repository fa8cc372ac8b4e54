'use strict';
/**
 * The peer's game: a boardgame.io 0.50 auction about as costly as a Goblin Market turn,
 * written for bench/peer (issue #34.2). The same shape as Goblin Market (facts of the
 * game, not its rulebook): the 36 basic Decktet cards are sold in small auctions (a size
 * card turned first: an Ace sells one card, a number two, a Crown three); players bid in
 * turn or pass; the winner of a two- or three-card lot takes all or keeps one, the next
 * placed bidders taking the rest; players without a card from the lot earn coins by the
 * bid's last digit and the ranks they own; a goblin card pays a coin per suit a player
 * lacks. The difference that matters here: the cards a player has won are a hidden hand,
 * and `playerView` hides them (and the order of both decks) from everyone else.
 *
 * Every automatic step after a decision (forced passes, the end of bidding, payments,
 * the next lot) runs inside the move, as marketfold's `decide` does. `legal` is what the
 * bench driver uses to pick a random legal move from a seat's own view.
 */
const fs = require('fs');
const path = require('path');

const CARDS = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'games', 'data', 'decktet.json'), 'utf8')
);
const BY_NAME = Object.fromEntries(CARDS.map(c => [c.name, c]));
const SUITS = ['Moons', 'Suns', 'Waves', 'Leaves', 'Wyrms', 'Knots'];
const NUMBERS = ['2', '3', '4', '5', '6', '7', '8', '9'];
const BASIC = CARDS.filter(
  c => c.rank === 'Ace' || c.rank === 'Crown' || NUMBERS.includes(c.rank)
).map(c => c.name);
const GOBLINS = CARDS.filter(c => c.rank === 'Pawn' || c.rank === 'Court').map(c => c.name);
const START_COINS = 10;
const INVALID_MOVE = 'INVALID_MOVE'; // boardgame.io/core's constant, without loading the client

/** A card's place on the wheel of ranks: Ace 1, numbers 2-9, Crown 10 (just below Ace). */
function step(card) {
  const rank = BY_NAME[card].rank;
  return rank === 'Ace' ? 1 : rank === 'Crown' ? 10 : Number(rank);
}

function lotSize(card) {
  const rank = BY_NAME[card].rank;
  return rank === 'Ace' ? 1 : rank === 'Crown' ? 3 : 2;
}

function setup({ ctx, random }) {
  const hands = {};
  const coins = {};
  for (const p of ctx.playOrder) {
    hands[p] = [];
    coins[p] = START_COINS;
  }
  const G = {
    order: [...ctx.playOrder],
    deck: random.Shuffle(BASIC),
    goblins: random.Shuffle(GOBLINS),
    goblinsTurned: [],
    goblinCard: null,
    sizeCards: [],
    discards: [],
    coins,
    hands,
    lot: 0,
    final: false,
    offer: [],
    opener: ctx.playOrder[0],
    bids: [],
    high: 0,
    highBidder: null,
    passed: [],
    toAct: null,
    winner: null,
    receivers: [],
    phase: 'bid',
    result: null,
  };
  openLot(G);
  return G;
}

function nextSeat(G, seat) {
  return G.order[(G.order.indexOf(seat) + 1) % G.order.length];
}

/** Turn the size card (unless this is the final lot) and the cards on offer; bid. */
function openLot(G) {
  if (G.deck.length === 0) return finish(G);
  let size;
  if (G.deck.length > 3) {
    const card = G.deck.shift();
    G.sizeCards.push(card);
    size = lotSize(card);
    G.final = false;
  } else {
    size = G.deck.length;
    G.final = true;
  }
  G.lot += 1;
  G.offer = G.deck.splice(0, size);
  G.bids = [];
  G.high = 0;
  G.highBidder = null;
  G.passed = [];
  G.winner = null;
  G.receivers = [];
  G.phase = 'bid';
  G.toAct = G.opener;
  settleBidding(G);
}

/** Pass whoever cannot outbid the high bid; close the bidding when it is over. */
function settleBidding(G) {
  for (;;) {
    const still = G.order.filter(p => !G.passed.includes(p));
    if (still.length === 0) return allPassed(G);
    if (G.highBidder !== null && still.length === 1 && still[0] === G.highBidder) {
      return won(G);
    }
    if (G.passed.includes(G.toAct) || G.toAct === G.highBidder) {
      G.toAct = nextSeat(G, G.toAct);
      continue;
    }
    if (G.coins[G.toAct] > G.high) return; // a decision is owed
    G.passed.push(G.toAct); // forced pass
    G.toAct = nextSeat(G, G.toAct);
  }
}

function allPassed(G) {
  G.discards.push(...G.offer);
  G.offer = [];
  if (G.final) return finish(G);
  openLot(G); // the same opener opens the next lot
}

/** The bidders placed by their last (highest) bid, highest first. */
function placed(G) {
  const last = {};
  for (const [seat, amount] of G.bids) last[seat] = amount;
  return Object.keys(last).sort((a, b) => last[b] - last[a]);
}

function lastBid(G, seat) {
  let amount = 0;
  for (const [s, a] of G.bids) if (s === seat) amount = a;
  return amount;
}

function won(G) {
  G.winner = G.highBidder;
  G.toAct = G.winner;
  if (G.offer.length === 1) {
    give(G, G.winner, G.offer.splice(0), G.high);
    return payouts(G);
  }
  G.phase = 'split';
}

function give(G, seat, cards, paid) {
  G.hands[seat].push(...cards);
  G.coins[seat] -= paid;
  G.receivers.push(seat);
}

/** Hand the cards left to the next placed bidders (a choice when two are left). */
function distribute(G) {
  const ranking = placed(G);
  while (G.offer.length > 0) {
    const seat = ranking[G.receivers.length];
    if (seat === undefined) {
      G.discards.push(...G.offer.splice(0));
      break;
    }
    if (G.offer.length > 1) {
      G.phase = 'choose';
      G.toAct = seat;
      return;
    }
    give(G, seat, G.offer.splice(0), lastBid(G, seat));
  }
  payouts(G);
}

function suitsHeld(hand) {
  const held = new Set();
  for (const card of hand) for (const suit of BY_NAME[card].suits) held.add(suit);
  return held;
}

/** Sisterhood money by the winning bid's last digit, then the goblin card's. */
function payouts(G) {
  const top = G.high % 10 || 10;
  const rates = { [top]: 3, [((top + 8) % 10) + 1]: 2, [((top + 7) % 10) + 1]: 1 };
  for (const seat of G.order) {
    if (G.receivers.includes(seat)) continue;
    for (const card of G.hands[seat]) G.coins[seat] += rates[step(card)] || 0;
  }
  const goblin = G.goblins.shift();
  G.goblinCard = goblin;
  G.goblinsTurned.push(goblin);
  for (const seat of G.order) {
    const held = suitsHeld(G.hands[seat]);
    for (const suit of BY_NAME[goblin].suits) if (!held.has(suit)) G.coins[seat] += 1;
  }
  if (G.goblins.length === 0) G.reshuffle = true; // done by the move, which holds `random`
  G.opener = G.winner;
  if (G.final) return finish(G);
  openLot(G);
}

function score(hand) {
  const counts = Object.fromEntries(SUITS.map(s => [s, 0]));
  for (const card of hand) for (const suit of BY_NAME[card].suits) counts[suit] += 1;
  const ranked = [...SUITS].sort((a, b) => counts[b] - counts[a] || SUITS.indexOf(a) - SUITS.indexOf(b));
  const positive = ranked.slice(0, 3).reduce((n, s) => n + counts[s], 0);
  const negative = ranked.slice(3).reduce((n, s) => n + counts[s], 0);
  return { score: positive - negative, positive };
}

function finish(G) {
  G.phase = 'over';
  G.toAct = null;
  const scores = G.order.map(seat => ({ seat, ...score(G.hands[seat]) }));
  const best = Math.max(...scores.map(s => s.score));
  G.result = { scores, winners: scores.filter(s => s.score === best).map(s => s.seat) };
}

/** Run a decision's rules, then every automatic step after it. */
function decision(check, apply) {
  return ({ G, playerID, random }, ...args) => {
    if (G.toAct !== playerID || !check(G, playerID, ...args)) return INVALID_MOVE;
    apply(G, playerID, ...args);
    if (G.reshuffle) {
      G.goblins = random.Shuffle(GOBLINS);
      G.goblinsTurned = [];
      delete G.reshuffle;
    }
  };
}

const onOffer = (G, card) => typeof card === 'string' && G.offer.includes(card);

const moves = {
  bid: decision(
    (G, seat, amount) =>
      G.phase === 'bid' && Number.isInteger(amount) && amount > G.high && amount <= G.coins[seat],
    (G, seat, amount) => {
      G.bids.push([seat, amount]);
      G.high = amount;
      G.highBidder = seat;
      G.toAct = nextSeat(G, seat);
      settleBidding(G);
    }
  ),
  pass: decision(
    G => G.phase === 'bid',
    (G, seat) => {
      G.passed.push(seat);
      G.toAct = nextSeat(G, seat);
      settleBidding(G);
    }
  ),
  takeAll: decision(
    G => G.phase === 'split',
    (G, seat) => {
      give(G, seat, G.offer.splice(0), G.high);
      payouts(G);
    }
  ),
  takeOne: decision(
    (G, seat, card) => G.phase === 'split' && onOffer(G, card),
    (G, seat, card) => {
      give(G, seat, G.offer.splice(G.offer.indexOf(card), 1), G.high);
      distribute(G);
    }
  ),
  choose: decision(
    (G, seat, card) => G.phase === 'choose' && onOffer(G, card),
    (G, seat, card) => {
      give(G, seat, G.offer.splice(G.offer.indexOf(card), 1), lastBid(G, seat));
      distribute(G);
    }
  ),
};

/** What `playerID` may see: its own hand, the size of everyone else's, no deck order. */
function playerView({ G, playerID }) {
  const hands = {};
  for (const seat of G.order) {
    hands[seat] = seat === playerID || G.phase === 'over' ? G.hands[seat] : G.hands[seat].length;
  }
  const { deck, goblins, ...open } = G;
  return { ...open, hands, deckSize: deck.length, goblinsLeft: goblins.length };
}

/** The moves `playerID` may make in its view `G`: [{move, args: [[...], ...]}]. */
function legal(G, playerID) {
  if (G.phase === 'over' || G.toAct !== playerID) return [];
  if (G.phase === 'bid') {
    const amounts = [];
    for (let a = G.high + 1; a <= G.coins[playerID]; a += 1) amounts.push([a]);
    const pass = { move: 'pass', args: [[]] };
    // no bid when the high bid is all the seat has: an empty bid was refused, unanswered,
    // and the match stalled (the driver sends one move per state)
    return amounts.length ? [{ move: 'bid', args: amounts }, pass] : [pass];
  }
  const cards = G.offer.map(card => [card]);
  if (G.phase === 'split') return [{ move: 'takeAll', args: [[]] }, { move: 'takeOne', args: cards }];
  return [{ move: 'choose', args: cards }];
}

const Auction = {
  name: 'auction',
  minPlayers: 3,
  maxPlayers: 6,
  setup,
  moves,
  playerView,
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: {
      first: ({ G, ctx }) => ctx.playOrder.indexOf(G.toAct),
      next: ({ G, ctx }) => ctx.playOrder.indexOf(G.toAct),
    },
  },
  endIf: ({ G }) => (G.phase === 'over' ? G.result : undefined),
};

module.exports = { Auction, legal, score };

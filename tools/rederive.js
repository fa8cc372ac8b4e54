#!/usr/bin/env node
// Re-derive every random outcome of an exported marketfold game, from docs/fairness.md alone.
//
//   node tools/rederive.js BUNDLE.json [--data DIR] [--keys KEYS.json] [--seen RECEIPT.json [--consistency PROOF.json]] [--game ID]
//     [--witness VKEY ... [--quorum K] --checkpoint NOTE.txt [--checkpoint-consistency PROOF.json]] [--leaves LEAVES.json ...]
//
// Plain Node (no packages). Reads a finished game's bundle and the data files the document
// names (games/data/ next to this tool unless --data), checks the seed against its
// commitment, then walks the log command by command: every shuffle, deal, choice and roll
// is drawn again with HMAC-SHA256 and compared with the event that records it, and each
// command's draw counter must end where its `draws` range says. Prints one line per
// problem and a summary; exit status 0 only if nothing differs.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const proof = require('./proof');

const SPACE = 1n << 256n;

function draw(seed, k) {
  const mac = crypto.createHmac('sha256', seed).update('marketfold:draw:' + String(k));
  return BigInt('0x' + mac.digest('hex'));
}

class Rng {
  constructor(seed, counter) { this.seed = seed; this.counter = counter; }
  below(n) {
    const big = BigInt(n);
    const limit = SPACE - (SPACE % big);
    for (;;) {
      const x = draw(this.seed, this.counter);
      this.counter += 1;
      if (x < limit) return Number(x % big);
    }
  }
  shuffle(items) {
    const out = items.slice();
    for (let i = out.length - 1; i >= 1; i--) {
      const j = this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  choice(items) { return items[this.below(items.length)]; }
}

// JSON with sorted keys, so objects compare by content (the log's canonical form).
function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v === undefined ? null : v);
}
const same = (a, b) => canonical(a) === canonical(b);

// r-permutations of `items` in itertools.permutations order (lexicographic in positions).
function permutations(items, r) {
  const out = [];
  const used = items.map(() => false);
  const pick = [];
  (function walk() {
    if (pick.length === r) { out.push(pick.slice()); return; }
    for (let i = 0; i < items.length; i++) {
      if (used[i]) continue;
      used[i] = true; pick.push(items[i]);
      walk();
      pick.pop(); used[i] = false;
    }
  })();
  return out;
}

function loadData(dir) {
  const read = (name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  const decktet = read('decktet.json');
  const ofRank = (...ranks) => decktet.filter((c) => ranks.includes(c.rank)).map((c) => c.name);
  const table = read('black_market_table.json');
  return {
    suit: Object.fromEntries(decktet.map((c) => [c.name, c.suits])),
    dataOrder: Object.fromEntries(decktet.map((c, i) => [c.name, i])),
    basic: ofRank('Ace', '2', '3', '4', '5', '6', '7', '8', '9', 'Crown'),
    goblin: (courts) => ofRank(...(courts ? ['Pawn', 'Court'] : ['Pawn'])),
    aces: ofRank('Ace'),
    valuation: ofRank('2', '3', '4', '5', '6', '7', '8', '9', 'Pawn'),
    colours: table.colours.map((c) => c.id),
    setupRows: table.setup_rows,
    setupSteps: table.setup_steps,
    infoCards: read('black_market_cards.json').map((c) => c.id),
  };
}

// What the walk remembers across commands (the lists later draws depend on).
function newGame(created) {
  return { players: created.players, order: null, courts: true, sly: false, holder: null,
    aces: {}, hands: {}, crowned: new Set(), holding: [], deck: null, instances: null,
    dealt: 0, top: null };
}

// One handler per event type that records a random outcome (or the list a later one uses).
// `expect(what, derived, logged)` reports a difference.
const HANDLERS = {
  'game.Started'(g, d, rng, expect, data) {
    expect('seating order', rng.shuffle([...Array(g.players).keys()]), d.order);
    g.order = d.order;
  },
  'goblin-market.GameStarted'(g, d) { g.courts = d.courts; },
  'goblin-market.DecksShuffled'(g, d, rng, expect, data) {
    g.pile = rng.shuffle(data.basic);
    expect('auction deck', g.pile, d.auction_deck);
    g.goblins = rng.shuffle(data.goblin(g.courts));
    expect('goblin deck', g.goblins, d.goblin_deck);
  },
  'goblin-market.GoblinDeckReshuffled'(g, d, rng, expect, data) {
    g.goblins = rng.shuffle(data.goblin(g.courts));
    expect('goblin deck reshuffled', g.goblins, d.order);
  },
  'goblin-market.AuctionSizeRevealed'(g, d, rng, expect) {
    expect('size card (top of the auction deck)', g.pile.shift(), d.card);
  },
  'goblin-market.AuctionCardsRevealed'(g, d, rng, expect) {
    expect('cards revealed (top of the auction deck)', g.pile.splice(0, d.cards.length), d.cards);
  },
  'goblin-market.GoblinCardRevealed'(g, d, rng, expect) {
    expect('goblin card (top of the goblin deck)', g.goblins.shift(), d.card);
  },
  'sorcerous-futures.GameStarted'(g, d) { g.sly = !!d.sly_excuse; },
  'sorcerous-futures.ExcusePlaced'(g, d, rng, expect) {
    const holder = g.order.length === 4 ? g.order[rng.below(4)] : null;
    expect('Excuse holder', holder, d.seat);
    g.holder = holder;
  },
  'sorcerous-futures.AcesDealt'(g, d, rng, expect, data) {
    const aces = rng.shuffle(data.aces);
    const seats = g.order.filter((s) => s !== g.holder);
    const dealt = seats.map((seat, i) => ({ seat, aces: aces.slice(2 * i, 2 * i + 2) }));
    expect('Aces dealt', dealt, d.aces);
    for (const { seat, aces: two } of dealt) g.aces[seat] = two;
  },
  'sorcerous-futures.CrownsTaken'(g, d) {
    for (const { seat, crowns } of d.crowns) g.hands[seat] = crowns.slice();
    if (g.holder !== null) g.holding = g.hands[g.holder].slice();
  },
  'sorcerous-futures.CrownsShuffled'(g, d, rng, expect) {
    g.hands[d.seat] = rng.shuffle(g.hands[d.seat]);
    expect(`Crowns of seat ${d.seat} shuffled`, g.hands[d.seat], d.crowns);
  },
  'sorcerous-futures.CrownsPassed'(g, d) {
    g.hands[d.from] = g.hands[d.from].filter((c) => !d.crowns.includes(c));
    g.hands[d.to].push(...d.crowns);
  },
  'sorcerous-futures.CrownKept'(g, d, rng, expect, data, ctx) { crown(g, d, rng, expect, data, ctx); },
  'sorcerous-futures.CrownGiven'(g, d, rng, expect, data, ctx) { crown(g, d, rng, expect, data, ctx); },
  'sorcerous-futures.DeckShuffled'(g, d, rng, expect, data) {
    g.deck = rng.shuffle(data.valuation);
    expect('valuation deck', g.deck, d.cards);
    g.spots = [...g.order.flatMap((s) => g.aces[s] || []), 'The Excuse'];
    g.top = g.deck.slice(0, g.spots.length);
    g.dealt = 0;
  },
  'sorcerous-futures.ValuationCardsDrawn'(g, d, rng, expect, data) {
    g.top = g.top.slice().sort((a, b) => data.dataOrder[a] - data.dataOrder[b]);
    expect('valuation cards drawn (data order)', g.top, d.cards);
  },
  'sorcerous-futures.ValuationCardsShuffled'(g, d, rng, expect) {
    g.top = rng.shuffle(g.top);
    expect('valuation cards shuffled', g.top, d.cards);
  },
  'sorcerous-futures.ValuationDealt'(g, d, rng, expect) {
    const i = g.dealt++;
    expect(`valuation card ${i + 1}`, { under: g.spots[i], card: g.top[i] }, { under: d.under, card: d.card });
  },
  'sorcerous-futures.RowDealt'(g, d, rng, expect) {
    const n = g.spots.length, grp = d.group;
    expect(`row ${grp}`, g.deck.slice(n + 5 * (grp - 1), n + 5 * grp), d.cards);
  },
  'black-market.ExchangeValuesDrawn'(g, d, rng, expect, data) {
    const drawn = rng.shuffle(data.colours);
    expect('exchange values', [drawn, Object.fromEntries(drawn.map((c, i) => [c, data.setupRows[i]]))], [d.draw, d.rows]);
  },
  'black-market.VictoryValuesDrawn'(g, d, rng, expect, data) {
    const drawn = rng.shuffle(data.colours);
    expect('victory values', [drawn, Object.fromEntries(drawn.map((c, i) => [c, data.setupSteps[i]]))], [d.draw, d.steps]);
  },
  'black-market.DeckShuffled'(g, d, rng, expect, data) {
    g.pile = rng.shuffle(data.infoCards);
    expect('information cards', g.pile, d.order);
  },
  'black-market.CardRevealed'(g, d, rng, expect) {
    expect('information card revealed (top of the deck)', g.pile.shift(), d.card);
  },
  'gobcon.GameStarted'(g, d) {
    g.instances = d.deck.cards.flatMap((c) => Array.from({ length: c.count }, (_, k) => `${c.id}#${k + 1}`));
  },
  'gobcon.DeckShuffled'(g, d, rng, expect) {
    g.pile = rng.shuffle(g.instances);
    expect('deck', g.pile, d.deck);
    g.dealt = 0;
  },
  'gobcon.CardsDealt'(g, d, rng, expect) {
    const seat = g.order[g.dealt++];
    expect(`five cards from the top to seat ${seat}`, { seat, cards: g.pile.splice(0, 5) }, { seat: d.seat, cards: d.cards });
  },
  'gobcon.CardsDrawn'(g, d, rng, expect) {
    expect(`cards drawn from the top by seat ${d.seat}`, g.pile.splice(0, d.cards.length), d.cards);
  },
  'gobcon.DieRolled'(g, d, rng, expect) { expect('die', rng.below(6) + 1, d.die); },
  'gobcon.DiscardReshuffled'(g, d, rng, expect) {
    const rank = Object.fromEntries(g.instances.map((c, i) => [c, i]));
    const pile = d.deck.slice().sort((a, b) => rank[a] - rank[b]);
    g.pile = rng.shuffle(pile);
    expect('discard pile reshuffled', g.pile, d.deck);
  },
};

// Sorcerous Futures, four players: a Crown handed out; a run of `random: true` ones in one
// command is a completion drawn at once (three players: the ritual's Crowns kept, no draw).
function crown(g, d, rng, expect, data, ctx) {
  if (g.holder === null) return;
  if (d.random && !ctx.completion) {
    const recipients = g.order.filter((s) => !g.crowned.has(s));
    const fits = (seat, c) => seat === g.holder
      || !(g.aces[seat] || []).some((a) => data.suit[a][0] === data.suit[c][0]);
    const all = permutations(g.holding, recipients.length)
      .filter((pick) => pick.every((c, i) => fits(recipients[i], c)));
    const chosen = all[rng.below(all.length)];
    ctx.completion = recipients.map((seat, i) => ({ seat, crown: chosen[i] }));
  }
  if (d.random) {
    expect('random Crown', ctx.completion.shift(), { seat: d.seat, crown: d.crown });
  }
  g.crowned.add(d.seat);
  g.holding = g.holding.filter((c) => c !== d.crown);
}

// Seed rule 2 (docs/fairness.md, "Seats' randomness"): the key every draw after
// game.SeedsCombined uses, HMAC-SHA256 keyed with the server's seed over the lines
// "marketfold:seed:2", the game id and each seat's revealed secret (hex, '' if none).
function combine(seed, gameId, reveals) {
  const lines = ['marketfold:seed:2', gameId, ...reveals.map((r) => r || '')];
  return crypto.createHmac('sha256', seed).update(lines.join('\n'), 'utf8').digest();
}

// Follow the seats' commitments and reveals; on game.SeedsCombined check what it says
// and return the new draw key (else null).
function seatSeeds(s, env, seed, gameId, problems) {
  const d = env.data || {};
  const at = `event ${env.seq} (${env.type})`;
  if (env.type === 'game.PlayerJoined') s.commitments.splice(d.seat, 0, d.commitment || null);
  else if (env.type === 'game.PlayerLeft') s.commitments.splice(d.seat, 1);
  else if (env.type === 'game.SeedRevealed') {
    const committed = s.commitments[d.seat];
    const hashed = /^[0-9a-f]{64}$/.test(d.secret || '') ? crypto.createHash('sha256').update(Buffer.from(d.secret, 'hex')).digest('hex') : null;
    if (!committed) problems.push(`${at}: seat ${d.seat} reveals a secret but sent no commitment`);
    else if (hashed !== committed) problems.push(`${at}: seat ${d.seat}'s secret does not hash to its commitment ${committed}`);
    s.reveals[d.seat] = d.secret;
  } else if (env.type === 'game.SeedsCombined') {
    const seats = s.commitments.map((_, i) => i);
    const revealed = seats.filter((i) => s.reveals[i] !== undefined);
    const withheld = seats.filter((i) => s.commitments[i] && s.reveals[i] === undefined);
    const none = seats.filter((i) => !s.commitments[i]);
    expectSame(problems, at, 'revealed seats', revealed, d.revealed);
    expectSame(problems, at, 'withheld seats', withheld, d.withheld);
    expectSame(problems, at, 'seats without a commitment', none, d.none);
    if (d.rule !== 2) problems.push(`${at}: unknown seed rule ${d.rule}`);
    return combine(seed, gameId, seats.map((i) => s.reveals[i]));
  }
  return null;
}

function expectSame(problems, at, what, derived, logged) {
  if (!same(derived, logged)) problems.push(`${at}: ${what} are ${canonical(derived)}, the log says ${canonical(logged)}`);
}

function commands(events) {
  const out = [];
  for (const env of events) {
    if ('command' in env || out.length === 0) out.push([env]); else out[out.length - 1].push(env);
  }
  return out;
}

function rederive(bundle, data) {
  const problems = [];
  const events = bundle.events || [];
  const created = (events[0] || {}).data || {};
  const seedHex = bundle.seed || '';
  if (!/^[0-9a-f]{64}$/.test(seedHex)) return { problems: ['no revealed seed: the game is not finished'], draws: 0, outcomes: 0 };
  const seed = Buffer.from(seedHex, 'hex');
  const id = created.game_id;
  // sha256(utf8(game_id) || seed); a log from before game ids were logged: sha256(seed)
  const bound = Buffer.concat([Buffer.from(id || '', 'utf8'), seed]);
  const commitment = crypto.createHash('sha256').update(bound).digest('hex');
  if (commitment !== created.seed_commitment) problems.push('event 1: the seed does not match the commitment sha256(game_id || seed)');
  if (!id) problems.push('event 1: game.Created does not name its game; the seed is bound to no game id');
  const g = newGame(created);
  const seats = { commitments: [], reveals: {} };
  let key = seed; // the draw key: the seed, or (rule 2) combined with the seats' secrets
  let counter = 0, outcomes = 0;
  for (const group of commands(events)) {
    const first = group[0];
    const range = first.draws || [counter, counter];
    if (range[0] !== counter) problems.push(`event ${first.seq}: draws start at ${range[0]}, the previous command ended at ${counter}`);
    const rng = new Rng(key, range[0]);
    const ctx = {};
    for (const env of group) {
      const combined = seatSeeds(seats, env, seed, id || '', problems);
      if (combined) rng.seed = key = combined;
      const handle = HANDLERS[env.type];
      if (!handle) continue;
      const before = rng.counter;
      handle(g, env.data, rng, (what, derived, logged) => {
        outcomes += 1;
        if (!same(derived, logged)) {
          problems.push(`event ${env.seq} (${env.type}): ${what} re-derived as ${canonical(derived).slice(0, 200)}, the log says ${canonical(logged).slice(0, 200)}`);
        }
      }, data, ctx);
      if (rng.counter > before && !first.draws) problems.push(`event ${env.seq}: ${env.type} is random but its command logs no draws`);
    }
    if (rng.counter !== range[1]) problems.push(`event ${first.seq}: the command's random steps used draws [${range[0]}, ${rng.counter}), the log says [${range[0]}, ${range[1]})`);
    counter = range[1];
  }
  return { problems, draws: counter, outcomes };
}

function option(args, name, many) {
  const found = [];
  for (let at = args.indexOf(name); at >= 0; at = args.indexOf(name)) found.push(args.splice(at, 2)[1]);
  return many ? found : found[found.length - 1];
}

// A file the user hands over is JSON in UTF-8, with or without a byte order mark, as the
// server wrote it; anything else is named (InputError), never a stack trace.
class InputError extends Error {}

function readJson(file) {
  let raw;
  try {
    raw = fs.readFileSync(file);
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${e.code || e.message}`);
  }
  if ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff) || raw.includes(0)) {
    throw new InputError(`${file} is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8 (a byte order mark is allowed), or hand over the bytes as downloaded`);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw); // drops a byte order mark
  } catch {
    throw new InputError(`${file} is not UTF-8 text: a bundle, keys or receipt file is read as UTF-8`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const cut = text.trim() === '' || /Unexpected end|Unterminated|end of JSON/i.test(e.message);
    throw new InputError(`${file} is not ${cut ? 'complete JSON (cut short: was the download truncated?)' : 'JSON'}: ${e.message}`);
  }
}

function main(argv) {
  const args = argv.slice(2);
  const dir = option(args, '--data') || path.join(__dirname, '..', 'games', 'data');
  const keyFiles = option(args, '--keys', true);
  const seenFile = option(args, '--seen');
  const proofFile = option(args, '--consistency');
  const gameId = option(args, '--game');
  const checkpointFile = option(args, '--checkpoint');
  const checkpointProof = option(args, '--checkpoint-consistency');
  const witnessKeys = option(args, '--witness', true);
  const quorum = option(args, '--quorum');
  const leafFiles = option(args, '--leaves', true);
  if (args.length !== 1 || (witnessKeys.length && (!checkpointFile || !keyFiles.length)) || (leafFiles.length && !keyFiles.length)) {
    process.stderr.write('usage: node tools/rederive.js BUNDLE.json [--data DIR] [--keys KEYS.json ...] [--seen RECEIPT.json [--consistency PROOF.json]] [--game ID] [--witness VKEY ... [--quorum K] --checkpoint NOTE.txt [--checkpoint-consistency PROOF.json]] [--leaves LEAVES.json ...]\n');
    return 2;
  }
  let witnesses;
  try {
    witnesses = { vkeys: witnessKeys.map(proof.parseVkey), quorum, checkpointFile, checkpointProof, leafFiles };
  } catch (e) {
    process.stderr.write(`rederive.js: ${e.message}\n`);
    return 2;
  }
  try {
    return check(args[0], dir, keyFiles, seenFile, proofFile, gameId, witnesses);
  } catch (e) {
    if (!(e instanceof InputError || e instanceof TypeError || e instanceof RangeError)) throw e;
    process.stderr.write(`rederive.js: ${e instanceof InputError ? e.message : `${args[0]} is not a bundle this tool can check (${e.message})`}\n`);
    return 2;
  }
}

// a --leaves file: GET /v1/transparency/leaves's answer, a list of such pages, or a list of
// the leaves' texts; the files given in order are the log from its first leaf
function leafTexts(files) {
  const texts = [];
  for (const [json, file] of files) for (const page of Array.isArray(json) && json.every((x) => typeof x === 'string') ? [{ leaves: json.map((leaf) => ({ leaf })) }] : [].concat(json)) {
    if (!page || !Array.isArray(page.leaves)) throw new InputError(`${file} holds no leaves (GET /v1/transparency/leaves?start=0&end=SIZE)`);
    for (const item of page.leaves) {
      if (!item || typeof item.leaf !== 'string') throw new InputError(`${file}: a leaf is not text`);
      if (Number.isInteger(item.index) && item.index !== texts.length) throw new InputError(`${file}: leaf ${item.index} comes where leaf ${texts.length} should: give the log from its first leaf, in order`);
      texts.push(item.leaf);
    }
  }
  return texts;
}

function check(file, dir, keyFiles, seenFile, proofFile, gameId, witnesses) {
  const bundle = readJson(file);
  if (!bundle || typeof bundle !== 'object' || !Array.isArray(bundle.events) || !bundle.events.length) {
    throw new InputError(`${file} is not a bundle: it has no events (GET /v1/games/{id}/export)`);
  }
  const events = bundle.events;
  const logged = ((events[0] || {}).data || {}).game_id;
  if (gameId !== undefined && logged !== gameId) {
    process.stdout.write(`FAIL the game asked for: the bundle is game ${logged}, not game ${gameId} (--game): another game\n`);
    process.stdout.write(`NOT re-derived: the bundle is not game ${gameId}\n`);
    return 1;
  }
  // a bundle without `seed` is checked against the seed game.Ended revealed
  if (!bundle.seed && events.length && events[events.length - 1].type === 'game.Ended') bundle.seed = events[events.length - 1].data.seed;
  const { problems, draws, outcomes } = rederive(bundle, loadData(dir));
  const ruleset = (events[0] || {}).data?.ruleset;
  let proofLine = 'signature and public log not checked (no --keys): the draws are fair; whose game this is, is not shown';
  if (keyFiles.length) {
    const trusted = Object.assign({}, ...keyFiles.map((f) => proof.keyset(readJson(f))));
    let ws = Object.assign({}, ...keyFiles.map((f) => proof.windows(readJson(f))));
    const fromLog = [];
    if (witnesses.leafFiles.length) { // the log's own key leaves win over what the keys publish
      const texts = leafTexts(witnesses.leafFiles.map((f) => [readJson(f), f]));
      const noteText = witnesses.checkpointFile ? fs.readFileSync(witnesses.checkpointFile, 'utf8') : null;
      const got = proof.windowsOfLeaves(bundle, texts, noteText, trusted);
      if (got.problem) fromLog.push(got.problem);
      else ws = { ...ws, ...got.windows };
    }
    const found = [...fromLog, ...proof.chain(events), ...proof.privateChain(bundle.private || [], events.length), ...proof.signature(bundle, trusted), ...proof.logged(bundle, trusted), ...proof.keyWindows(bundle, ws)];
    const seen = seenFile ? readJson(seenFile) : null;
    if (seen && seen.promise) found.push(...proof.promised(bundle, seen.promise, trusted));
    const head = seen && (seen.tree_head || seen.size !== undefined);
    if (head && !found.length) {
      found.push(...(seen.promise && !proofFile ? proof.keptLeaves(bundle, seen, trusted) : proof.seenBefore(bundle, seen, proofFile ? readJson(proofFile) : null, trusted)));
    }
    let cosigned = '';
    if (witnesses.vkeys.length && !found.length) {
      const { vkeys, quorum, checkpointFile, checkpointProof } = witnesses;
      const k = quorum === undefined ? vkeys.length : Number(quorum);
      const w = proof.witnessed(bundle, fs.readFileSync(checkpointFile, 'utf8'), vkeys, k, checkpointProof ? readJson(checkpointProof) : null, trusted);
      found.push(...w.problems);
      cosigned = w.detail ? `, ${w.detail}` : '';
    }
    problems.push(...found);
    proofLine = `signed by key ${bundle.signature && bundle.signature.kid} and in the public log of games${seenFile ? ', consistent with the tree head seen before' : ''}${cosigned}`;
  }
  for (const p of problems) process.stdout.write(`FAIL ${p}\n`);
  process.stdout.write(problems.length
    ? `NOT re-derived: ${problems.length} problem(s) in ${ruleset} game ${bundle.game && bundle.game.id}\n`
    : `re-derived: ${ruleset}, ${outcomes} shuffles, deals, choices and rolls from ${draws} draws, all as logged; ${proofLine}\n`);
  return problems.length ? 1 : 0;
}

if (require.main === module) process.exit(main(process.argv));
module.exports = { Rng, draw, combine, rederive, loadData, permutations };

// Proof that a bundle is the service's game, from docs/audit.md alone (plain Node, no
// packages): the hash chain, the service's Ed25519 signature, the game's leaves in the
// public log of games (RFC 9162 inclusion proofs to a signed tree head), and agreement with
// a tree head or receipt saved earlier (an RFC 9162 consistency proof between the heads).
// Used by tools/rederive.js (--keys, --seen, --consistency); each function returns a list
// of problems, empty when the check passes. With --witness, a C2SP checkpoint (a signed
// note) that witnesses cosigned (cosignature/v1) must hold the game's leaves.
'use strict';
const crypto = require('crypto');

const LOG = 'marketfold-games/1';
const MERGE_DELAY_S = 120;

// The log's canonical JSON: sorted keys, no spaces, UTF-8 (Python's json.dumps with
// sort_keys=True, separators=(',', ':'), ensure_ascii=False).
function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v === undefined ? null : v);
}

const sha256 = (...parts) => crypto.createHash('sha256').update(Buffer.concat(parts)).digest();

function chain(events) {
  let prev = '0'.repeat(64);
  for (let i = 0; i < events.length; i++) {
    const env = events[i];
    if (env.seq !== i + 1) return [`hash chain: event ${i + 1} is missing or moved`];
    if (env.prev !== prev) return [`hash chain: event ${env.seq}: prev does not name the previous event's hash`];
    const body = Object.assign({}, env);
    delete body.hash;
    const hash = sha256(Buffer.from(prev + canonical(body), 'utf8')).toString('hex');
    if (hash !== env.hash) return [`hash chain: event ${env.seq}: hash does not match the event's contents`];
    prev = env.hash;
  }
  return [];
}

// a finished game's private log (Black Market's wild trade from rules version 3): numbered
// 1, 2, ... in its own hash chain, each after an event of the public log, in order
function privateChain(steps, publicCount) {
  let prev = '0'.repeat(64), after = 0;
  for (let i = 0; i < steps.length; i++) {
    const env = steps[i];
    if (env.private !== i + 1) return [`hash chain: private step ${i + 1} is missing or moved`];
    if (!(env.seq >= after && env.seq <= publicCount)) return [`hash chain: private step ${i + 1} follows no event of the log in order`];
    const body = Object.assign({}, env);
    delete body.hash;
    if (env.prev !== prev || sha256(Buffer.from(prev + canonical(body), 'utf8')).toString('hex') !== env.hash) {
      return [`hash chain: private step ${i + 1} is not linked to the one before it`];
    }
    prev = env.hash;
    after = env.seq;
  }
  return [];
}

// {kid: KeyObject} from a JWK Set (GET /v1/keys)
function keyset(jwks) {
  const out = {};
  for (const jwk of (jwks && jwks.keys) || []) {
    const key = crypto.createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    const raw = key.export({ format: 'jwk' }).x;
    out[sha256(Buffer.from(raw, 'base64url')).toString('hex').slice(0, 16)] = key;
  }
  return out;
}

// the statement a trusted key signed, or a string saying why not
function opened(sig, trusted) {
  if (!sig || typeof sig !== 'object') return 'unsigned: no signature';
  if (sig.alg !== 'Ed25519') return `the signature's algorithm is ${sig.alg}, not Ed25519`;
  if (!trusted[sig.kid]) return `signed with key ${sig.kid}, which is not a trusted key`;
  const ok = crypto.verify(null, Buffer.from(sig.statement, 'utf8'), trusted[sig.kid], Buffer.from(sig.value, 'base64url'));
  if (!ok) return `the signature does not match its statement under key ${sig.kid}`;
  return JSON.parse(sig.statement);
}

function endedSeed(last) {
  return last && last.type === 'game.Ended' ? (last.data || {}).seed : undefined;
}

function signature(bundle, trusted) {
  if (!bundle.signature) return ['signed by the service: unsigned: the bundle carries no signature'];
  const said = opened(bundle.signature, trusted);
  if (typeof said === 'string') return [`signed by the service: ${said}`];
  const events = bundle.events || [];
  const last = events[events.length - 1] || {};
  const ours = { format: bundle.format, game: bundle.game, events: events.length, head: last.hash, seed: bundle.seed || endedSeed(last) || null };
  const priv = bundle.private || [];
  if (priv.length) Object.assign(ours, { private: priv.length, private_head: (priv[priv.length - 1] || {}).hash });
  for (const field of ['format', 'game', 'events', 'head', 'seed', 'private', 'private_head']) {
    if (canonical(said[field]) !== canonical(ours[field])) {
      return [`signed by the service: key ${bundle.signature.kid} signed another ${field}`];
    }
  }
  return [];
}

// the seats when the game started: joins in order, a seat left frees it, later seats move up
function seatsAt(events, upto) {
  let seats = [];
  for (const env of events.slice(0, upto)) {
    if (env.type === 'game.PlayerJoined') seats.push({ seat: env.data.seat, player: env.data.player, name: env.data.name });
    if (env.type === 'game.PlayerLeft') seats = seats.filter((s) => s.player !== env.data.player).map((s, i) => ({ ...s, seat: i }));
  }
  return seats;
}

// the leaves a log calls for, by kind (events/transparency.py)
function leavesOf(events) {
  const first = events[0] || {};
  if (first.type !== 'game.Created') return {};
  const d = first.data;
  // a leaf names its game by sha256("marketfold-game:" + id): the log lists no game ids
  const game = typeof d.game_id === 'string' ? sha256(Buffer.from(`marketfold-game:${d.game_id}`, 'utf8')).toString('hex') : null;
  // an unlisted game's leaves are sealed: kind, game and a commitment keyed by its id
  const shown = (leaf, upto) => (unlisted(events.slice(0, upto)) ? sealed(d.game_id, leaf) : leaf);
  const creation = events[1] && events[1].type === 'game.Terms' ? 2 : 1;
  const out = {
    created: shown({ log: LOG, kind: 'created', game, ruleset: d.ruleset, rules_version: d.rules_version, players: d.players, options: d.options, decision_timeout_s: d.decision_timeout_s, league: d.league === undefined ? null : d.league, seed_commitment: d.seed_commitment, at: first.at }, creation),
  };
  const started = events.findIndex((e) => e.type === 'game.Started');
  if (started >= 0) out.started = shown({ log: LOG, kind: 'started', game, seats: seatsAt(events, started + 1) }, started + 1);
  const last = events[events.length - 1];
  if (last.type === 'game.Ended') out.ended = shown({ log: LOG, kind: 'ended', game, events: events.length, head: last.hash, result: last.data.result }, events.length);
  return out;
}

// whether the game is unlisted after these events: its game.Terms, until a lapse lists it
function unlisted(events) {
  let hidden = false;
  for (const env of events) {
    if (env.type === 'game.Terms') hidden = Boolean(env.data.unlisted);
    else if (env.type === 'game.ReservationsLapsed' && env.data.listed) hidden = false;
  }
  return hidden;
}

// sha256("marketfold-leaf:" + id + ":" + the leaf's canonical text), in place of the leaf
function sealed(gameId, leaf) {
  const digest = sha256(Buffer.from(`marketfold-leaf:${gameId}:${canonical(leaf)}`, 'utf8')).toString('hex');
  return { log: LOG, kind: leaf.kind, game: leaf.game, sealed: digest };
}

const leafHash = (text) => sha256(Buffer.from([0]), Buffer.from(text, 'utf8'));
const nodeHash = (l, r) => sha256(Buffer.from([1]), l, r);

// RFC 9162 2.1.3.2
function includes(text, index, size, path, root) {
  if (!(index >= 0 && index < size)) return false;
  let fn = index, sn = size - 1, r = leafHash(text);
  for (const hex of path) {
    const p = Buffer.from(hex, 'hex');
    if (sn === 0) return false;
    if ((fn & 1) || fn === sn) {
      r = nodeHash(p, r);
      if (!(fn & 1)) while (fn && !(fn & 1)) { fn >>= 1; sn >>= 1; }
    } else r = nodeHash(r, p);
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 && r.equals(root);
}

// RFC 9162 2.1.4.2
function consistent(first, second, proof, firstRoot, secondRoot) {
  if (!(first > 0 && first <= second)) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (!proof.length) return false;
  const path = proof.map((h) => Buffer.from(h, 'hex'));
  if ((first & (first - 1)) === 0) path.unshift(firstRoot);
  let fn = first - 1, sn = second - 1;
  while (fn & 1) { fn >>= 1; sn >>= 1; }
  let fr = path[0], sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if ((fn & 1) || fn === sn) {
      fr = nodeHash(c, fr); sr = nodeHash(c, sr);
      if (!(fn & 1)) while (fn && !(fn & 1)) { fn >>= 1; sn >>= 1; }
    } else sr = nodeHash(sr, c);
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

function headProblem(head, trusted) {
  if (!head || typeof head !== 'object') return 'no signed tree head';
  const said = opened(head.signature, trusted);
  if (typeof said === 'string') return `the tree head: ${said}`;
  if (canonical(said) !== canonical({ log: LOG, size: head.size, root: head.root, at: head.at })) return "the tree head's fields differ from the statement its key signed";
  return null;
}

function logged(bundle, trusted) {
  const proof = bundle.transparency;
  if (!proof) return ['in the public log of games: the bundle carries no transparency proofs'];
  const why = headProblem(proof.tree_head, trusted);
  if (why) return [`in the public log of games: ${why}`];
  const { size, root } = proof.tree_head;
  const given = {};
  for (const item of proof.leaves || []) given[JSON.parse(item.leaf).kind] = item;
  const problems = [];
  for (const [kind, expected] of Object.entries(leavesOf(bundle.events || []))) {
    const item = given[kind];
    if (!item) { problems.push(`in the public log of games: no ${kind} leaf for this game`); continue; }
    if (canonical(JSON.parse(item.leaf)) !== canonical(expected)) { problems.push(`in the public log of games: the ${kind} leaf logged for this game differs from the bundle's log`); continue; }
    if (!includes(item.leaf, item.index, size, item.path, Buffer.from(root, 'hex'))) problems.push(`in the public log of games: the ${kind} leaf (index ${item.index}) is not in the tree head`);
  }
  return problems;
}

function seenBefore(bundle, seen, consistency, trusted) {
  const saved = seen.tree_head || seen;
  const why = headProblem(saved, trusted);
  if (why) return [`consistent with a tree head seen before: the saved ${why}`];
  const head = bundle.transparency.tree_head;
  const [a, b] = [saved, head].sort((x, y) => x.size - y.size);
  if (a.size !== b.size || a.root !== b.root) {
    const path = consistency && consistency.path;
    if (!path) return ['consistent with a tree head seen before: no consistency proof between the saved tree head and the bundle\'s'];
    if (!consistent(a.size, b.size, path, Buffer.from(a.root, 'hex'), Buffer.from(b.root, 'hex'))) return [`consistent with a tree head seen before: the tree of ${b.size} leaves does not extend the one of ${a.size}`];
  }
  const ours = {};
  for (const item of bundle.transparency.leaves || []) ours[JSON.parse(item.leaf).kind] = item;
  for (const item of seen.leaves || []) {
    const kind = JSON.parse(item.leaf).kind;
    const mine = ours[kind];
    if (!mine || mine.index !== item.index || mine.leaf !== item.leaf) return [`consistent with a tree head seen before: the saved receipt records this game's ${kind} as leaf ${item.index}; the bundle's differs: the game was rewritten`];
  }
  const events = bundle.events || [];
  const last = events[events.length - 1] || {};
  if (last.type === 'game.Ended' && ours.ended && ours.ended.index >= saved.size && (Date.parse(saved.at) - Date.parse(last.at)) / 1000 > MERGE_DELAY_S) {
    return [`consistent with a tree head seen before: the game ended at ${last.at}, before the saved tree head of ${saved.at}, but its end was logged later: the game was rewritten`];
  }
  return [];
}

// A receipt kept at the game's end (marketfold-receipt/1): the service's signed promise of
// the game's ended leaf. The bundle's log must call for exactly that leaf.
function promised(bundle, promise, trusted) {
  const name = 'the end its receipt promised';
  if (!promise || typeof promise !== 'object') return [`${name}: the receipt's promise is not an object`];
  const said = opened(promise.signature, trusted);
  if (typeof said === 'string') return [`${name}: the receipt's promise: ${said}`];
  if (!said || said.kind !== 'promise' || said.log !== LOG) return [`${name}: the receipt's signature is not over a promise of the log of games`];
  if (['game', 'leaf', 'at', 'merge_delay_s'].some((k) => canonical(promise[k]) !== canonical(said[k]))) return [`${name}: the receipt's promise differs from the statement its key signed`];
  const events = bundle.events || [];
  const id = ((events[0] || {}).data || {}).game_id;
  if (typeof id !== 'string' || said.game !== sha256(Buffer.from(`marketfold-game:${id}`, 'utf8')).toString('hex')) return [`${name}: the receipt is of another game, not of game ${id}`];
  const ended = leavesOf(events).ended;
  if (!ended) return [`${name}: the bundle's log has no end, but the receipt promised one`];
  if (said.leaf !== canonical(ended)) return [`${name}: the service promised at ${said.at} another end of this game than the bundle's log: the game was rewritten after it ended`];
  return [];
}

// A kept receipt, offline, whose head is not the bundle's: with no consistency proof between
// them, each leaf it kept must be the bundle's, at the same index (events/receipts.py).
function keptLeaves(bundle, kept, trusted) {
  const saved = kept.tree_head || kept;
  const head = bundle.transparency.tree_head;
  if (saved.size === head.size && saved.root === head.root) return seenBefore(bundle, kept, null, trusted);
  const why = headProblem(saved, trusted);
  if (why) return [`consistent with a tree head seen before: the saved ${why}`];
  if (saved.size === head.size) return [`consistent with a tree head seen before: fork: two heads of size ${saved.size} with different roots: the log was rewritten`];
  const ours = {};
  for (const item of bundle.transparency.leaves || []) ours[JSON.parse(item.leaf).kind] = item;
  for (const item of kept.leaves || []) {
    const kind = JSON.parse(item.leaf).kind;
    const mine = ours[kind];
    if (!mine || mine.index !== item.index || mine.leaf !== item.leaf) return [`consistent with a tree head seen before: the receipt kept records this game's ${kind} as leaf ${item.index}; the bundle's is another: the game was rewritten`];
  }
  return [];
}

// --- checkpoints and witnesses (c2sp.org/signed-note, tlog-checkpoint, tlog-cosignature)
const WITNESSED = 'cosigned by the witnesses';
const keyId = (name, type, raw) => sha256(Buffer.from(`${name}\n`, 'utf8'), Buffer.from([type]), raw).subarray(0, 4);
const rawKey = (key) => Buffer.from(key.export({ format: 'jwk' }).x, 'base64url');

// a verifier key `<name>+<key id hex>+base64(0x04 || Ed25519 public key)`
function parseVkey(text) {
  const t = text.trim();
  const a = t.indexOf('+'), b = t.indexOf('+', a + 1);
  const name = t.slice(0, a), id = t.slice(a + 1, b), raw = Buffer.from(t.slice(b + 1), 'base64');
  if (a <= 0 || b < 0 || raw.length !== 33 || raw[0] !== 4) throw new Error(`not a cosignature verifier key: ${t.slice(0, 60)}`);
  if (keyId(name, 4, raw.subarray(1)).toString('hex') !== id) throw new Error(`the verifier key of ${name} names key ID ${id}, not its own`);
  const key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') }, format: 'jwk' });
  return { name, id: Buffer.from(id, 'hex'), key };
}

// a signed note's text, its checkpoint and its signature lines (throws if it is not one)
function parseNote(data) {
  const cut = data.lastIndexOf('\n\n');
  if (cut < 0 || !data.endsWith('\n') || /[\x00-\x09\x0b-\x1f]/.test(data)) throw new Error('the checkpoint is not a signed note');
  const text = data.slice(0, cut + 1);
  const lines = data.slice(cut + 2, -1).split('\n').map((l) => {
    const m = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/=]+)$/.exec(l);
    if (!m) throw new Error(`not a signature line: ${l.slice(0, 60)}`);
    const blob = Buffer.from(m[2], 'base64');
    return { name: m[1], id: blob.subarray(0, 4), sig: blob.subarray(4) };
  });
  const [origin, size, root] = text.slice(0, -1).split('\n');
  if (!/^(0|[1-9][0-9]*)$/.test(size || '') || Buffer.from(root || '', 'base64').length !== 32) throw new Error('the note is not a checkpoint (origin, size, root hash)');
  return { text, lines, origin, size: Number(size), root: Buffer.from(root, 'base64') };
}

// how many of the witnesses cosigned a checkpoint holding the bundle's leaves: the note must
// carry the log's signature (a trusted key, named as the origin) and be consistent with the
// bundle's tree head (`consistency`: the proof between the two sizes when they differ)
function witnessed(bundle, noteText, vkeys, quorum, consistency, trusted) {
  let cp;
  try { cp = parseNote(noteText); } catch (e) { return { problems: [`${WITNESSED}: ${e.message}`] }; }
  const signedByLog = Object.values(trusted).some((key) => cp.lines.some((l) => l.name === cp.origin && l.id.equals(keyId(cp.origin, 1, rawKey(key))) && crypto.verify(null, Buffer.from(cp.text, 'utf8'), key, l.sig)));
  if (!signedByLog) return { problems: [`${WITNESSED}: the checkpoint of size ${cp.size} is not signed by a trusted key`] };
  const names = vkeys.filter((w) => cp.lines.some((l) => {
    if (l.name !== w.name || !l.id.equals(w.id) || l.sig.length !== 72) return false;
    const msg = `cosignature/v1\ntime ${l.sig.readBigUInt64BE(0)}\n${cp.text}`;
    return crypto.verify(null, Buffer.from(msg, 'utf8'), w.key, l.sig.subarray(8));
  })).map((w) => w.name);
  const head = bundle.transparency.tree_head;
  const root = Buffer.from(head.root, 'hex');
  if (cp.size === head.size && !cp.root.equals(root)) {
    return { problems: [`${WITNESSED}: fork: two heads of size ${cp.size} with different roots (${cp.root.toString('hex').slice(0, 16)}... cosigned by ${names.join(', ') || 'no witness given'}, ${head.root.slice(0, 16)}... the bundle's): the log was rewritten`] };
  }
  if (cp.size !== head.size) {
    const [a, b] = cp.size < head.size ? [[cp.size, cp.root], [head.size, root]] : [[head.size, root], [cp.size, cp.root]];
    if (!consistency || !consistency.path) return { problems: [`${WITNESSED}: no consistency proof between the checkpoint of size ${cp.size} and the bundle's tree head of size ${head.size} (--checkpoint-consistency)`] };
    if (a[0] > 0 && !consistent(a[0], b[0], consistency.path, a[1], b[1])) {
      return { problems: [`${WITNESSED}: fork: the bundle's head of size ${head.size} and the checkpoint of size ${cp.size} cosigned by ${names.join(', ') || 'no witness given'} are not one log: the log was rewritten`] };
    }
  }
  const last = Math.max(...(bundle.transparency.leaves || []).map((i) => i.index));
  if (last >= cp.size) return { problems: [`${WITNESSED}: unwitnessed: the checkpoint of size ${cp.size} cosigned by ${names.join(', ') || 'no witness given'} does not yet hold leaf ${last}`] };
  if (names.length < quorum) return { problems: [`${WITNESSED}: unwitnessed: ${names.length} of the ${vkeys.length} witnesses given cosigned the checkpoint, ${quorum} needed`] };
  return { problems: [], detail: `in a checkpoint of size ${cp.size} cosigned by ${names.length} of the ${vkeys.length} witnesses given (${names.join(', ')}; ${quorum} needed)` };
}

// keys with a history (docs/audit.md, "Keys with a history"): the windows a JWK Set
// publishes on its keys, and each signature of a bundle dated inside its key's
const KEYCHECK = "signed within its key's window";

function windows(jwks) {
  const out = {};
  for (const k of (jwks && jwks.keys) || []) {
    if ([k.not_before, k.not_after, k.retired_leaf].some((v) => v !== undefined && v !== null)) {
      out[k.kid] = { notBefore: k.not_before, notAfter: k.not_after, first: k.first_leaf, last: k.retired_leaf };
    }
  }
  return out;
}

function dated(kid, at, ws, what) {
  const w = ws[kid];
  if (!w) {
    return Object.values(ws).some((x) => Number.isInteger(x.first)) ? `unlogged_key: ${what} is signed by key ${kid}, which no key leaf of the log names` : null;
  }
  const when = Date.parse(at);
  if (typeof at !== 'string' || Number.isNaN(when)) return `backdated: ${what} signed by key ${kid} carries no valid date`;
  if (w.notAfter && when >= Date.parse(w.notAfter)) return `retired_key: ${what} is dated ${at}, but key ${kid} was retired at ${w.notAfter} (leaf ${w.last}): a retired key signed it`;
  if (w.notBefore && when < Date.parse(w.notBefore)) return `key_not_yet_valid: ${what} is dated ${at}, before key ${kid} became active at ${w.notBefore} (leaf ${w.first})`;
  return null;
}

function sized(kid, size, ws, what) {
  const w = ws[kid];
  if (!w) return null;
  if (Number.isInteger(w.last) && size > w.last) return `backdated: ${what} holds ${size} leaves, the rotation that retired key ${kid} (leaf ${w.last}) among them, yet that key signed it: a retired key signed it later and dated it back`;
  if (Number.isInteger(w.first) && size <= w.first) return `key_not_yet_valid: ${what} holds ${size} leaves, not yet the leaf ${w.first} that made key ${kid} active`;
  return null;
}

// RFC 9162 2.1.1: the root of a log of leaf hashes
function rootOf(hashes) {
  if (hashes.length <= 1) return hashes.length ? hashes[0] : sha256();
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(rootOf(hashes.slice(0, k)), rootOf(hashes.slice(k)));
}

// every key's window from the log's own `key` leaves (`texts`: the log from its first
// leaf), as events/keylog.py history_of reads them: a leaf retiring a key ends that key's
// window where the new key's begins; the log's first key leaf ends the windows of the
// keys retired before rotations were logged (`earlier`)
function logWindows(texts) {
  const out = {};
  texts.forEach((text, index) => {
    let leaf;
    try { leaf = JSON.parse(text); } catch (e) { return; }
    if (!leaf || leaf.kind !== 'key' || leaf.log !== LOG || typeof leaf.key !== 'string' || typeof leaf.at !== 'string') return;
    if (typeof leaf.retires === 'string') {
      if (!out[leaf.key]) out[leaf.key] = { notBefore: leaf.at, first: index };
      const old = out[leaf.retires] || (out[leaf.retires] = {});
      if (old.last === undefined) { old.notAfter = leaf.at; old.last = index; }
    } else {
      if (!out[leaf.key]) out[leaf.key] = {};
      for (const e of leaf.earlier || []) if (typeof e === 'string' && !out[e]) out[e] = { notAfter: leaf.at, last: index };
    }
  });
  return out;
}

// the windows of the log's leaves (`texts`, from its first leaf) when they are the log a
// trusted head or checkpoint signs (their count its size, their root its root); else a
// finding: leaves that hash to no trusted root are not the log
function windowsOfLeaves(bundle, texts, noteText, trusted) {
  const anchors = [];
  const head = (bundle.transparency || {}).tree_head;
  if (head && !headProblem(head, trusted)) anchors.push({ size: head.size, root: Buffer.from(head.root, 'hex') });
  if (noteText) {
    try {
      const cp = parseNote(noteText);
      const signed = Object.values(trusted).some((key) => cp.lines.some((l) => l.name === cp.origin && l.id.equals(keyId(cp.origin, 1, rawKey(key))) && crypto.verify(null, Buffer.from(cp.text, 'utf8'), key, l.sig)));
      if (signed) anchors.push({ size: cp.size, root: cp.root });
    } catch (e) { /* a note that is no checkpoint anchors nothing */ }
  }
  const root = rootOf(texts.map(leafHash));
  if (!anchors.some((a) => a.size === texts.length && a.root.equals(root))) {
    return { problem: `${KEYCHECK}: the ${texts.length} leaves given (--leaves) hash to no root a trusted key signed (the bundle's tree head of ${head ? head.size : 0} leaves${noteText ? ', the checkpoint' : ''}): they are not the log` };
  }
  return { windows: logWindows(texts) };
}

function keyWindows(bundle, ws) {
  if (!Object.values(ws).some((w) => Number.isInteger(w.first) || Number.isInteger(w.last))) return [];
  const out = [];
  const events = bundle.events || [];
  const lastAt = (events[events.length - 1] || {}).at;
  const proof = bundle.transparency || {};
  const sig = bundle.signature;
  if (sig && typeof sig.kid === 'string') {
    let said = {};
    try { said = JSON.parse(sig.statement); } catch (e) { said = {}; }
    const rule = said && 'signed_at' in said ? 'signed_at' : "its last event's time";
    const at = rule === 'signed_at' ? said.signed_at : lastAt;
    const w = ws[sig.kid];
    const late = (proof.leaves || []).map((i) => i.index).filter((i) => w && Number.isInteger(w.last) && i >= w.last);
    let why = dated(sig.kid, at, ws, `the bundle's signature (dated by ${rule})`);
    if (!why && late.length) why = `backdated: the bundle is signed by key ${sig.kid}, retired at leaf ${w.last}, but its game's leaf ${Math.max(...late)} was logged after: a retired key signed it later`;
    if (!why && rule === 'signed_at' && Date.parse(at) < Date.parse(lastAt)) why = `backdated: key ${sig.kid} dated the bundle ${at}, before its last event (${lastAt}): it was signed later and dated back`;
    if (why) out.push(`${KEYCHECK}: ${why}`);
  }
  const head = proof.tree_head;
  if (head && head.signature && typeof head.signature.kid === 'string') {
    const what = `the bundle's tree head of ${head.size} leaves`;
    const why = dated(head.signature.kid, head.at, ws, what) || sized(head.signature.kid, head.size, ws, what);
    if (why) out.push(`${KEYCHECK}: ${why}`);
  }
  return out;
}

module.exports = { windows, logWindows, windowsOfLeaves, keyWindows, canonical, chain, privateChain, keyset, signature, logged, seenBefore, promised, keptLeaves, leavesOf, includes, consistent, parseVkey, parseNote, witnessed };

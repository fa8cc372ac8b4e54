// tools/rederive.js's key windows read from the log (docs/audit.md, "Keys with a history";
// tools/proof.js logWindows and keyWindows, which rederive.js runs on the leaves given with
// --leaves): a statement signed inside its key's window passes, one dated after the
// rotation leaf that retired the key fails, named `retired_key`, and one dated before its
// key's rotation leaf fails, named `key_not_yet_valid`. (tests/events/test_key_history.py
// runs rederive.js itself on a server's rotated log.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const proof = require("../../tools/proof.js");

const LOG = "marketfold-games/1";
const ROTATED = "2026-11-20T12:00:00Z";
const leaves = [
  JSON.stringify({ log: LOG, kind: "key", key: "k1", public: "AAAA", at: "2026-11-01T00:00:00Z" }),
  JSON.stringify({ log: LOG, kind: "created", game: "g1" }),
  JSON.stringify({ log: LOG, kind: "key", key: "k2", public: "BBBB", retires: "k1", at: ROTATED }),
];

// a bundle signed by `kid` at `signedAt`, its last event a minute before
function bundle(kid, signedAt) {
  const last = new Date(Date.parse(signedAt) - 60000).toISOString();
  return {
    events: [{ type: "game.Created", at: last, data: { game_id: "g1" } }],
    signature: { kid, statement: JSON.stringify({ game: "g1", signed_at: signedAt }) },
    transparency: {},
  };
}

const windows = proof.logWindows(leaves);

test("the log's rotation leaf ends the old key's window where the new key's begins", () => {
  assert.equal(windows.k1.notAfter, ROTATED);
  assert.equal(windows.k1.last, 2);
  assert.equal(windows.k2.notBefore, ROTATED);
  assert.equal(windows.k2.first, 2);
});

test("a statement signed inside its key's window passes", () => {
  assert.deepEqual(proof.keyWindows(bundle("k1", "2026-11-10T08:00:00Z"), windows), []);
  assert.deepEqual(proof.keyWindows(bundle("k2", "2026-11-21T08:00:00Z"), windows), []);
});

test("a statement dated after its key was retired fails, named retired_key", () => {
  const found = proof.keyWindows(bundle("k1", "2026-11-21T08:00:00Z"), windows);
  assert.equal(found.length, 1, found);
  assert.match(found[0], /^signed within its key's window: retired_key: .*key k1 was retired at 2026-11-20T12:00:00Z \(leaf 2\)/);
});

test("a statement dated before its key's rotation leaf fails, named key_not_yet_valid", () => {
  const found = proof.keyWindows(bundle("k2", "2026-11-10T08:00:00Z"), windows);
  assert.equal(found.length, 1, found);
  assert.match(found[0], /^signed within its key's window: key_not_yet_valid: /);
});

test("a key no key leaf of the log names is named unlogged_key", () => {
  const found = proof.keyWindows(bundle("k9", "2026-11-10T08:00:00Z"), windows);
  assert.match(found[0], /unlogged_key: .*key k9, which no key leaf of the log names/);
});

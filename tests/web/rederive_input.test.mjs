// tools/rederive.js answers a file it cannot read as a bundle with a clear message and
// exit status 2, never a stack trace (node --test, run by tests/api/test_web_words.py):
// a truncated download, bytes that are not UTF-8, a file saved as UTF-16, not a bundle;
// and `--game ID` fails a bundle of another game by name (#45 §5).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOOL = join(ROOT, "tools", "rederive.js");
const GENUINE = readFileSync(join(ROOT, "tests", "data", "bundles", "goblin-market-v3.json"));
const GAME = JSON.parse(GENUINE).events[0].data.game_id;
const dir = mkdtempSync(join(tmpdir(), "rederive-"));

function run(bytes, ...args) {
  const file = join(dir, `b${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, bytes);
  const done = spawnSync(process.execPath, [TOOL, file, ...args], { encoding: "utf-8" });
  assert.doesNotMatch(done.stderr, /\n\s+at /, "no stack trace");
  return done;
}

test("a truncated download is named as cut short", () => {
  const done = run(GENUINE.subarray(0, Math.floor(GENUINE.length / 2)));
  assert.equal(done.status, 2);
  assert.match(done.stderr, /is not complete JSON \(cut short: was the download truncated\?\)/);
});

test("bytes that are not UTF-8 are named", () => {
  const latin1 = Buffer.from(GENUINE.toString("utf-8").replace('"goblin-market"', '"gobl\u00efn"'), "latin1");
  const done = run(latin1);
  assert.equal(done.status, 2);
  assert.match(done.stderr, /is not UTF-8 text/);
});

test("a file saved as UTF-16 is refused as docs/audit.md says, with or without a BOM", () => {
  for (const bom of [Buffer.from([0xff, 0xfe]), Buffer.alloc(0)]) {
    const done = run(Buffer.concat([bom, Buffer.from(GENUINE.toString("utf-8"), "utf16le")]));
    assert.equal(done.status, 2);
    assert.match(done.stderr, /is UTF-16 or UTF-32 text, not UTF-8/);
  }
});

test("a UTF-8 file with a byte order mark is read", () => {
  const done = run(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), GENUINE]));
  assert.equal(done.status, 0, done.stdout + done.stderr);
});

test("JSON that is not a bundle is named, not thrown", () => {
  for (const text of ['{"events": "x"}', "[1, 2]", "null"]) {
    const done = run(Buffer.from(text));
    assert.equal(done.status, 2, text + done.stdout);
    assert.match(done.stderr, /rederive\.js: .* not a bundle/);
  }
  const half = run(Buffer.from('{"events": [{"type": "game.Created", "data": {}}]}'));
  assert.equal(half.status, 1); // a log that proves nothing: failed checks, named
  assert.match(half.stdout, /NOT re-derived/);
});

test("--game: the bundle must be the game asked for", () => {
  const other = run(GENUINE, "--game", "g_someOtherGame");
  assert.equal(other.status, 1);
  assert.match(other.stdout, new RegExp(`FAIL the game asked for: the bundle is game ${GAME}, not game g_someOtherGame`));
  const same = run(GENUINE, "--game", GAME);
  assert.equal(same.status, 0, same.stdout);
});

test("--leaves that hold no leaves, or leaves out of order, are named", () => {
  const keys = join(dir, "keys.json");
  writeFileSync(keys, JSON.stringify({ keys: [] }));
  const empty = join(dir, "noleaves.json");
  writeFileSync(empty, JSON.stringify({ something: 1 }));
  let done = run(GENUINE, "--keys", keys, "--leaves", empty);
  assert.equal(done.status, 2);
  assert.match(done.stderr, /holds no leaves \(GET \/v1\/transparency\/leaves/);
  const shuffled = join(dir, "shuffled.json");
  writeFileSync(shuffled, JSON.stringify({ leaves: [{ index: 1, leaf: "{}" }] }));
  done = run(GENUINE, "--keys", keys, "--leaves", shuffled);
  assert.equal(done.status, 2);
  assert.match(done.stderr, /leaf 1 comes where leaf 0 should/);
});

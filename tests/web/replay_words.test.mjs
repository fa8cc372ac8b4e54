// The replay viewer's words in English and Spanish (node --test, run by
// tests/api/test_web_words.py): the same keys and {placeholders} in both languages, and every
// key its modules and its HTML ask for (t("..."), data-t, data-t-title, data-t-aria,
// data-t-placeholder) is there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const REPLAY = join(ROOT, "api", "static", "replay");
const { REPLAY_WORDS } = await import(join(REPLAY, "words.js"));

const holes = (text) => [...String(text).matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();
// the families asked for by a computed key: t(`kind_${kind}`), t(`status_${game.status}`)
const KINDS = ["action", "auto", "default", "resolution", "extension", "lobby", "hidden"];
const STATUSES = ["waiting", "active", "finished", "cancelled"];

test("the replay viewer: English and Spanish have the same keys", () => {
  const en = Object.keys(REPLAY_WORDS.en);
  const es = Object.keys(REPLAY_WORDS.es);
  assert.deepEqual(en.filter((k) => !es.includes(k)), [], "keys missing in Spanish");
  assert.deepEqual(es.filter((k) => !en.includes(k)), [], "keys missing in English");
});

test("the replay viewer: each key has the same placeholders in both languages", () => {
  const wrong = Object.keys(REPLAY_WORDS.en)
    .filter((k) => k in REPLAY_WORDS.es && holes(REPLAY_WORDS.en[k]).join() !== holes(REPLAY_WORDS.es[k]).join());
  assert.deepEqual(wrong, []);
});

test("the replay viewer: every key its page and modules ask for is in both languages", () => {
  const asked = new Set([...KINDS.map((k) => `kind_${k}`), ...STATUSES.map((s) => `status_${s}`)]);
  for (const file of readdirSync(REPLAY).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(join(REPLAY, file), "utf-8");
    for (const m of source.matchAll(/\bt\(\s*"([A-Za-z0-9_-]+)"/g)) asked.add(m[1]);
    for (const m of source.matchAll(/\bt\(\s*[a-z.]+ \? "([A-Za-z0-9_]+)" : "([A-Za-z0-9_]+)"/g)) asked.add(m[1]).add(m[2]);
  }
  const html = readFileSync(join(REPLAY, "replay.html"), "utf-8");
  const marked = [...html.matchAll(/data-t(?:-title|-aria|-placeholder)?="([A-Za-z0-9_]+)"/g)].map((m) => m[1]);
  assert.ok(marked.length > 25, "the page's fixed words are marked for translation");
  for (const k of marked) asked.add(k);
  const missing = [...asked].filter((k) => !(k in REPLAY_WORDS.en) || !(k in REPLAY_WORDS.es));
  assert.deepEqual(missing, []);
});

test("the replay page has no fixed English text left unmarked", () => {
  const html = readFileSync(join(REPLAY, "replay.html"), "utf-8");
  const body = html.slice(html.indexOf("<body>"));
  // an element's own text that is words (not a symbol like ▶|) must carry data-t
  const bare = [...body.matchAll(/<([a-z0-9]+)((?:\s[^>]*)?)>([^<]*[A-Za-z]{2}[^<]*)</g)]
    .filter(([, , attrs]) => !/data-t=/.test(attrs))
    .map(([, tag, , text]) => `${tag}: ${text.trim()}`)
    .filter((s) => !/^(b|small): /.test(s));
  assert.deepEqual(bare, []);
});

test("the replay viewer: every check the verifier names has words in both languages", () => {
  // Check("...") in the audits, and the names the modules of the proofs give theirs
  const names = new Set();
  const files = ["cli/verify.py", "events/audit.py", "events/signature.py", "events/log_checks.py", "events/signed_dates.py",
    "events/witness_count.py", "leagues/audit.py", "service/proof.py"];
  for (const file of files) {
    const source = readFileSync(join(ROOT, file), "utf-8");
    for (const m of source.matchAll(/Check\("([^"]+)"\)/g)) names.add(m[1]);
    for (const m of source.matchAll(/^(?:CHECK|SEEN|STORED|HISTORY) = "([^"]+)"/gm)) names.add(m[1]);
  }
  assert.ok(names.size >= 11, `read ${[...names].join(", ")}`);
  const key = (n) => `check_${n.replace(/[^A-Za-z0-9]+/g, "_")}`;
  const missing = [...names].filter((n) => !(key(n) in REPLAY_WORDS.en) || !(key(n) in REPLAY_WORDS.es));
  assert.deepEqual(missing, []);
  const untranslated = [...names].filter((n) => REPLAY_WORDS.es[key(n)] === n);
  assert.deepEqual(untranslated, [], "Spanish words that are the English name");
});

// Every refusal and every event the page can show has words in English and Spanish (node
// --test, run by tests/api/test_web_words.py):
// - each problem code of openapi.yaml (x-problem-codes) has an err_<code> sentence in both;
// - each event type of every ruleset (games/*/events.py, the archived versions too) and each
//   table event (game.*, events/catalog.py) has an ev_<Name> in both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const APP = join(ROOT, "api", "static", "app");
const { WORDS } = await import(join(APP, "i18n.js"));
const { TABLE_WORDS } = await import(join(APP, "words_table.js"));
// each language's words, merged once (merging them again for every key cost seconds)
const ALL = Object.fromEntries(["en", "es"].map((l) => [l, { ...TABLE_WORDS[l], ...WORDS[l] }]));
const lacking = (keys) => ["en", "es"].flatMap((l) => keys.filter((k) => !(k in ALL[l])).map((k) => `${l}: ${k}`));

function problemCodes() {
  const spec = readFileSync(join(ROOT, "openapi.yaml"), "utf-8");
  const codes = new Set();
  for (const m of spec.matchAll(/x-problem-codes:\s*\[([^\]]*)\]/g)) {
    for (const c of m[1].split(",")) if (c.trim()) codes.add(c.trim());
  }
  for (const m of spec.matchAll(/x-problem-codes:\s*\n((?:\s+- [a-z_]+\n)+)/g)) {
    for (const c of m[1].matchAll(/- ([a-z_]+)/g)) codes.add(c[1]);
  }
  return [...codes].sort();
}

function rulesetEvents() {
  const names = new Set();
  const dirs = [join(ROOT, "games"), join(ROOT, "games", "archive")];
  for (const dir of dirs) {
    for (const game of readdirSync(dir)) {
      const file = join(dir, game, "events.py");
      if (!existsSync(file)) continue;
      const source = readFileSync(file, "utf-8");
      for (const m of source.matchAll(/^\s+"([A-Z][A-Za-z]+)":\s*[A-Za-z_]+\(/gm)) names.add(m[1]);
    }
  }
  return [...names].sort();
}

// the table's events, as their one catalog lists them (events/catalog.py; a test there fails
// on a game.* type written anywhere else)
function tableEvents() {
  const source = readFileSync(join(ROOT, "events", "catalog.py"), "utf-8");
  return [...source.matchAll(/^[A-Z_]+ = "game\.([A-Z][A-Za-z]+)"$/gm)].map((m) => m[1]).sort();
}

test("every problem code in openapi.yaml has a sentence in English and in Spanish", () => {
  const codes = problemCodes();
  assert.ok(codes.length > 100, `read ${codes.length} codes from openapi.yaml`);
  assert.deepEqual(lacking(codes.map((c) => `err_${c}`)), []);
});

test("every event of every ruleset has a name in English and in Spanish", () => {
  const names = rulesetEvents();
  assert.ok(names.length > 80, `read ${names.length} event types from games/`);
  assert.deepEqual(lacking(names.map((n) => `ev_${n}`)), []);
});

test("every table event (game.*) has a name in English and in Spanish", () => {
  const names = tableEvents();
  assert.ok(names.includes("PlayerJoined") && names.length > 10, `read ${names.length} table events`);
  assert.deepEqual(lacking(names.map((n) => `ev_${n}`)), []);
});

test("every reason a game ends for (events/ending.py) has words in English and in Spanish", () => {
  const source = readFileSync(join(ROOT, "events", "ending.py"), "utf-8");
  const reasons = [...new Set([...source.matchAll(/return "([a-z_]+)"/g)].map((m) => m[1]))];
  assert.ok(reasons.includes("completed"), `read ${reasons.join(", ")}`);
  assert.deepEqual(lacking(reasons.map((r) => `reason_${r}`)), []);
});

test("every field of every ruleset's events has a Spanish name (the log's words)", async () => {
  const { WORDS_ES } = await import(join(APP, "words_es.js"));
  const fields = new Set();
  for (const game of readdirSync(join(ROOT, "games"))) {
    const file = join(ROOT, "games", game, "events.py");
    if (!existsSync(file)) continue;
    const source = readFileSync(file, "utf-8");
    for (const m of source.matchAll(/(?:EventType\(\(|sealed\(|offer\()([^)]*)\)/g)) {
      for (const f of m[1].matchAll(/"([a-z_]+)"/g)) fields.add(f[1]);
    }
  }
  assert.ok(fields.size > 60, `read ${fields.size} fields`);
  assert.deepEqual([...fields].filter((f) => !(f in WORDS_ES)).sort(), []);
});

// the verifier's failure codes (openapi.yaml VerifyReport checks[].code)
function checkCodes() {
  const spec = readFileSync(join(ROOT, "openapi.yaml"), "utf-8");
  const block = spec.slice(spec.indexOf("\n    VerifyReport:"));
  const m = block.match(/\n {14}code:[\s\S]*?enum: \[([^\]]*)\]/);
  return m[1].split(",").map((c) => c.trim()).filter((c) => c && c !== "null").sort();
}

test("every reason a verifier's check fails has words in English and in Spanish", () => {
  const codes = checkCodes();
  assert.ok(codes.length > 40 && codes.includes("hash_mismatch"), `read ${codes.join(", ")}`);
  assert.deepEqual(lacking(codes.map((c) => `fail_${c}`)), []);
});

test("every event of the four games reads as a sentence in English and in Spanish (words_log.js)", async () => {
  const { LOG_LINES } = await import(join(APP, "words_log.js"));
  const missing = [];
  for (const game of ["goblin_market", "sorcerous_futures", "black_market", "gobcon"]) {
    const source = readFileSync(join(ROOT, "games", game, "events.py"), "utf-8");
    for (const m of source.matchAll(/^\s+"([A-Z][A-Za-z]+)":\s*[A-Za-z_]+\(/gm)) {
      const pair = LOG_LINES[`${game.replace(/_/g, "-")}.${m[1]}`];
      const scored = ["GameScored", "GameFinished"].includes(m[1]); // the score's own sentence (log.js)
      if (!scored && !(Array.isArray(pair) && pair.length === 2 && pair.every((f) => typeof f === "function"))) {
        missing.push(`${game}.${m[1]}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

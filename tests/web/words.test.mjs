// Every word of the web client in both languages (node --test): the same keys in English and
// Spanish, the same {placeholders} in both, and every key the page's modules ask t() for is
// there. Run by tests/api/test_web_words.py (or: node --experimental-detect-module --test
// tests/web/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const APP = join(ROOT, "api", "static", "app");
const { WORDS } = await import(join(APP, "i18n.js"));
const { TABLE_WORDS } = await import(join(APP, "words_table.js"));

const all = (l) => ({ ...TABLE_WORDS[l], ...WORDS[l] });
const holes = (text) => [...String(text).matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();

// the decisions the four games owe (games/*/actions.py), the goods and suits they name
const KINDS = ["bid", "split_choice", "card_choice", "auction", "sealed_bid", "crowns", "turn", "respond", "join",
  "roll", "target", "give", "lose_item", "produce", "propose", "answer", "pick", "trade", "give_back", "raise",
  "shift", "sell", "discard"];
const FAMILIES = [
  ...KINDS.map((k) => `kind_${k}`),
  ...["red", "yellow", "green", "blue", "purple", "orange"].map((c) => `good_${c}`),
  ...["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"].map((s) => `suit_${s}`),
];

for (const [name, table] of [["i18n.js WORDS", WORDS], ["words_table.js", TABLE_WORDS]]) {
  test(`${name}: English and Spanish have the same keys`, () => {
    const en = Object.keys(table.en).sort();
    const es = Object.keys(table.es).sort();
    assert.deepEqual(en.filter((k) => !es.includes(k)), [], "keys missing in Spanish");
    assert.deepEqual(es.filter((k) => !en.includes(k)), [], "keys missing in English");
  });
}

test("each key has the same placeholders in both languages", () => {
  const en = all("en");
  const es = all("es");
  const wrong = Object.keys(en).filter((k) => k in es && holes(en[k]).join() !== holes(es[k]).join());
  assert.deepEqual(wrong, []);
});

test("every key the page's modules ask for is in both languages", () => {
  const en = all("en");
  const es = all("es");
  const asked = new Set(FAMILIES);
  for (const file of readdirSync(APP).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(join(APP, file), "utf-8");
    for (const m of source.matchAll(/\bt\(\s*"([A-Za-z0-9_-]+)"/g)) asked.add(m[1]);
  }
  const missing = [...asked].filter((k) => !(k in en) || !(k in es));
  assert.deepEqual(missing, []);
});

// games/*/actions.py SHAPES: {"type": {"field": ...}, ...}
function actionShapes() {
  const types = new Set();
  const fields = new Set();
  for (const game of readdirSync(join(ROOT, "games"))) {
    let source;
    try {
      source = readFileSync(join(ROOT, "games", game, "actions.py"), "utf-8");
    } catch {
      continue;
    }
    const block = source.match(/^SHAPES[^=]*= \{\n([\s\S]*?)^\}/m);
    if (!block) continue;
    for (const m of block[1].matchAll(/^ {4}"([a-z_]+)": \{([^}]*)\}/gm)) {
      types.add(m[1]);
      for (const f of m[2].matchAll(/"([a-z_]+)"/g)) fields.add(f[1]);
    }
  }
  return { types: [...types].sort(), fields: [...fields].sort() };
}

test("every action of every game is named in the move box in English and in Spanish", async () => {
  const { types, fields } = actionShapes();
  assert.ok(types.length > 25 && types.includes("answer"), `read ${types.join(", ")}`);
  assert.deepEqual(["en", "es"].flatMap((l) => types.filter((k) => !(`act_${k}` in all(l))).map((k) => `${l}: act_${k}`)), []);
  const { WORDS_ES } = await import(join(APP, "words_es.js"));
  assert.deepEqual(fields.filter((f) => !(f in WORDS_ES)), [], "an action's field with no Spanish name");
});

test("no table word is hidden by a different i18n.js word of the same key", () => {
  // t() reads i18n.js's WORDS first: a words_table.js key it also has never shows (the game's
  // Cancel once asked "Cancel the league for good?")
  const hidden = ["en", "es"].flatMap((l) => Object.keys(TABLE_WORDS[l])
    .filter((k) => k in WORDS[l] && WORDS[l][k] !== TABLE_WORDS[l][k]).map((k) => `${l}: ${k}`));
  assert.deepEqual(hidden, []);
});

test("the unread badge's spoken name contains its shown words (axe: label-content-name-mismatch)", () => {
  for (const l of ["en", "es"]) {
    const w = all(l);
    for (const n of [1, 3]) {
      const shown = w.unreadBadge.replace("{n}", n);
      const spoken = n === 1 ? w.unreadOne : w.unreadMany.replace("{n}", n);
      assert.ok(spoken.includes(shown), `${l}: "${spoken}" does not contain "${shown}"`);
    }
  }
});

// The table's log as the page writes it, run in Node for tests/api/test_web_log_values.py:
// reads {seats, glossary: {en, es}, events, values} on stdin and prints, for English and
// Spanish, every event's sentence (log.js `sentence`, named by log.js `namer` as the table
// names them) and the words of every [field, value] pair (log.js `valueWord`, null if none).
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const store = {};
globalThis.localStorage = { getItem: (k) => store[k] ?? null, setItem: (k, v) => { store[k] = v; } };
globalThis.document = { documentElement: { lang: "en" } };
globalThis.location = new URL("http://localhost/");
const { sentence, namer, valueWord } = await import(join(ROOT, "api", "static", "app", "log.js"));

const input = JSON.parse(readFileSync(0, "utf-8"));
const out = {};
for (const lang of ["en", "es"]) {
  globalThis.location = new URL(`http://localhost/?lang=${lang}`);
  globalThis.document.documentElement.lang = lang;
  const gloss = input.glossary[lang];
  const name = namer({
    seatName: (n) => input.seats[n],
    glossed: (v) => gloss[v] || gloss[String(v).replace(/#[0-9]+$/, "")] || null,
    isSeat: (k, v) => k === "seat" && Number.isInteger(v) && v < input.seats.length,
  });
  out[lang] = {
    sentences: input.events.map((ev) => sentence(ev, name)),
    values: input.values.map(([k, v]) => valueWord(k, v)),
  };
}
process.stdout.write(JSON.stringify(out));

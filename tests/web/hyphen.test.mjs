// Soft hyphens at Spanish syllables for narrow card titles (api/static/shared/hyphen.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { hyphenate, SHY } = await import(join(ROOT, "api", "static", "shared", "hyphen.js"));
const shown = (text) => hyphenate(text, "es").replaceAll(SHY, "-");

test("a long Spanish word breaks at its syllables", () => {
  assert.equal(shown("El Descubrimiento"), "El Des-cu-bri-mien-to");
  assert.equal(shown("El Diplomático"), "El Di-plo-má-ti-co");
  assert.equal(shown("El Encuentro Casual"), "El En-cuen-tro Casual"); // short words stay whole
  assert.equal(shown("construcción"), "cons-truc-ción"); // three consonants: the onset stays
  assert.equal(shown("guerrero"), "gue-rre-ro"); // rr and a silent u
  assert.equal(shown("aeropuerto"), "ae-ro-puer-to"); // never a single letter alone
  assert.equal(shown("Logorrea-Man"), "Lo-go-rrea-Man");
});

test("English and short words are left as they are; the letters never change", () => {
  assert.equal(hyphenate("The Discovery", "en"), "The Discovery");
  for (const name of ["La Calamidad", "El sobrino del subastador", "Pingüino"]) {
    assert.equal(hyphenate(name, "es").replaceAll(SHY, ""), name);
  }
});

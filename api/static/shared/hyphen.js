// Where a long word may break, for a narrow card title: soft hyphens (U+00AD) at its
// syllables' boundaries, so a line breaks there with a hyphen and never mid-syllable (Chromium
// on Linux has no hyphenation dictionaries: `hyphens: auto` does nothing). Spanish syllables
// follow regular rules (below); other languages are returned as they are. Pure: no DOM.

export const SHY = "\u00AD";
const LONG = 7; // shorter words fit a card's line
const VOWELS = "aeiouáéíóúü";
const STRONG = "aeoáéíóú"; // an accented i or u stands alone like a strong vowel (hiatus)
const ONSETS = new Set(["bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kl", "kr", "pl", "pr", "tr", "ch", "ll", "rr"]);

// Is letter i of a lower-case word a vowel? The u of qu, gue, gui is silent; y before a
// vowel is a consonant.
function vowelAt(w, i) {
  const c = w[i];
  if (c === "u" && i > 0 && (w[i - 1] === "q" || (w[i - 1] === "g" && "eéií".includes(w[i + 1] || "")))) return false;
  if (c === "y") return !(i + 1 < w.length && VOWELS.includes(w[i + 1]));
  return VOWELS.includes(c);
}

// The offsets where a Spanish word (letters only) splits into syllables.
export function syllableBreaks(word) {
  const w = word.toLowerCase();
  const vowel = [...w].map((_, i) => vowelAt(w, i));
  const out = [];
  let i = vowel.indexOf(true);
  while (i >= 0 && i < w.length) {
    let j = i + 1; // the end of this nucleus: vowels that stay together
    while (j < w.length && vowel[j] && !(STRONG.includes(w[j - 1]) && STRONG.includes(w[j]))) j++;
    let k = j; // the next nucleus
    while (k < w.length && !vowel[k]) k++;
    if (k >= w.length) break;
    const between = w.slice(j, k).replace(/h/g, (h, at) => (w[j + at - 1] === "c" ? h : "")); // a silent h does not count
    const n = k - j;
    if (between.length === 0) out.push(k - (n && w[k - 1] === "h" ? 1 : 0));
    else if (n === 1) out.push(j);
    else if (n === 2) out.push(ONSETS.has(w.slice(j, k)) ? j : j + 1);
    else if (n === 3) out.push(ONSETS.has(w.slice(k - 2, k)) ? j + 1 : j + 2);
    else out.push(k - 2);
    i = k;
  }
  return out.filter((at) => at >= 2 && w.length - at >= 2);
}

// `text` with soft hyphens between the syllables of its long words, in `lang` (else as it is).
export function hyphenate(text, lang) {
  if (!String(lang).startsWith("es")) return String(text);
  return String(text).replace(/[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+/g, (word) => {
    if (word.length < LONG) return word;
    let out = "";
    let from = 0;
    for (const at of syllableBreaks(word)) {
      out += word.slice(from, at) + SHY;
      from = at;
    }
    return out + word.slice(from);
  });
}

// A game's options as a player reads them on the create form: each option's label and help in
// words (words_table.js, opt_<ruleset>_<option>), not the API's field names and schema notes,
// and a link to the game's "How to play" page (/rules/<ruleset>).
import { el } from "../shared/dom.js";
import { t, lang } from "./i18n.js";

// the options schema with the page's own help for each option it has words for
export function helped(ruleset) {
  const schema = ruleset.options || {};
  const props = schema.properties || {};
  const out = {};
  for (const [k, s] of Object.entries(props)) {
    const key = `opt_${ruleset.id}_${k}`;
    const help = t(key);
    out[k] = help === key ? s : { ...s, description: help };
  }
  return { ...schema, properties: out };
}

export function rulesLink(rulesetId) {
  const a = el("a", "rules-link", t("howToPlay"));
  a.href = `/rules/${encodeURIComponent(rulesetId)}?lang=${lang()}`;
  a.target = "_blank";
  a.rel = "noopener";
  return a;
}

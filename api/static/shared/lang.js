// The page's language, the same for the web client and the replay viewer: a `?lang=` in the
// address (a shared link), else the choice stored in this browser, else the browser's own
// languages (navigator.languages), else English.
export const LANG_KEY = "marketfold.lang";
export const LANGS = { en: "English", es: "Español" };

export function pickLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGS[asked]) return asked;
  let chosen = null;
  try {
    chosen = localStorage.getItem(LANG_KEY);
  } catch {
    chosen = null;
  }
  if (chosen && LANGS[chosen]) return chosen;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return "en";
}

// Keep a choice made with the page's selector; a `?lang=` in the address is dropped so that
// the choice, not the old link, holds from now on.
export function storeLang(l) {
  try {
    localStorage.setItem(LANG_KEY, l);
  } catch {
    /* the choice then lasts for this page only */
  }
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang");
    history.replaceState(history.state, "", url);
  }
  document.documentElement.lang = l;
}

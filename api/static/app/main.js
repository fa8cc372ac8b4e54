// The web client at `/`: the header (language, who is playing, sign out, notifications) and
// the pages, chosen by the address's hash: `#/` (home: my games, lobby, leagues, a new
// game), `#/g/<game id>` (a table: play, watch, join by link; the header then says when
// another game waits on the player, elsewhere.js), `#/l/<league id>` (a league: join,
// leave, rounds, standings, and the organizer's desk; `#/l/<id>/edit`, its settings;
// `#/l/<id>/review/<game id>`, a game's review where disputes are ruled) and
// `#/leagues/new`.
import { el, add } from "../shared/dom.js";
import { me, forget, get } from "./api.js";
import { t, lang, setLang, LANGS, problemWords } from "./i18n.js";
import { drawHome } from "./home.js";
import { drawTable } from "./table.js";
import { drawModeration } from "./moderation.js";
import { drawLeague } from "./league.js";
import { drawReview } from "./leaguereview.js";
import { drawNewLeague, drawEditLeague } from "./leagueform.js";
import { askNotifications } from "./signal.js";
import { watchElsewhere } from "./elsewhere.js";
import { stopPush } from "./push.js";
import { watchReveals } from "./seatseed.js";
import { watchLeagueSeeds } from "./leagueseed.js";

const $ = (id) => document.getElementById(id);
let leaving = null; // closes the page shown (its streams, its timers)
let routed = 0; // pages asked for so far

const app = {
  live: "",
  fail(e) {
    const box = $("error");
    box.textContent = e ? problemWords(e) : "";
    box.hidden = !e;
  },
  signOut() {
    forget();
  },
  showToken(token) {
    const box = $("token-once");
    $("token-value").value = token;
    box.hidden = false;
    $("token-value").focus();
    $("token-value").select();
  },
  async route() {
    app.fail(null);
    if (leaving) leaving();
    leaving = null;
    header();
    const turn = ++routed;
    // the page draws through this view of #app, which a page asked for later takes over: a
    // slower page (a home page still reading) never draws over the one now shown
    const app$ = $("app");
    const root = {
      replaceChildren: (...nodes) => { if (turn === routed) app$.replaceChildren(...nodes); },
      contains: (node) => app$.contains(node),
    };
    // a table: #/g/<game id>, or #/g/<game id>/<secret> (an unlisted game's invitation link)
    const m = location.hash.match(/^#\/g\/([A-Za-z0-9_-]{1,64})(?:\/([A-Za-z0-9_-]{1,128}))?/);
    // a league: #/l/<league id> (also its join link); a new league: #/leagues/new
    const l = location.hash.match(/^#\/l\/([A-Za-z0-9_-]{1,64})(\/edit)?$/);
    // a league game's review, where disputes are ruled: #/l/<league id>/review/<game id>
    const r = location.hash.match(/^#\/l\/([A-Za-z0-9_-]{1,64})\/review\/([A-Za-z0-9_-]{1,64})$/);
    $("turns-elsewhere").hidden = true;
    try {
      const page = m ? await drawTable(root, m[1], app, m[2] || null)
        : r ? await drawReview(root, r[1], r[2], app)
        : l ? await (l[2] ? drawEditLeague(root, l[1], app) : drawLeague(root, l[1], app))
          : location.hash === "#/leagues/new" ? await drawNewLeague(root, app)
            : location.hash.startsWith("#/moderation") ? await drawModeration(root, app)
              : await drawHome(root, app);
      if (turn !== routed) { // another page was asked for meanwhile: this one's streams and timers end
        if (page) page();
        return;
      }
      const elsewhere = m && me() ? watchElsewhere(m[1], $("turns-elsewhere"), $("elsewhere-said")) : null;
      leaving = () => {
        if (page) page();
        if (elsewhere) elsewhere();
      };
    } catch (e) {
      app.fail(e);
    }
  },
};

function header() {
  document.documentElement.lang = lang();
  $("tagline").textContent = t("tagline");
  const picker = $("lang");
  picker.replaceChildren(...Object.entries(LANGS).map(([code, label]) => {
    const o = el("option", null, label);
    o.value = code;
    o.selected = code === lang();
    return o;
  }));
  $("lang-label").textContent = t("language");
  const player = me();
  const who = $("who");
  who.replaceChildren();
  $("moderation-link").hidden = true;
  if (player) {
    const out = el("button", "sign-out", t("signOut"));
    out.type = "button";
    out.id = "sign-out";
    out.addEventListener("click", () => askSignOut(player, out));
    const bell = el("button", "notify");
    bell.type = "button";
    askNotifications(bell);
    add(who, el("span", "me", t("signedInAs", { name: player.name || "?" })), bell, out);
    showModerationLink(player);
  }
  $("token-note").textContent = t("tokenOnce");
  $("token-copy").textContent = t("copy");
  $("token-done").textContent = t("dismiss");
}

// Operators see a link to their page (roles, moderation) (their roles, read once per sign-in).
let rolesOf = null;
function showModerationLink(player) {
  const link = $("moderation-link");
  link.textContent = t("operatorsLink");
  if (!rolesOf || rolesOf.id !== player.id) {
    rolesOf = { id: player.id, roles: get("/players/me").then((p) => p.roles || [], () => []) };
  }
  rolesOf.roles.then((roles) => { link.hidden = !roles.includes("operator"); });
}

// Signing out forgets the only key to this player (the token was shown once): the page says
// so, offers the token to copy, and signs out only when asked again.
function askSignOut(player, opener) {
  const old = $("sign-out-ask");
  if (old) old.remove();
  const box = el("div", "token-once sign-out-ask");
  box.id = "sign-out-ask";
  box.setAttribute("role", "alertdialog");
  box.setAttribute("aria-labelledby", "sign-out-warn");
  const warn = el("p", null, t("signOutWarn", { name: player.name || "?" }));
  warn.id = "sign-out-warn";
  const token = el("input");
  token.readOnly = true;
  token.value = player.token;
  token.setAttribute("aria-label", t("token"));
  const copy = el("button", null, t("copy"));
  copy.type = "button";
  copy.addEventListener("click", () => {
    token.select();
    if (navigator.clipboard) navigator.clipboard.writeText(token.value).catch(() => {});
    copy.textContent = t("copied");
  });
  const leave = el("button", "primary", t("signOutConfirm"));
  leave.type = "button";
  leave.id = "sign-out-confirm";
  leave.addEventListener("click", async () => {
    box.remove();
    await stopPush().catch(() => {});
    forget();
    location.hash = "#/";
    app.route();
  });
  const stay = el("button", null, t("signOutStay"));
  stay.type = "button";
  stay.addEventListener("click", () => {
    box.remove();
    opener.focus();
  });
  add(box, warn, add(el("div", "inline"), token, copy), add(el("div", "inline"), leave, stay));
  $("token-once").after(box);
  token.focus();
  token.select();
}

function wire() {
  $("lang").addEventListener("change", (e) => {
    setLang(e.target.value);
    app.route();
  });
  $("token-copy").addEventListener("click", () => {
    $("token-value").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("token-value").value).catch(() => {});
    $("token-copy").textContent = t("copied");
  });
  $("token-done").addEventListener("click", () => {
    $("token-value").value = "";
    $("token-once").hidden = true;
  });
  window.addEventListener("hashchange", () => app.route());
}

wire();
watchReveals(); // on every page: this browser's seats reveal once their tables fill
watchLeagueSeeds(); // and its league seats, from the chain it registered with each league
app.route();

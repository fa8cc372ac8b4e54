// Sign in: pick a name (and a handle) for a new player, or paste the token of one.
import { add, el } from "../shared/dom.js";
import { get, post, remember } from "./api.js";
import { t } from "./i18n.js";
import { section } from "./homelists.js";

export function signIn(app) {
  const box = section(t("pickName"), "sign-in");
  const formBox = el("form", "inline fields");
  const input = el("input");
  input.id = "name-input";
  input.required = true;
  input.maxLength = 40;
  input.autocomplete = "nickname";
  const label = el("label", null, t("name"));
  label.htmlFor = input.id;
  const handle = el("input");
  handle.id = "handle-input";
  handle.maxLength = 24;
  handle.autocomplete = "username";
  const handleLabel = el("label", null, t("handle"));
  handleLabel.htmlFor = handle.id;
  const hint = el("small", "muted", t("handleHint"));
  hint.id = "handle-hint";
  handle.setAttribute("aria-describedby", hint.id);
  const go = el("button", "primary", t("play"));
  go.type = "submit";
  add(formBox, add(el("div", "field"), label, input), add(el("div", "field"), handleLabel, handle, hint), go);
  formBox.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: input.value.trim() };
    if (!body.name) return void app.fail(new Error(t("err_name_blank"))); // a name of spaces
    if (handle.value.trim()) body.handle = handle.value.trim();
    try {
      const player = await post("/players", body);
      remember(player);
      app.showToken(player.token);
      app.route();
    } catch (err) {
      app.fail(err);
    }
  });
  const tokenBox = add(el("details", "token-in"), el("summary", null, t("haveToken")));
  const tokenForm = el("form", "inline");
  const tokenInput = el("input");
  tokenInput.id = "token-input";
  tokenInput.type = "password";
  tokenInput.autocomplete = "current-password";
  const tokenLabel = el("label", null, t("token"));
  tokenLabel.htmlFor = tokenInput.id;
  const use = el("button", null, t("useToken"));
  use.type = "submit";
  add(tokenForm, tokenLabel, tokenInput, use);
  tokenForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const token = tokenInput.value.trim();
    try {
      remember({ id: null, name: "", token });
      const who = await get("/players/me"); // who this token is
      remember({ ...who, token });
      app.route();
    } catch (err) {
      app.signOut();
      app.fail(err);
    }
  });
  return add(box, formBox, add(tokenBox, tokenForm));
}


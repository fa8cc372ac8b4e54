// Web Push on the home page: a toggle that subscribes this browser to the player's
// notifications while no marketfold page is open (service/notify/push.py), and turns them
// off again. It registers the service worker (/sw.js, scope /) that shows them. The
// subscription is made with the server's VAPID key (GET /v1/push/key) and handed to
// POST /v1/players/me/push-subscriptions; turning it off deletes it there and in the browser.
import { el, add } from "../shared/dom.js";
import { get, post, del } from "./api.js";
import { t } from "./i18n.js";

const WORKER = "/sw.js";
const WAIT_S = 15; // a browser whose push service does not answer is told so after this

function within(promise, seconds, what) {
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(what)), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// Register the service worker; resolves to its registration (null where unsupported).
export async function worker() {
  if (!("serviceWorker" in navigator)) return null;
  await navigator.serviceWorker.register(WORKER, { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function subscribe(reg) {
  const { public_key: key } = await get("/push/key");
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(key) };
  const sub = await within(reg.pushManager.subscribe(options), WAIT_S, t("pushNoService"));
  await post("/players/me/push-subscriptions", sub.toJSON());
}

async function unsubscribe(reg) {
  const sub = await reg.pushManager.getSubscription();
  if (!sub) return;
  const { subscriptions } = await get("/players/me/push-subscriptions");
  for (const s of subscriptions.filter((s) => s.endpoint === sub.endpoint)) {
    await del(`/players/me/push-subscriptions/${encodeURIComponent(s.id)}`);
  }
  await sub.unsubscribe();
}

// Signing out on this browser: it stops showing the player's notifications (another person
// may use it next). Best effort: the page signs out whatever the answer.
export async function stopPush() {
  if (!supported()) return;
  const reg = await navigator.serviceWorker.getRegistration("/");
  if (reg) await within(unsubscribe(reg), WAIT_S, t("pushNoService"));
}

// The home page's box: a heading, the toggle (a button with aria-pressed) and a status line.
export function pushBox() {
  const box = el("section", "box push");
  box.id = "push";
  const h = el("h2", null, t("pushTitle"));
  h.id = "push-title";
  box.setAttribute("aria-labelledby", h.id);
  const toggle = el("button", "push-toggle", t("pushOff"));
  toggle.type = "button";
  toggle.id = "push-toggle";
  toggle.setAttribute("aria-pressed", "false");
  toggle.setAttribute("aria-describedby", "push-said");
  const said = el("p", "muted", "");
  said.id = "push-said";
  said.setAttribute("role", "status");
  add(box, h, toggle, said);
  if (!supported()) {
    toggle.hidden = true;
    said.textContent = t("pushUnsupported");
    return box;
  }
  let reg = null;
  const show = (on, text) => {
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? t("pushOn") : t("pushOff");
    said.textContent = text || (Notification.permission === "denied" ? t("pushBlocked") : "");
  };
  const ready = worker()
    .then(async (r) => {
      reg = r;
      show(Boolean(await r.pushManager.getSubscription()));
    })
    .catch(() => {
      toggle.disabled = true;
      said.textContent = t("pushUnsupported");
    });
  toggle.addEventListener("click", async () => {
    await ready;
    if (!reg) return;
    toggle.disabled = true;
    try {
      if (toggle.getAttribute("aria-pressed") === "true") {
        await unsubscribe(reg);
        show(false, t("pushStopped"));
      } else if ((await Notification.requestPermission()) !== "granted") {
        show(false, t("pushBlocked"));
      } else {
        await subscribe(reg);
        show(true, t("pushStarted"));
      }
    } catch (err) {
      show(Boolean(await reg.pushManager.getSubscription()), t("pushFailed", { detail: err.message || String(err) }));
    } finally {
      toggle.disabled = false;
    }
  });
  return box;
}

// The player's notifications on the home page (GET /v1/players/me/notifications): the newest
// ones, unread first marked, each a link to its table (or league) with a "Mark read" button,
// "Mark all read", and the unread count in the page's header. Below it, the notification
// settings (PATCH /v1/players/me/notification-settings): e-mail address and whether it is
// verified, language, time zone, quiet hours, the reminder point, the daily digest, and for
// every type whether e-mail, push and webhooks tell of it. Every value is set as text.
import { el, add } from "../shared/dom.js";
import { get, post, call } from "./api.js";
import { t } from "./i18n.js";

const SHOWN = 10;
const CHANNELS = ["email", "push", "webhook"];
const REMINDERS = [null, 0.5, 0.25, 0.1];

// The header's count: a link to the inbox, hidden at zero; its label says it in words.
export function showUnread(n) {
  const link = document.getElementById("inbox-count");
  if (!link) return;
  link.hidden = !n;
  link.textContent = t("unreadBadge", { n });
  link.setAttribute("aria-label", n === 1 ? t("unreadOne") : t("unreadMany", { n }));
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString();
}

// Read the inbox; return {box, unread, key} (key: what it shows, to redraw only on change).
export async function inboxBox(app, reread) {
  const data = await get(`/players/me/notifications?limit=${SHOWN}`);
  showUnread(data.unread);
  const box = el("section", "box inbox");
  box.id = "inbox";
  const h = el("h2", null, t("inbox"));
  h.id = "inbox-title";
  box.setAttribute("aria-labelledby", h.id);
  const count = el("span", "badge unread-count", t("unreadCount", { n: data.unread }));
  count.id = "inbox-unread";
  add(box, add(h, el("span", null, " "), count));
  const list = el("ul", "notes");
  for (const n of data.notifications) {
    const li = el("li", n.read ? "note" : "note unread");
    li.dataset.note = n.id;
    const link = el("a", "note-title", n.title);
    link.href = n.url.startsWith("/#") ? n.url.slice(1) : n.url;
    const body = el("span", "note-body", n.body);
    const at = el("small", "muted", when(n.at));
    add(li, n.read ? null : el("span", "sr-only", `${t("unread")}: `), link, body, at);
    if (!n.read) {
      const mark = el("button", "mark-read", t("markRead"));
      mark.type = "button";
      mark.setAttribute("aria-label", `${t("markRead")}: ${n.title}`);
      mark.addEventListener("click", async () => {
        try {
          await post(`/players/me/notifications/${encodeURIComponent(n.id)}/read`);
          await reread();
        } catch (err) {
          app.fail(err);
        }
      });
      li.appendChild(mark);
    }
    list.appendChild(li);
  }
  add(box, list.childElementCount ? list : el("p", "muted", t("noNotes")));
  if (data.unread) {
    const all = el("button", "mark-all", t("markAllRead"));
    all.type = "button";
    all.addEventListener("click", async () => {
      try {
        await post("/players/me/notifications/read");
        await reread();
      } catch (err) {
        app.fail(err);
      }
    });
    box.appendChild(all);
  }
  return { box, unread: data.unread, key: JSON.stringify([data.unread, data.notifications.map((n) => [n.id, n.read])]) };
}

function labelled(text, control, hint) {
  const row = el("div", "sf-row");
  const label = el("label", "sf-label", text);
  label.htmlFor = control.id;
  add(row, label, control);
  if (hint) {
    hint.id = hint.id || `${control.id}-hint`;
    control.setAttribute("aria-describedby", hint.id);
    row.appendChild(hint);
  }
  return row;
}

function select(id, choices, chosen) {
  const s = el("select");
  s.id = id;
  for (const [value, text] of choices) {
    const o = el("option", null, text);
    o.value = value;
    if (value === chosen) o.selected = true;
    s.appendChild(o);
  }
  return s;
}

function zones(current) {
  let all = [];
  try {
    all = Intl.supportedValuesOf("timeZone");
  } catch {
    all = [];
  }
  if (!all.includes("UTC")) all = ["UTC", ...all];
  if (!all.includes(current)) all = [current, ...all];
  return all.map((z) => [z, z]);
}

// The settings panel, folded: drawn once from the settings read when it opens.
export function settingsBox(app) {
  const box = add(el("details", "box notify-settings"), el("summary", null, t("notifySettings")));
  box.id = "notify-settings";
  let drawn = false;
  box.addEventListener("toggle", async () => {
    if (!box.open || drawn) return;
    drawn = true;
    try {
      box.appendChild(settingsForm(await get("/players/me/notification-settings"), app));
    } catch (err) {
      drawn = false;
      app.fail(err);
    }
  });
  return box;
}

function settingsForm(s, app) {
  const form = el("form", "settings-form");
  const address = el("input");
  address.id = "notify-email";
  address.type = "email";
  address.autocomplete = "email";
  address.value = s.email ? s.email.address : "";
  const status = el("small", "muted", s.email ? (s.email.verified ? t("verified") : t("unverified")) : t("noAddress"));
  status.id = "notify-email-status";
  const language = select("notify-lang", [["en", "English"], ["es", "Español"]], s.lang);
  const zone = select("notify-zone", zones(s.time_zone), s.time_zone);
  const quiet = el("input");
  quiet.id = "notify-quiet";
  quiet.type = "checkbox";
  quiet.checked = !!s.quiet_hours;
  const start = el("input");
  start.id = "notify-quiet-start";
  start.type = "time";
  start.value = s.quiet_hours ? s.quiet_hours.start : "22:00";
  const end = el("input");
  end.id = "notify-quiet-end";
  end.type = "time";
  end.value = s.quiet_hours ? s.quiet_hours.end : "08:00";
  const reminder = select(
    "notify-reminder",
    REMINDERS.map((r) => [r === null ? "" : String(r), r === null ? t("never") : t("reminderAt", { n: Math.round(r * 100) })]),
    s.reminder === null ? "" : String(s.reminder),
  );
  const hours = [["", t("never")], ...Array.from({ length: 24 }, (_, h) => [String(h), `${String(h).padStart(2, "0")}:00`])];
  const digest = select("notify-digest", hours, s.digest_hour === null ? "" : String(s.digest_hour));
  const quietRow = add(el("div", "sf-row check"), quiet);
  const quietLabel = el("label", null, t("quietHours"));
  quietLabel.htmlFor = quiet.id;
  quietRow.appendChild(quietLabel);
  add(form,
    labelled(t("emailAddress"), address, status),
    labelled(t("language"), language),
    labelled(t("timeZone"), zone),
    quietRow,
    labelled(t("quietFrom"), start),
    labelled(t("quietTo"), end),
    labelled(t("reminder"), reminder),
    labelled(t("digest"), digest));
  const table = el("table", "type-table");
  const caption = el("caption", null, t("whatTells"));
  const head = add(el("tr"), el("th", null, t("notification")), ...CHANNELS.map((c) => el("th", null, t(`channel_${c}`))));
  head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
  add(table, caption, add(el("thead"), head));
  const bodyRows = el("tbody");
  const boxes = [];
  for (const [type, channels] of Object.entries(s.types)) {
    const name = el("th", null, t(`type_${type}`));
    name.setAttribute("scope", "row");
    const row = add(el("tr"), name);
    for (const c of CHANNELS) {
      const check = el("input");
      check.type = "checkbox";
      check.checked = !!channels[c];
      check.setAttribute("aria-label", `${t(`type_${type}`)}: ${t(`channel_${c}`)}`);
      boxes.push([type, c, check]);
      row.appendChild(add(el("td"), check));
    }
    bodyRows.appendChild(row);
  }
  add(form, add(table, bodyRows));
  const saved = el("p", "muted", "");
  saved.setAttribute("role", "status");
  const save = el("button", "primary", t("save"));
  save.type = "submit";
  add(form, save, saved);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const types = {};
    for (const [type, c, check] of boxes) {
      if (check.checked !== !!s.types[type][c]) (types[type] = types[type] || {})[c] = check.checked;
    }
    const body = {
      lang: language.value,
      time_zone: zone.value,
      quiet_hours: quiet.checked ? { start: start.value, end: end.value } : null,
      reminder: reminder.value === "" ? null : Number(reminder.value),
      digest_hour: digest.value === "" ? null : Number(digest.value),
      types,
    };
    const typed = address.value.trim();
    if (typed !== (s.email ? s.email.address : "")) body.email = typed || null;
    try {
      const now = await call("PATCH", "/players/me/notification-settings", body);
      s = now;
      status.textContent = now.email ? (now.email.verified ? t("verified") : t("unverified")) : t("noAddress");
      saved.textContent = t("savedSettings");
    } catch (err) {
      saved.textContent = "";
      app.fail(err);
    }
  });
  return form;
}

// The turn signal: the tab's title says when a decision is yours, and (if the person allowed
// it) a browser notification says so once when the decision becomes theirs.
import { t } from "./i18n.js";

let was = false;
const BASE = "marketfold";

export function signal(mine, gameName = "") {
  document.title = mine ? `● ${t("yourTurn")} · ${gameName} · ${BASE}` : gameName ? `${gameName} · ${BASE}` : BASE;
  if (mine && !was && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(`${gameName}: ${t("yourTurn")}`);
  }
  was = mine;
}

export function askNotifications(button) {
  if (!("Notification" in window)) {
    button.hidden = true;
    return;
  }
  const mark = () => {
    button.textContent = Notification.permission === "granted" ? t("notifyOn") : t("notify");
    button.disabled = Notification.permission !== "default";
  };
  mark();
  button.addEventListener("click", () => Notification.requestPermission().then(mark));
}

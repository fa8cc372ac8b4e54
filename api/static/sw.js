// The web client's service worker (served at /sw.js, scope /): it shows the notifications
// the server sends by Web Push (service/notify/push.py: {title, body, url, id}) and opens
// the notification's link on a click. It fetches nothing and caches nothing. A link to
// another site is never opened: the home page is, instead.
"use strict";

const HOME = new URL("/", self.location.origin).href;

function sameSite(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : HOME;
  } catch {
    return HOME;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" && data.title ? data.title : "marketfold";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.id === "string" ? data.id : "", // a second delivery replaces the first
    data: { url: sameSite(data.url) },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || HOME;
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = open.find((w) => w.url === url && "focus" in w);
      if (same) return same.focus();
      return self.clients.openWindow(url);
    })(),
  );
});

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

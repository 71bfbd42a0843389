// Strikeline's service worker: shows the Web Push notifications the server sends (decrypted by
// the browser) and opens the page a notification is about when it is clicked. Nothing is cached.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Strikeline";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: "/favicon.svg",
      data: { url: typeof data.url === "string" ? data.url : "/notifications" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only this site's pages: anything else opens the dashboard.
  let target = new URL("/", self.location.origin);
  try {
    const url = new URL(event.notification.data?.url ?? "/", self.location.origin);
    if (url.origin === self.location.origin) target = url;
  } catch {
    // keep the dashboard
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) return open.navigate(target.href).then((w) => (w ?? open).focus());
      return self.clients.openWindow(target.href);
    }),
  );
});

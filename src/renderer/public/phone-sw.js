// LetAgents on a paired phone: shows notifications for the page (issue 37) and opens the item a
// notification is about when tapped. No fetch handler: nothing is cached, every page is fresh.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin);
  // Only this page's own links open.
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const win of windows) if ('focus' in win) return win.navigate(url.href).then((w) => (w ?? win).focus());
      return self.clients.openWindow(url.href);
    }),
  );
});

// The phone page's service worker (public/phone-sw.js, issue 37): phone browsers show page
// notifications only through one (Android's Chrome has no `new Notification()`), and a tap on
// one opens the item. It caches nothing. Registration needs a certificate the phone trusts.
export const PHONE_WORKER = '/phone-sw.js';

export async function registerPhoneWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register(PHONE_WORKER, { scope: '/' });
  } catch {
    // An untrusted certificate, or a private window: notifications then come from ntfy only.
    return null;
  }
}

/** Shows a notification through the worker (else the page's own Notification, where there is one). */
export async function showPhoneNotification(title: string, body: string, tag: string, url: string): Promise<boolean> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/').catch(() => undefined) : undefined;
  if (registration) {
    await registration.showNotification(title, { body, tag, data: { url } });
    return true;
  }
  try {
    new Notification(title, { body, tag });
    return true;
  } catch {
    return false;
  }
}

// In the browser host: a tool use an agent waits to have allowed shows a browser notification
// while the window is not focused (the desktop app's own notifications cover Electron). Asked
// permission for on the person's first click in the page; never asked again once refused.
import { useEffect, useRef } from 'react';
import type { NeedsYouItem } from '../../../../shared/types';
import { itemKey } from './useNeedsYouAnnouncements';

export function useApprovalNotifications(items: readonly NeedsYouItem[] | undefined, enabled: boolean): void {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!enabled || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    const ask = () => void Notification.requestPermission().catch(() => undefined);
    window.addEventListener('click', ask, { once: true });
    return () => window.removeEventListener('click', ask);
  }, [enabled]);
  useEffect(() => {
    if (!items) return;
    const first = seen.current === null;
    seen.current ??= new Set();
    const arrived = items.filter((item) => item.approval && !seen.current!.has(itemKey(item)));
    for (const item of arrived) seen.current.add(itemKey(item));
    if (first || !enabled || document.hasFocus() || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const item of arrived) new Notification(item.title, { body: item.approval!.summary || item.approval!.tool, tag: itemKey(item) });
  }, [items, enabled]);
}

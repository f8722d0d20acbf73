// While the paired page is open (issue 37), what newly needs the person also shows as the
// phone's own notification when the page is not in view; a tap opens the item. The phone asks
// for permission only when the person presses "Notify me on this phone" (NotifyOnPhone).
import { useEffect, useRef } from 'react';
import type { NeedsYouItem } from '../../../../shared/types';
import { waitsForPerson } from '../../../../shared/model/needsYou';
import { phoneItemHash } from '../../../../shared/phoneLinks';
import { itemKey } from '../needsYou/useNeedsYouAnnouncements';
import { showPhoneNotification } from './phoneWorker';

export function usePhoneNotifications(items: readonly NeedsYouItem[] | undefined): void {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!items) return;
    const first = seen.current === null;
    seen.current ??= new Set();
    const arrived = items.filter((item) => waitsForPerson(item) && !seen.current!.has(itemKey(item)));
    for (const item of arrived) seen.current.add(itemKey(item));
    // What waited already when the page opened is not news; nor is anything while the page is in view.
    if (first || document.visibilityState === 'visible') return;
    for (const item of arrived) {
      void showPhoneNotification(item.title, `${item.from} in ${item.roomName}`, itemKey(item), `/${phoneItemHash(item.ref)}`);
    }
  }, [items]);
}

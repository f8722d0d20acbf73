// "Needs you" arrivals, told to screen readers once each, wherever the person is in the app:
// the queue as it first loads is not news; each item that joins it later is, one time.
import { useEffect, useRef } from 'react';
import type { NeedsYouItem } from '../../../../shared/types';
import { needsYouKey } from '../../../../shared/model/needsYou';
import { useAnnounce } from '../../components/LiveAnnouncer';
import { REASON_WORDS } from './NeedsYouCard';

export const itemKey = (item: Pick<NeedsYouItem, 'ref'>): string => needsYouKey(item.ref);

export function describeArrivals(items: readonly NeedsYouItem[]): string {
  if (items.length === 1) return `Needs you: ${REASON_WORDS[items[0].reason]} from ${items[0].from}: ${items[0].title}`;
  return `${items.length} new items need you`;
}

export function useNeedsYouAnnouncements(items: readonly NeedsYouItem[] | undefined): void {
  const announce = useAnnounce();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!items) return;
    const first = seen.current === null;
    seen.current ??= new Set();
    const arrived = items.filter((item) => !seen.current!.has(itemKey(item)));
    for (const item of arrived) seen.current.add(itemKey(item));
    if (!first && arrived.length > 0) announce(describeArrivals(arrived), `needs-you:${arrived.map(itemKey).join(',')}`);
  }, [items, announce]);
}

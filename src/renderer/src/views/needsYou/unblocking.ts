// A blocked task and the decision that unblocks it are one item in "Needs you" (issue 27):
// the request whose "unblocks" names a task that is itself in the queue as blocked carries
// that task along, and the task leaves the list as an item of its own.
import type { NeedsYouItem } from '../../../../shared/types';
import { LOCAL } from '../../lib/rooms';

export interface NeedsYouEntry {
  item: NeedsYouItem;
  /** The blocked task this item's answer unblocks, when it is in the queue too. */
  blocked?: NeedsYouItem;
}

/** The task number an item's "Unblocks: task_3" names, or null. */
export function unblockedTaskNumber(item: NeedsYouItem): number | null {
  const match = /\btask_(\d+)\b/.exec(item.unblocks ?? '');
  return match ? Number(match[1]) : null;
}

const taskKey = (roomId: string, place: string | undefined, number: number) => `${place ?? LOCAL}\n${roomId}\n${number}`;

export function withUnblocking(items: readonly NeedsYouItem[]): NeedsYouEntry[] {
  const blocked = new Map<string, NeedsYouItem>();
  for (const item of items) {
    if (item.reason === 'task_blocked' && item.ref.kind === 'task') blocked.set(taskKey(item.ref.roomId, item.ref.place, item.ref.number), item);
  }
  const joined = new Set<NeedsYouItem>();
  const entries: NeedsYouEntry[] = [];
  for (const item of items) {
    const number = item.ref.kind === 'request' ? unblockedTaskNumber(item) : null;
    const task = number === null ? undefined : blocked.get(taskKey(item.ref.roomId, item.ref.place, number));
    if (task && !joined.has(task)) {
      joined.add(task);
      entries.push({ item, blocked: task });
    } else entries.push({ item });
  }
  return entries.filter((entry) => !joined.has(entry.item));
}

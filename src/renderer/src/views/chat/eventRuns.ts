// Runs of room events in the timeline (issue 27): three or more in a row fold into one line,
// "12 board updates", that opens in place, so the conversation is not crowded out.
import type { TimelineMessage } from '../../../../shared/types';

/** Fewer events in a row than this stay as they are. */
export const FOLD_FROM = 3;

export interface EventRun {
  /** Index of the run's first event in the window. */
  readonly start: number;
  readonly length: number;
  /** "board updates" when every event is about a task, else "room events". */
  readonly noun: string;
}

export const isRoomEvent = (message: TimelineMessage): boolean => message.source === 'system';

/** For each index, the foldable run it belongs to (or undefined). */
export function eventRuns(messages: readonly TimelineMessage[]): (EventRun | undefined)[] {
  const runs: (EventRun | undefined)[] = new Array(messages.length);
  let i = 0;
  while (i < messages.length) {
    let end = i;
    while (end < messages.length && isRoomEvent(messages[end])) end++;
    if (end - i >= FOLD_FROM) {
      const slice = messages.slice(i, end);
      const run = { start: i, length: end - i, noun: slice.every((m) => /\btask_\d+/.test(m.text)) ? 'board updates' : 'room events' };
      for (let k = i; k < end; k++) runs[k] = run;
    }
    i = end === i ? i + 1 : end;
  }
  return runs;
}

// Renders the Markdown of messages that just loaded while the page is idle, so the rows
// a reader scrolls into next mount without parsing anything inside a frame.
import { useCallback, useEffect, useRef } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { isMessageMarkdownReady, renderMessageMarkdown } from '../../lib/markdown';
import { shownText } from './rows';

interface Deadline {
  timeRemaining(): number;
}

/** Leaves this much of an idle period unused, so a frame that is due is not held up. */
const SPARE_MS = 2;
/** At most this long per slice: the idle estimate is only a guess on a busy machine. */
const SLICE_MS = 4;

function whenIdle(run: (deadline: Deadline) => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run);
    return () => cancelIdleCallback(handle);
  }
  // No idle callbacks (older engines, test DOMs): small slices between tasks.
  const timer = setTimeout(() => {
    const until = performance.now() + 8;
    run({ timeRemaining: () => until - performance.now() });
  }, 16);
  return () => clearTimeout(timer);
}

/**
 * Returns `prepare(messages)`: queues them (in the order given, so pass the ones nearest the
 * reader first) and renders them a few at a time in idle periods. Stops on unmount.
 */
export function useMarkdownPreparation(): (messages: readonly TimelineMessage[]) => void {
  const queue = useRef<TimelineMessage[]>([]);
  const cancel = useRef<(() => void) | null>(null);

  const work = useCallback((deadline: Deadline) => {
    cancel.current = null;
    const until = performance.now() + SLICE_MS;
    let done = 0;
    // At least one per slice, so preparation also advances on a machine that is never idle.
    while (queue.current.length > 0 && (done === 0 || (deadline.timeRemaining() > SPARE_MS && performance.now() < until))) {
      const message = queue.current.shift()!;
      const text = shownText(message);
      if (!isMessageMarkdownReady(message.number, text)) renderMessageMarkdown(message.number, text);
      done++;
    }
    if (queue.current.length > 0) cancel.current = whenIdle(work);
  }, []);

  useEffect(
    () => () => {
      cancel.current?.();
      cancel.current = null;
      queue.current = [];
    },
    [],
  );

  return useCallback(
    (messages: readonly TimelineMessage[]) => {
      // Newer arrivals are nearer the reader than whatever is still waiting.
      queue.current = [...messages, ...queue.current];
      if (!cancel.current) cancel.current = whenIdle(work);
    },
    [work],
  );
}

// The chat's loaded window of a room: the newest page first, older pages on demand, a page
// around a message to jump to, and live messages from core events.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import type { RoomRef } from '../../lib/rooms';
import { errorMessage } from '../../api/client';
import { useAppEvents, useReconnect } from '../../api/useAppEvents';
import type { TimelineMessage } from '../../../../shared/types';
import { applyLiveMessage, mergeMessages, type TimelineWindow } from './timelineState';
import { useMarkdownPreparation } from './useMarkdownPreparation';

export const PAGE_SIZE = 100;

export type TimelineStatus = 'loading' | 'ready' | 'error';

export interface Timeline extends TimelineWindow {
  status: TimelineStatus;
  error: string | null;
  loadingOlder: boolean;
  /** Bumps each time the window is replaced (first load, jump, back to latest). */
  generation: number;
  /** The person's latest sent message (and a count, so sending twice is two changes): the timeline brings it into view. */
  sent: { number: number; count: number } | null;
  loadOlder(): void;
  loadNewer(): void;
  jumpTo(number: number): Promise<void>;
  reload(): void;
  /** Adds a message the person just sent (the event may come before or after; no duplicates) and brings it into view. */
  add(message: TimelineMessage): void;
}

const EMPTY: TimelineWindow = { messages: [], hasMoreBefore: false, hasMoreAfter: false };

/** The timeline of `room` (its id and place). */
export function useTimeline(room: RoomRef): Timeline {
  const { roomId, place } = room;
  const api = useApi();
  const [window, setWindow] = useState<TimelineWindow>(EMPTY);
  const [status, setStatus] = useState<TimelineStatus>('loading');
  const [error, setError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [sent, setSent] = useState<Timeline['sent']>(null);
  const busy = useRef(false);
  // The page last fetched ("before:151"): scroll events between its arrival and the next
  // render still see the old window and would fetch the same page again.
  const fetched = useRef<string | null>(null);
  /** Counts replaced windows, so a page that lands after a jump is not merged into the new one. */
  const replaced = useRef(0);
  const current = useRef(window);
  current.current = window;
  const prepare = useMarkdownPreparation();

  const replace = useCallback(
    async (input: { around?: number }) => {
      try {
        const page = await api.call('messages.timeline', { roomId, place, limit: PAGE_SIZE, ...input });
        replaced.current++;
        setWindow(page);
        fetched.current = null;
        setStatus('ready');
        setError(null);
        setGeneration((g) => g + 1);
        // The reader starts at the bottom (or at a focus in the middle): newest first.
        prepare([...page.messages].reverse());
      } catch (thrown) {
        setError(errorMessage(thrown));
        setStatus('error');
      }
    },
    [api, roomId, place, prepare],
  );

  useEffect(() => {
    setStatus('loading');
    setWindow(EMPTY);
    void replace({});
  }, [replace]);
  useReconnect(() => void replace({}));

  const page = useCallback(
    async (direction: 'before' | 'after') => {
      const { messages, hasMoreBefore, hasMoreAfter } = current.current;
      if (busy.current || messages.length === 0) return;
      if (direction === 'before' ? !hasMoreBefore : !hasMoreAfter) return;
      const edge = direction === 'before' ? messages[0].number : messages[messages.length - 1].number;
      if (fetched.current === `${direction}:${edge}`) return;
      busy.current = true;
      fetched.current = `${direction}:${edge}`;
      if (direction === 'before') setLoadingOlder(true);
      const windowAtStart = replaced.current;
      try {
        const next = await api.call('messages.timeline', { roomId, place, limit: PAGE_SIZE, [direction]: edge });
        if (replaced.current !== windowAtStart) return;
        setWindow((old) => ({
          messages: mergeMessages(old.messages, next.messages),
          hasMoreBefore: direction === 'before' ? next.hasMoreBefore : old.hasMoreBefore,
          hasMoreAfter: direction === 'after' ? next.hasMoreAfter : old.hasMoreAfter,
        }));
        // Rows nearest the reader come into view first.
        prepare(direction === 'before' ? [...next.messages].reverse() : next.messages);
      } catch (thrown) {
        fetched.current = null; // the next scroll tries again
        setError(errorMessage(thrown));
      } finally {
        busy.current = false;
        setLoadingOlder(false);
      }
    },
    [api, roomId, place, prepare],
  );

  useAppEvents((event) => {
    if (event.type === 'message.created' && event.roomId === roomId && event.place === place) setWindow((old) => applyLiveMessage(old, event.message));
    // The team's connection came back: what others posted meanwhile is read again.
    if (event.type === 'place.reconnected' && event.place === place) void replace({});
  });

  const jumpTo = useCallback(
    async (number: number) => {
      if (current.current.messages.some((message) => message.number === number)) return;
      await replace({ around: number });
    },
    [replace],
  );

  return {
    ...window,
    status,
    error,
    loadingOlder,
    generation,
    sent,
    loadOlder: () => void page('before'),
    loadNewer: () => void page('after'),
    jumpTo,
    reload: () => void replace({}),
    add: (message) => {
      setSent((old) => ({ number: message.number, count: (old?.count ?? 0) + 1 }));
      // Reading an older stretch (after a jump): the newest page, where the message is.
      if (current.current.hasMoreAfter) void replace({});
      else setWindow((old) => applyLiveMessage(old, message));
    },
  };
}

// New messages in the open room, told to screen readers in batches: the first arrival starts
// a short window, and everything that arrives in it is one announcement ("3 new messages
// from Atlas and Birch"), so a busy room never reads out message after message.
import { useEffect, useRef } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import type { RoomRef } from '../../lib/rooms';
import { useAppEvents } from '../../api/useAppEvents';
import { useAnnounce } from '../../components/LiveAnnouncer';

export const BATCH_MS = 2000;
const EXCERPT = 140;

/** The sentence for a batch: the message itself when alone, else a count and who wrote them. */
export function describeNewMessages(messages: readonly TimelineMessage[]): string {
  if (messages.length === 1) {
    const [only] = messages;
    const text = only.text.replace(/\s+/g, ' ').trim();
    return `New message from ${only.sender.name}: ${text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text}`;
  }
  const names = [...new Set(messages.map((m) => m.sender.name))];
  const who = names.length <= 3 ? joinNames(names) : `${names.slice(0, 2).join(', ')} and ${names.length - 2} others`;
  return `${messages.length} new messages from ${who}`;
}

function joinNames(names: string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Announces messages others post in `room` (the person's own, status lines and events are not news). */
export function useMessageAnnouncements(room: RoomRef): void {
  const { roomId, place } = room;
  const announce = useAnnounce();
  const pending = useRef<TimelineMessage[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useAppEvents((event) => {
    if (event.type !== 'message.created' || event.roomId !== roomId || event.place !== place) return;
    const { message } = event;
    if (message.kind !== 'message' || message.source === 'system' || message.fromYou) return;
    pending.current.push(message);
    timer.current ??= setTimeout(() => {
      timer.current = null;
      const batch = pending.current.splice(0);
      // Keyed by its first message: two batches may read alike ("2 new messages from Atlas") and both are news.
      if (batch.length > 0) announce(describeNewMessages(batch), `messages:${roomId}:${batch[0].number}`);
    }, BATCH_MS);
  });

  // Leaving the room drops what was not said yet: it belongs to a room no longer on screen.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      pending.current = [];
    },
    [roomId, place],
  );
}

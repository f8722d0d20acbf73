// How each timeline row is drawn: a day divider before the first message of a day, and a
// continued message (no avatar) when the same sender posts again within five minutes.
import { withStatusLabels } from '../../../../shared/taskTransitions';
import type { TimelineMessage } from '../../../../shared/types';

const GROUP_MS = 5 * 60_000;

export function isCompact(message: TimelineMessage): boolean {
  return message.kind !== 'message' || message.source === 'system';
}

export function startsNewDay(previous: TimelineMessage | undefined, message: TimelineMessage): boolean {
  if (!previous) return true;
  return new Date(previous.createdAt).toDateString() !== new Date(message.createdAt).toDateString();
}

export function continuesGroup(previous: TimelineMessage | undefined, message: TimelineMessage): boolean {
  if (!previous || isCompact(previous) || isCompact(message)) return false;
  if (previous.sender.label !== message.sender.label || message.replyTo) return false;
  return new Date(message.createdAt).getTime() - new Date(previous.createdAt).getTime() < GROUP_MS;
}

/** The text a row shows: a status post without its "[status]" prefix, a room event with status labels. */
export function shownText(message: TimelineMessage): string {
  if (message.kind === 'status') return message.text.replace(/^\[status\]\s*/i, '');
  return message.source === 'system' ? withStatusLabels(message.text) : message.text;
}

/** "Juniper, 5 min ago": what a screen reader says first about a message or a compact line (`when` from useTimeText). */
export function messageLabel(message: TimelineMessage, when: string): string {
  return `${message.sender.name}, ${when}`;
}

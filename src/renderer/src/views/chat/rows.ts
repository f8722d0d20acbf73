// How each timeline row is drawn: a day divider before the first message of a day, and a
// continued message (no avatar) when the same sender posts again within five minutes.
import type { TimelineMessage } from '../../../../shared/types';
import { formatClock } from '../../lib/time';

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

/** The text a row shows: a status post without its "[status]" prefix. */
export function shownText(message: TimelineMessage): string {
  return message.kind === 'status' ? message.text.replace(/^\[status\]\s*/i, '') : message.text;
}

/** "Juniper, 14:05": what a screen reader says first about a message or a compact line. */
export function messageLabel(message: TimelineMessage): string {
  return `${message.sender.name}, ${formatClock(message.createdAt)}`;
}

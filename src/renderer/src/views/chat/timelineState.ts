// Pure updates of a loaded timeline window: merging pages, live messages and reply counts.
import type { TimelineMessage } from '../../../../shared/types';

export interface TimelineWindow {
  messages: TimelineMessage[];
  hasMoreBefore: boolean;
  hasMoreAfter: boolean;
}

/** Merges messages into the window by number (no duplicates, oldest first). */
export function mergeMessages(current: TimelineMessage[], incoming: TimelineMessage[]): TimelineMessage[] {
  if (incoming.length === 0) return current;
  // The usual cases, without re-sorting the whole window: a page of older or newer messages.
  const first = current[0]?.number ?? Infinity;
  const last = current[current.length - 1]?.number ?? -Infinity;
  if (isAscending(incoming)) {
    if (incoming[incoming.length - 1].number < first) return [...incoming, ...current];
    if (incoming[0].number > last) return [...current, ...incoming];
  }
  const byNumber = new Map(current.map((message) => [message.number, message]));
  for (const message of incoming) byNumber.set(message.number, message);
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

function isAscending(messages: TimelineMessage[]): boolean {
  for (let i = 1; i < messages.length; i++) if (messages[i].number <= messages[i - 1].number) return false;
  return true;
}

/**
 * Applies a live message: a top-level one joins the window when the window reaches the
 * newest message; a thread reply bumps its root's reply count.
 */
export function applyLiveMessage(window: TimelineWindow, message: TimelineMessage): TimelineWindow {
  if (message.threadRootNumber !== null) {
    let changed = false;
    const messages = window.messages.map((root) => {
      if (root.number !== message.threadRootNumber) return root;
      changed = true;
      return { ...root, replyCount: root.replyCount + 1, lastReplyAt: message.createdAt };
    });
    return changed ? { ...window, messages } : window;
  }
  if (window.hasMoreAfter) return window;
  const last = window.messages[window.messages.length - 1];
  if (last && last.number === message.number) return window;
  if (last && last.number > message.number) return { ...window, messages: mergeMessages(window.messages, [message]) };
  return { ...window, messages: [...window.messages, message] };
}

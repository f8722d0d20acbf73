// Message queries of the API double: timeline pages (newest, before, after, around), threads
// and search with highlighted snippets, over an in-memory list.
import type { SearchHit, TimelineMessage, TimelinePage } from '../../../src/shared/types';

/** Top-level messages with reply counts worked out from the replies. */
export function topLevel(all: TimelineMessage[]): TimelineMessage[] {
  const replies = new Map<number, { count: number; last: string | null }>();
  for (const m of all) {
    if (m.threadRootNumber === null) continue;
    const entry = replies.get(m.threadRootNumber) ?? { count: 0, last: null };
    entry.count += 1;
    entry.last = m.createdAt;
    replies.set(m.threadRootNumber, entry);
  }
  return all
    .filter((m) => m.threadRootNumber === null)
    .map((m) => {
      const r = replies.get(m.number);
      return r ? { ...m, replyCount: r.count, lastReplyAt: r.last } : { ...m, replyCount: 0, lastReplyAt: null };
    });
}

export function timelinePage(all: TimelineMessage[], input: { before?: number; after?: number; around?: number; limit?: number }): TimelinePage {
  const top = topLevel(all);
  const limit = input.limit ?? 100;
  let start: number;
  let end: number; // exclusive
  if (input.before !== undefined) {
    end = top.findIndex((m) => m.number >= input.before!);
    if (end < 0) end = top.length;
    start = Math.max(0, end - limit);
  } else if (input.after !== undefined) {
    start = top.findIndex((m) => m.number > input.after!);
    if (start < 0) start = top.length;
    end = Math.min(top.length, start + limit);
  } else if (input.around !== undefined) {
    let centre = top.findIndex((m) => m.number >= input.around!);
    if (centre < 0) centre = top.length - 1;
    start = Math.max(0, centre - Math.floor(limit / 2));
    end = Math.min(top.length, start + limit);
  } else {
    end = top.length;
    start = Math.max(0, end - limit);
  }
  return { messages: top.slice(start, end), hasMoreBefore: start > 0, hasMoreAfter: end < top.length };
}

export function searchMessages(all: TimelineMessage[], query: string, limit: number): { hits: SearchHit[]; hasMore: boolean } {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = all.filter((m) => terms.every((t) => m.text.toLowerCase().includes(t))).reverse();
  const hits = matches.slice(0, limit).map((m) => ({
    number: m.number,
    threadRootNumber: m.threadRootNumber,
    sender: m.sender,
    createdAt: m.createdAt,
    snippet: highlight(m.text, terms),
  }));
  return { hits, hasMore: matches.length > limit };
}

function highlight(text: string, terms: string[]): Array<{ text: string; hit: boolean }> {
  const pattern = new RegExp(`(${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, hit: terms.includes(part.toLowerCase()) }));
}

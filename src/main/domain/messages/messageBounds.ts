// Size bounds on agent-readable message lists (mcp-tools.md §5.2, §5.3): a message over
// 512 KiB is compacted to 64 KiB of text without inline attachment content, and a list is
// cut to 2 MiB of message JSON, keeping its oldest prefix or its newest suffix.
import type { AgentMessage } from './agentMessages';
import { cutToUtf8Bytes, utf8Bytes } from './validation';

export const MAX_LIST_BYTES = 2 * 1024 * 1024;
export const COMPACT_ABOVE_BYTES = 512 * 1024;
export const COMPACT_TEXT_BYTES = 64 * 1024;

export const messageJsonBytes = (message: AgentMessage): number => utf8Bytes(JSON.stringify(message));

/**
 * A stored text as a person's view gets it: as is up to 512 KiB (more than anyone can send),
 * else its first 64 KiB, like an agent's compacted message. A row from elsewhere (a team
 * database) can hold any size; the window never gets more than this per message.
 */
export function boundTextForView(text: string): { text: string; truncated: boolean } {
  if (text.length <= COMPACT_ABOVE_BYTES / 3 || utf8Bytes(text) <= COMPACT_ABOVE_BYTES) return { text, truncated: false };
  return { text: cutToUtf8Bytes(text, COMPACT_TEXT_BYTES), truncated: true };
}

/** The message itself when ≤ 512 KiB of JSON, else a copy cut down with `content_truncated: true`. */
export function compactLargeMessage(message: AgentMessage): AgentMessage {
  if (messageJsonBytes(message) <= COMPACT_ABOVE_BYTES) return message;
  const cut = (text: string) => cutToUtf8Bytes(text, COMPACT_TEXT_BYTES);
  const compacted: AgentMessage = {
    ...message,
    text: cut(message.text),
    attachments: message.attachments.map((a) => ({ ...a, data_url: null, content_base64: null })),
  };
  if (message.visible_text !== undefined) compacted.visible_text = cut(message.visible_text);
  if (message.agent_prompt !== undefined) compacted.agent_prompt = cut(message.agent_prompt);
  compacted.content_truncated = true;
  return compacted;
}

export interface BoundedMessages {
  messages: AgentMessage[];
  truncated: boolean;
  omittedCount: number;
}

/**
 * Keeps as many messages as fit in `maxBytes` of JSON: the oldest prefix (cursor reads, so
 * the caller can resume after the last kept one) or the newest suffix (tail reads).
 * Large messages are compacted first.
 */
export function boundMessageList(
  messages: readonly AgentMessage[],
  keep: 'oldest' | 'newest',
  maxBytes: number = MAX_LIST_BYTES,
): BoundedMessages {
  const compacted = messages.map(compactLargeMessage);
  const order = keep === 'oldest' ? compacted : [...compacted].reverse();
  const kept: AgentMessage[] = [];
  let bytes = 2; // the enclosing brackets
  for (const message of order) {
    const size = messageJsonBytes(message) + (kept.length > 0 ? 1 : 0); // comma separator
    if (bytes + size > maxBytes) break;
    bytes += size;
    kept.push(message);
  }
  if (keep === 'newest') kept.reverse();
  const omittedCount = messages.length - kept.length;
  return { messages: kept, truncated: omittedCount > 0, omittedCount };
}

// Per-connection limits for agents (issue 15 item 5), on the agent socket and each /mcp
// session alike: an agent that stops reading, or floods requests, has its connection
// closed (with a logged reason) instead of growing the app's memory; other agents carry on.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Replies written and not yet read by the agent (the UI socket has the same bound). */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/** Requests an agent may have waiting for their answers at once. */
export const MAX_CALLS_IN_FLIGHT = 64;

export const limitReasons = {
  unread: () => `more than ${MAX_UNREAD_BYTES / (1024 * 1024)} MiB of replies unread (the agent stopped reading)`,
  inFlight: () => `more than ${MAX_CALLS_IN_FLIGHT} calls in flight at once`,
} as const;

type Id = string | number;
const key = (id: Id) => `${typeof id}:${id}`;

/** Counts an agent's requests until they are answered (or cancelled). */
export class CallsInFlight {
  private readonly open = new Set<string>();

  /** A message from the agent; false when it takes the count past the limit. */
  received(message: JSONRPCMessage): boolean {
    const m = message as { id?: Id; method?: string; params?: { requestId?: Id } };
    if (typeof m.method !== 'string') return true;
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) this.open.delete(key(m.params.requestId));
    if (m.id === undefined) return true;
    this.open.add(key(m.id));
    return this.open.size <= MAX_CALLS_IN_FLIGHT;
  }

  /** A message to the agent: an answer ends its request. */
  sent(message: JSONRPCMessage): void {
    const m = message as { id?: Id; method?: string };
    if (m.method === undefined && m.id !== undefined && m.id !== null) this.open.delete(key(m.id));
  }
}

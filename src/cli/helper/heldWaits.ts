// wait_for_messages calls made while the app is away, held by the helper instead of failing at
// once (an agent told to keep waiting would call again at once, each call a paid model turn).
// Each is answered as an ordinary timeout when its time is up, saying the app is away, or sent
// to the app once it is back with the time it has left. Meanwhile a client that sent a progress
// token gets progress as from the app, and notifications/cancelled drops the call (no answer).
import { clampWaitTimeout, WAIT_PROGRESS_EVERY_MS } from '../../shared/waitTiming';

export type JsonRpcId = string | number;

export const idKey = (id: JsonRpcId) => `${typeof id}:${id}`;

interface Call {
  readonly id: JsonRpcId;
  readonly params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: unknown } };
}

interface Held {
  readonly call: Call;
  readonly startedAt: number;
  readonly waitMs: number;
  readonly timer: NodeJS.Timeout;
  readonly progress: NodeJS.Timeout | null;
}

const isWait = (m: { method?: unknown; params?: unknown }): boolean =>
  m.method === 'tools/call' && typeof m.params === 'object' && m.params !== null && (m.params as { name?: unknown }).name === 'wait_for_messages';

export class HeldWaits {
  private readonly held = new Map<string, Held>();

  constructor(
    /** Writes one JSON-RPC line to the agent. */
    private readonly toAgent: (line: string) => void,
    /** Why the app is away, as the other calls are told. */
    private readonly awayMessage: () => string,
    private readonly progressEveryMs = WAIT_PROGRESS_EVERY_MS,
  ) {}

  /** Holds the request when it is a wait_for_messages call; false for anything else. */
  hold(message: { id: JsonRpcId; method?: unknown; params?: unknown }): boolean {
    if (!isWait(message)) return false;
    const call = message as Call;
    const key = idKey(call.id);
    const waitMs = clampWaitTimeout(call.params.arguments?.timeout);
    const startedAt = Date.now();
    const token = call.params._meta?.progressToken;
    const progress =
      typeof token === 'string' || typeof token === 'number'
        ? setInterval(() => {
            const elapsed = Date.now() - startedAt;
            const text = `waited ${Math.round(elapsed / 1000)} s of ${Math.round(waitMs / 1000)} s (LetAgents is not running; waiting for it)`;
            this.toAgent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: elapsed, total: waitMs, message: text } }));
          }, this.progressEveryMs)
        : null;
    const timer = setTimeout(() => this.timedOut(key), waitMs);
    this.held.set(key, { call, startedAt, waitMs, timer, progress });
    return true;
  }

  /** A notifications/cancelled for a held call drops it; true when it was one (it goes no further). */
  cancel(message: { method?: unknown; params?: unknown }): boolean {
    if (message.method !== 'notifications/cancelled') return false;
    const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    return this.drop(idKey(requestId)) !== null;
  }

  /** The app is back: the held calls as lines to send it, each waiting only the time it has left. */
  release(): string[] {
    const lines: string[] = [];
    for (const key of [...this.held.keys()]) {
      const held = this.drop(key)!;
      const left = Math.max(1_000, Math.round(held.waitMs - (Date.now() - held.startedAt)));
      const params = { ...held.call.params, arguments: { ...held.call.params.arguments, timeout: left } };
      lines.push(JSON.stringify({ jsonrpc: '2.0', id: held.call.id, method: 'tools/call', params }));
    }
    return lines;
  }

  /** The helper stops: no timer stays behind. */
  clear(): void {
    for (const key of [...this.held.keys()]) this.drop(key);
  }

  private drop(key: string): Held | null {
    const held = this.held.get(key);
    if (!held) return null;
    this.held.delete(key);
    clearTimeout(held.timer);
    if (held.progress) clearInterval(held.progress);
    return held;
  }

  /** Its time is up with the app still away: the result of a wait that saw nothing new, saying why. */
  private timedOut(key: string): void {
    const held = this.drop(key);
    if (!held) return;
    const args = held.call.params.arguments ?? {};
    const result = {
      ...(typeof args.room_id === 'string' ? { room_id: args.room_id } : {}),
      messages: [],
      last_observed_message_id: typeof args.after_message_id === 'string' ? args.after_message_id : null,
      app_away: `${this.awayMessage()} Nothing sent meanwhile is lost: call wait_for_messages again with the same after_message_id to go on waiting.`,
    };
    const answer = { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
    this.toAgent(JSON.stringify({ jsonrpc: '2.0', id: held.call.id, result: answer }));
  }
}

// An agent that only waits: it loops on wait_for_messages from its cursor, as the spec
// tells agents to, until a message mentioning it arrives. It checks on the way that what
// it is shown only moves forward (strictly increasing numbers, never before its cursor).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from './mcpCalls';

interface WaitDoc {
  messages: Array<{ id: string; text: string }>;
  last_observed_message_id: string | null;
}

const numberOf = (id: string | null) => (id === null ? 0 : Number(id.slice('msg_'.length)));

export class Waiter {
  wokenBy: string | null = null;
  wakes = 0;
  readonly problems: string[] = [];
  private cursor: string | null = null;

  constructor(
    readonly name: string,
    readonly client: Client,
    readonly workerId: string,
  ) {}

  /** The first wait without a cursor returns at once with one; call before the load starts. */
  async takeCursor(): Promise<void> {
    const outcome = await callTool(this.client, 'wait_for_messages', { worker_id: this.workerId, timeout: 1_000 });
    if (outcome.kind !== 'ok') throw new Error(`${this.name}: first wait failed: ${JSON.stringify(outcome)}`);
    this.cursor = (outcome.doc as unknown as WaitDoc).last_observed_message_id;
  }

  /** Waits until a message mentions `@<name>`, or until `deadline` (epoch ms). */
  async waitForMention(deadline: number): Promise<void> {
    const mention = `@${this.name}`;
    while (this.wokenBy === null && Date.now() < deadline) {
      const args: Record<string, unknown> = { worker_id: this.workerId, timeout: Math.max(1_000, Math.min(60_000, deadline - Date.now())) };
      if (this.cursor !== null) args.after_message_id = this.cursor;
      const outcome = await callTool(this.client, 'wait_for_messages', args, 120_000);
      if (outcome.kind !== 'ok') {
        this.problems.push(`${this.name}: wait failed: ${JSON.stringify(outcome).slice(0, 300)}`);
        return;
      }
      const doc = outcome.doc as unknown as WaitDoc;
      let previous = numberOf(this.cursor);
      for (const message of doc.messages) {
        const n = numberOf(message.id);
        if (n <= previous) this.problems.push(`${this.name}: got ${message.id} after msg_${previous}`);
        previous = n;
        if (message.text.includes(mention)) this.wokenBy = message.id;
      }
      if (doc.messages.length > 0) this.wakes++;
      if (numberOf(doc.last_observed_message_id) < numberOf(this.cursor)) {
        this.problems.push(`${this.name}: cursor went back from ${this.cursor} to ${doc.last_observed_message_id}`);
      }
      this.cursor = doc.last_observed_message_id;
    }
  }
}
